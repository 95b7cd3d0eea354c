//===- EntryTable.cpp - Reading offload entries of either layout ---------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "images/EntryTable.h"

#include <cstring>

using namespace offload;

static ImageEntry::Kind classify(uint64_t Size, uint32_t Flags) {
  if (Flags & OMP_REGISTER_REQUIRES)
    return ImageEntry::Requires;
  if (Flags &
      (OMP_DECLARE_TARGET_INDIRECT | OMP_DECLARE_TARGET_INDIRECT_VTABLE))
    return ImageEntry::Indirect;
  if (Size == 0)
    // Target regions have flags 0; the legacy ctor/dtor region flags (2, 4)
    // name functions the loader runs by itself on a CPU image.
    return Flags == 0 ? ImageEntry::Kernel : ImageEntry::Other;
  return (Flags & OMP_DECLARE_TARGET_LINK) ? ImageEntry::LinkGlobal
                                           : ImageEntry::Global;
}

bool offload::readEntryTable(const void *Begin, const void *End,
                             std::vector<ImageEntry> &Out, std::string &Error) {
  const char *First = static_cast<const char *>(Begin);
  const char *Last = static_cast<const char *>(End);
  if (First == Last)
    return true;
  if (!First || !Last || Last < First) {
    Error = "the entry table bounds are invalid";
    return false;
  }
  size_t Bytes = Last - First;
  // The first word tells the layouts apart; a table too short to hold it is
  // neither (and reading it would run past the table).
  uint64_t Leading;
  if (Bytes < sizeof(Leading)) {
    Error = "the entry table is " + std::to_string(Bytes) +
            " bytes, shorter than any entry";
    return false;
  }
  std::memcpy(&Leading, First, sizeof(Leading));
  bool Modern = Leading == 0;
  size_t Stride =
      Modern ? sizeof(__tgt_offload_entry) : sizeof(__tgt_offload_entry_legacy);
  if (Bytes % Stride != 0) {
    Error = "the entry table is " + std::to_string(Bytes) +
            " bytes, not a whole number of " + std::to_string(Stride) +
            "-byte " + (Modern ? "LLVM 22" : "legacy") + " entries";
    return false;
  }
  for (const char *P = First; P < Last; P += Stride) {
    ImageEntry E;
    if (Modern) {
      const auto *Raw = reinterpret_cast<const __tgt_offload_entry *>(P);
      E.Address = Raw->Address;
      E.Name = Raw->SymbolName;
      E.Size = Raw->Size;
      E.Flags = Raw->Flags;
      E.Data = Raw->Data;
    } else {
      const auto *Raw = reinterpret_cast<const __tgt_offload_entry_legacy *>(P);
      E.Address = Raw->addr;
      E.Name = Raw->name;
      E.Size = Raw->size;
      E.Flags = static_cast<uint32_t>(Raw->flags);
    }
    if (!E.Name) {
      Error = "entry " + std::to_string((P - First) / Stride) + " has no name";
      return false;
    }
    E.EntryKind = classify(E.Size, E.Flags);
    Out.push_back(E);
  }
  return true;
}
