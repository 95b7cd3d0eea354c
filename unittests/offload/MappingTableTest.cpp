//===- MappingTableTest.cpp - Host-to-device interval table --------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mapping/MappingTable.h"

#include "gtest/gtest.h"

#include <random>
#include <vector>

using namespace offload;

namespace {

MapEntry entry(uintptr_t Begin, uint64_t Size, uintptr_t Target) {
  MapEntry E;
  E.HstBegin = E.HstBase = Begin;
  E.HstEnd = Begin + Size;
  E.TgtBegin = Target;
  E.DynRefCount = 1;
  return E;
}

TEST(MappingTable, FindsContainedRanges) {
  MappingTable T;
  T.insert(entry(0x1000, 0x100, 0x9000));
  LookupResult R = T.lookup(0x1000, 0x100);
  ASSERT_EQ(R.Status, LookupResult::Contained);
  EXPECT_EQ(R.Entry->TgtBegin, 0x9000u);
  R = T.lookup(0x1010, 0x20);
  ASSERT_EQ(R.Status, LookupResult::Contained);
  EXPECT_EQ(R.Entry->translate(0x1010), 0x9010u);
  // The last byte is inside, the byte after is not.
  EXPECT_EQ(T.lookup(0x10ff, 1).Status, LookupResult::Contained);
  EXPECT_EQ(T.lookup(0x1100, 1).Status, LookupResult::Absent);
  EXPECT_EQ(T.lookup(0x0fff, 1).Status, LookupResult::Absent);
}

TEST(MappingTable, ZeroLengthLookupsFindTheEnclosingEntry) {
  MappingTable T;
  T.insert(entry(0x2000, 0x40, 0x8000));
  EXPECT_EQ(T.lookup(0x2000, 0).Status, LookupResult::Contained);
  EXPECT_EQ(T.lookup(0x203f, 0).Status, LookupResult::Contained);
  // One past the end belongs to nobody.
  EXPECT_EQ(T.lookup(0x2040, 0).Status, LookupResult::Absent);
  EXPECT_EQ(T.lookup(0x1fff, 0).Status, LookupResult::Absent);
}

TEST(MappingTable, ZeroLengthLookupsFindTheExtendedRange) {
  // map(p[3:4]) of an int array: the entry starts 12 bytes after the base
  // named by the map (p's value).
  MappingTable T;
  MapEntry Section = entry(0x100c, 0x10, 0x900c);
  Section.HstBase = 0x1000;
  T.insert(Section);
  // use_device_addr(p[3:4]) looks up p's value with size 0: found, and
  // translated so that adding the offset gives the section's device copy.
  LookupResult R = T.lookup(0x1000, 0);
  ASSERT_EQ(R.Status, LookupResult::Contained);
  EXPECT_EQ(R.Entry->translate(0x1000) + 12, 0x900cu);
  EXPECT_EQ(T.lookup(0x1004, 0).Status, LookupResult::Contained);
  // Before the base: absent. A sized lookup never uses the extension.
  EXPECT_EQ(T.lookup(0xffc, 0).Status, LookupResult::Absent);
  EXPECT_EQ(T.lookup(0x1000, 4).Status, LookupResult::Absent);
  // An entry whose base lies after it extends the range forwards.
  MappingTable U;
  MapEntry Back = entry(0x2000, 0x10, 0xa000);
  Back.HstBase = 0x2040;
  U.insert(Back);
  EXPECT_EQ(U.lookup(0x2030, 0).Status, LookupResult::Contained);
  EXPECT_EQ(U.lookup(0x2040, 0).Status, LookupResult::Absent);
}

TEST(MappingTable, ReportsPartialOverlapOnBothSides) {
  MappingTable T;
  T.insert(entry(0x1000, 0x100, 0x9000));
  // Starts inside, ends after.
  LookupResult R = T.lookup(0x10f0, 0x20);
  EXPECT_EQ(R.Status, LookupResult::Overlap);
  EXPECT_EQ(R.Entry->HstBegin, 0x1000u);
  // Starts before, ends inside.
  R = T.lookup(0x0ff0, 0x20);
  EXPECT_EQ(R.Status, LookupResult::Overlap);
  EXPECT_EQ(R.Entry->HstBegin, 0x1000u);
  // Encloses the whole entry.
  EXPECT_EQ(T.lookup(0x0f00, 0x400).Status, LookupResult::Overlap);
  // Adjacent ranges do not overlap.
  EXPECT_EQ(T.lookup(0x0f00, 0x100).Status, LookupResult::Absent);
  EXPECT_EQ(T.lookup(0x1100, 0x100).Status, LookupResult::Absent);
}

TEST(MappingTable, StructBlocksAreFoundByBaseAndCoverage) {
  MappingTable T;
  // Members at 0x1010..0x1018 of a struct at 0x1000, in a block that starts
  // at the struct.
  MapEntry Members = entry(0x1010, 8, 0x9010);
  Members.HstBase = 0x1000;
  Members.Block = std::make_shared<DeviceBlock>();
  Members.Block->Memory = reinterpret_cast<void *>(0x9000);
  Members.Block->HstBegin = 0x1000;
  Members.Block->HstEnd = 0x1018;
  T.insert(Members);
  T.addStructBlock(Members.Block);
  Members.Block.reset(); // the table's entry holds the only reference
  // A member before them, of the same struct: the block has room for it.
  std::shared_ptr<DeviceBlock> B = T.findStructBlock(0x1000, 0x1000, 0x1004);
  ASSERT_TRUE(B);
  EXPECT_EQ(B->Memory, reinterpret_cast<void *>(0x9000));
  // Past the block's end, or another struct's base: none.
  EXPECT_FALSE(T.findStructBlock(0x1000, 0x1018, 0x101c));
  EXPECT_FALSE(T.findStructBlock(0x0ff0, 0x1000, 0x1004));
  // A second entry sharing the block keeps it findable when the first goes;
  // the last one takes it along.
  MapEntry First = entry(0x1000, 4, 0x9000);
  First.Block = B;
  B.reset();
  T.insert(First);
  First.Block.reset();
  T.erase(0x1010);
  EXPECT_TRUE(T.findStructBlock(0x1000, 0x1000, 0x1004));
  T.erase(0x1000);
  EXPECT_FALSE(T.findStructBlock(0x1000, 0x1000, 0x1004));
}

TEST(MappingTable, EraseRemovesOnlyTheNamedEntry) {
  MappingTable T;
  T.insert(entry(0x1000, 0x10, 0x9000));
  T.insert(entry(0x2000, 0x10, 0xa000));
  T.erase(0x1000);
  EXPECT_EQ(T.size(), 1u);
  EXPECT_EQ(T.lookup(0x1000, 1).Status, LookupResult::Absent);
  EXPECT_EQ(T.lookup(0x2000, 1).Status, LookupResult::Contained);
}

TEST(MappingTable, EraseIfErasesTheEntryStartingThereWhenAsked) {
  MappingTable T;
  T.insert(entry(0x1000, 0x10, 0x9000));
  int Calls = 0;
  // Inside the entry but not its start: not found, not asked.
  T.eraseIf(0x1008, [&](MapEntry &) { return ++Calls, true; });
  EXPECT_EQ(Calls, 0);
  T.eraseIf(0x1000, [&](MapEntry &E) {
    EXPECT_EQ(E.TgtBegin, 0x9000u);
    return ++Calls, false;
  });
  EXPECT_EQ(Calls, 1);
  EXPECT_EQ(T.size(), 1u);
  T.eraseIf(0x1000, [&](MapEntry &) { return ++Calls, true; });
  EXPECT_EQ(Calls, 2);
  EXPECT_TRUE(T.empty());
}

// Entries come from the table's node pool: removed ones are reused, and an
// emptied table starts over; what a table holds is intact throughout.
TEST(MappingTable, NodesAreRecycled) {
  MappingTable T;
  for (int Round = 0; Round < 3; ++Round) {
    for (uintptr_t I = 0; I < 1000; ++I)
      T.insert(entry(0x10000 + I * 0x100, 0x10, 0x900000 + I * 0x100));
    // Remove every other entry, then put them back.
    for (uintptr_t I = 0; I < 1000; I += 2)
      T.erase(0x10000 + I * 0x100);
    EXPECT_EQ(T.size(), 500u);
    for (uintptr_t I = 0; I < 1000; I += 2)
      T.insert(entry(0x10000 + I * 0x100, 0x10, 0x900000 + I * 0x100));
    for (uintptr_t I = 0; I < 1000; ++I) {
      LookupResult R = T.lookup(0x10000 + I * 0x100 + 4, 4);
      ASSERT_EQ(R.Status, LookupResult::Contained);
      EXPECT_EQ(R.Entry->TgtBegin, 0x900000 + I * 0x100);
    }
    for (uintptr_t I = 0; I < 1000; ++I)
      T.erase(0x10000 + I * 0x100);
    EXPECT_TRUE(T.empty());
  }
}

TEST(MappingTable, UnsettledCountsAddUp) {
  MappingTable T;
  EXPECT_FALSE(T.anyUnsettled());
  T.addUnsettled(3);
  T.removeUnsettled(2);
  EXPECT_TRUE(T.anyUnsettled());
  T.removeUnsettled(1);
  EXPECT_FALSE(T.anyUnsettled());
}

TEST(MappingTable, ReleasabilityFollowsBothReferenceCounts) {
  MapEntry E = entry(0x1000, 8, 0x9000);
  E.DynRefCount = 0;
  E.HoldRefCount = 1;
  EXPECT_FALSE(E.isReleasable());
  E.HoldRefCount = 0;
  EXPECT_TRUE(E.isReleasable());
  E.Permanent = true;
  EXPECT_FALSE(E.isReleasable());
}

// 100,000 live mappings with gaps between them: every lookup must find its
// own entry, and a lookup in each gap must find nothing.
TEST(MappingTable, HundredThousandLiveMappings) {
  MappingTable T;
  constexpr uintptr_t Base = 0x100000, Stride = 64, Size = 48;
  constexpr int N = 100000;
  std::vector<int> Order(N);
  for (int I = 0; I < N; ++I)
    Order[I] = I;
  std::shuffle(Order.begin(), Order.end(), std::mt19937(42));
  for (int I : Order)
    T.insert(entry(Base + I * Stride, Size, 0x40000000 + I * Stride));
  ASSERT_EQ(T.size(), static_cast<size_t>(N));
  for (int I = 0; I < N; ++I) {
    uintptr_t Begin = Base + I * Stride;
    LookupResult R = T.lookup(Begin + 8, 16);
    ASSERT_EQ(R.Status, LookupResult::Contained) << "entry " << I;
    ASSERT_EQ(R.Entry->translate(Begin + 8), 0x40000000 + I * Stride + 8);
    ASSERT_EQ(T.lookup(Begin + Size, Stride - Size).Status,
              LookupResult::Absent)
        << "gap after entry " << I;
    ASSERT_EQ(T.lookup(Begin + Size - 1, 2).Status, LookupResult::Overlap);
  }
}

} // namespace
