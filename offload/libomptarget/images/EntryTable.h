//===- EntryTable.h - Reading offload entries of either layout -----------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A descriptor's entry table is an array of __tgt_offload_entry (LLVM 22,
// 56 bytes, first field zero) or of the legacy five-field entry (32 bytes,
// first field an address). The table is read once into ImageEntry values
// so the rest of the runtime never cares which layout it came in.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_LIBOMPTARGET_ENTRYTABLE_H
#define OFFLOAD_LIBOMPTARGET_ENTRYTABLE_H

#include "OffloadABI.h"

#include <cstdint>
#include <string>
#include <vector>

namespace offload {

/// One entry of a registered image's table, classified for the runtime.
/// Distinct from llvm::offload::OffloadEntry, which the linker wrapper reads
/// from object files.
struct ImageEntry {
  enum Kind { Kernel, Global, LinkGlobal, Requires, Indirect, Other };
  Kind EntryKind = Other;
  void *Address = nullptr;
  const char *Name = nullptr;
  uint64_t Size = 0;
  uint32_t Flags = 0;
  uint64_t Data = 0;
};

/// Reads the entries between \p Begin and \p End. Returns false with
/// \p Error set when the table is neither layout (its size is not a multiple
/// of the entry size, or a name is missing).
bool readEntryTable(const void *Begin, const void *End,
                    std::vector<ImageEntry> &Out, std::string &Error);

} // namespace offload

#endif // OFFLOAD_LIBOMPTARGET_ENTRYTABLE_H
