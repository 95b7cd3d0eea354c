//===- MappingTable.cpp - Host-to-device address intervals of one device -===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "MappingTable.h"

using namespace offload;

LookupResult MappingTable::lookup(uintptr_t Begin, uint64_t Size) {
  LookupResult Result;
  uintptr_t End = Begin + Size;
  // The last entry starting at or before Begin is the only one that can
  // contain Begin, because entries never overlap.
  auto After = Entries.upper_bound(Begin);
  if (After != Entries.begin()) {
    MapEntry &Candidate = std::prev(After)->second;
    bool ContainsBegin =
        Begin < Candidate.HstEnd ||
        // A zero-sized entry (zero-length section) is
        // found at its own address.
        (Candidate.HstBegin == Begin && Candidate.HstBegin == Candidate.HstEnd);
    if (ContainsBegin) {
      Result.Entry = &Candidate;
      Result.Status = End <= Candidate.HstEnd || Size == 0
                          ? LookupResult::Contained
                          : LookupResult::Overlap;
      return Result;
    }
  }
  // Begin is not covered; the range still overlaps if an entry starts inside
  // it.
  if (Size != 0 && After != Entries.end() && After->first < End) {
    Result.Entry = &After->second;
    Result.Status = LookupResult::Overlap;
  }
  return Result;
}

MapEntry &MappingTable::insert(const MapEntry &Entry) {
  return Entries.insert_or_assign(Entry.HstBegin, Entry).first->second;
}

void MappingTable::erase(uintptr_t HstBegin) { Entries.erase(HstBegin); }

void MappingTable::forEach(
    const std::function<void(const MapEntry &)> &Fn) const {
  for (const auto &KV : Entries)
    Fn(KV.second);
}

LookupResult offload::lookupSettled(LockedMappingTable &Table, uintptr_t Begin,
                                    uint64_t Size, bool ToRemove) {
  for (;;) {
    LookupResult R = Table->lookup(Begin, Size);
    if (!R.Entry || !R.Entry->unsettled(ToRemove))
      return R;
    Table.wait();
  }
}
