//===- IndirectCallTable.cpp - Host-to-device function address table ------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "indirect/IndirectCallTable.h"

#include <algorithm>

namespace offload {

namespace {

constexpr uint64_t PointerSize = sizeof(void *);

std::string entryName(const ImageEntry &Entry) {
  return Entry.Name ? std::string("'") + Entry.Name + "'"
                    : std::string("(unnamed)");
}

/// Reads the pointer held by the device global of \p Entry.
bool readDevicePointer(const ImageEntry &Entry,
                       const IndirectCallDeviceAccess &Access, uintptr_t &Value,
                       std::string &Error) {
  void *Global = nullptr;
  std::string Why;
  if (!Access.FindGlobal(Entry.Name, PointerSize, Global, Why)) {
    Error = "indirect entry " + entryName(Entry) +
            " has no device counterpart: " + Why;
    return false;
  }
  void *Pointer = nullptr;
  if (!Access.Read(&Pointer, Global, PointerSize, Why)) {
    Error = "cannot read the device address of indirect entry " +
            entryName(Entry) + ": " + Why;
    return false;
  }
  Value = reinterpret_cast<uintptr_t>(Pointer);
  return true;
}

} // namespace

bool isIndirectCallEntry(const ImageEntry &Entry) {
  return Entry.Flags &
         (OMP_DECLARE_TARGET_INDIRECT | OMP_DECLARE_TARGET_INDIRECT_VTABLE);
}

bool collectIndirectCallPairs(const std::vector<ImageEntry> &Entries,
                              const IndirectCallDeviceAccess &Access,
                              std::vector<IndirectCallPair> &Out,
                              std::string &Error) {
  for (const ImageEntry &Entry : Entries) {
    if (!isIndirectCallEntry(Entry))
      continue;
    if (!Entry.Name || !Entry.Address) {
      Error = "indirect entry " + entryName(Entry) +
              " has no name or no host address";
      return false;
    }
    uintptr_t Host = reinterpret_cast<uintptr_t>(Entry.Address);
    uintptr_t Device = 0;
    if (Entry.Flags & OMP_DECLARE_TARGET_INDIRECT_VTABLE) {
      if (Entry.Size == 0 || Entry.Size % PointerSize) {
        Error = "indirect vtable entry " + entryName(Entry) + " has size " +
                std::to_string(Entry.Size) + ", not a whole number of pointers";
        return false;
      }
      if (!readDevicePointer(Entry, Access, Device, Error))
        return false;
      for (uint64_t Offset = 0; Offset < Entry.Size; Offset += PointerSize)
        Out.push_back({Host + Offset, Device + Offset});
      continue;
    }
    // A function: clang gives the entry the size of the pointer-sized
    // global that holds the device address.
    if (Entry.Size != PointerSize) {
      Error = "indirect function entry " + entryName(Entry) + " has size " +
              std::to_string(Entry.Size) + "; expected " +
              std::to_string(PointerSize);
      return false;
    }
    if (!readDevicePointer(Entry, Access, Device, Error))
      return false;
    Out.push_back({Host, Device});
  }
  return true;
}

void IndirectCallRegistry::addImage(const void *Image,
                                    std::vector<IndirectCallPair> Pairs) {
  for (ImagePairs &Record : Images)
    if (Record.Image == Image) {
      Record.Pairs = std::move(Pairs);
      return;
    }
  Images.push_back({Image, std::move(Pairs)});
}

void IndirectCallRegistry::removeImage(const void *Image) {
  Images.erase(std::remove_if(Images.begin(), Images.end(),
                              [&](const ImagePairs &Record) {
                                return Record.Image == Image;
                              }),
               Images.end());
}

std::vector<const void *> IndirectCallRegistry::images() const {
  std::vector<const void *> Result;
  for (const ImagePairs &Record : Images)
    Result.push_back(Record.Image);
  return Result;
}

size_t IndirectCallRegistry::numPairs() const {
  size_t Count = 0;
  for (const ImagePairs &Record : Images)
    Count += Record.Pairs.size();
  return Count;
}

std::vector<IndirectCallPair> IndirectCallRegistry::table() const {
  std::vector<IndirectCallPair> Table;
  Table.reserve(numPairs());
  for (const ImagePairs &Record : Images)
    Table.insert(Table.end(), Record.Pairs.begin(), Record.Pairs.end());
  // Stable: among equal host addresses the earliest image comes first and
  // is the one kept.
  std::stable_sort(Table.begin(), Table.end(),
                   [](const IndirectCallPair &A, const IndirectCallPair &B) {
                     return A.Host < B.Host;
                   });
  Table.erase(
      std::unique(Table.begin(), Table.end(),
                  [](const IndirectCallPair &A, const IndirectCallPair &B) {
                    return A.Host == B.Host;
                  }),
      Table.end());
  return Table;
}

} // namespace offload
