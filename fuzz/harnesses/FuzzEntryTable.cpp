//===- FuzzEntryTable.cpp - Fuzz the runtime's offload entry table reader -===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The input is the memory between a descriptor's EntriesBegin and EntriesEnd,
// which libomptarget reads in either layout (LLVM 22's 56-byte entries or the
// legacy 32-byte ones; the first word tells them apart). The reader copies
// the fields and never follows the name pointers, so arbitrary pointer values
// are fine here; what matters is that it reads only inside the table and
// that what it returns is consistent with the table's size.
//
//===----------------------------------------------------------------------===//

#include "FuzzCheck.h"

#include "OffloadABI.h"
#include "images/EntryTable.h"

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

using namespace offload;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  // The runtime reads entries in place, through the structure types, so the
  // table must be aligned as the compiler aligns it. operator new[] aligns
  // to 16 bytes, and an exact-size copy keeps a read one byte past the table
  // visible to AddressSanitizer.
  std::unique_ptr<char[]> Table(new char[Size]);
  if (Size)
    std::memcpy(Table.get(), Data, Size);
  const char *First = Table.get();

  std::vector<ImageEntry> Entries;
  std::string Error;
  bool Read = readEntryTable(First, First + Size, Entries, Error);
  if (!Read) {
    FUZZ_CHECK(!Error.empty(), "an entry table was rejected silently");
    return 0;
  }
  if (Size == 0) {
    FUZZ_CHECK(Entries.empty(), "an empty table has entries");
    return 0;
  }
  FUZZ_CHECK(Size == Entries.size() * sizeof(__tgt_offload_entry) ||
                 Size == Entries.size() * sizeof(__tgt_offload_entry_legacy),
             "the entries read do not add up to the table's size");
  for (const ImageEntry &E : Entries) {
    FUZZ_CHECK(E.Name != nullptr, "an entry without a name was accepted");
    FUZZ_CHECK(E.EntryKind >= ImageEntry::Kernel &&
                   E.EntryKind <= ImageEntry::Other,
               "an entry has no valid kind");
  }
  return 0;
}
