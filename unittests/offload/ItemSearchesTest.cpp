//===- ItemSearchesTest.cpp - The ranges a construct searches -------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Step 1 of a construct waits on the ranges forEachSearch gives; the
// planners search the same ones (searchesFor). These check what each kind
// of item makes a construct search, for each action.
//
//===----------------------------------------------------------------------===//

#include "mapping/ItemSearches.h"

#include "gtest/gtest.h"

#include <utility>
#include <vector>

using namespace offload;

namespace {

using Ranges = std::vector<std::pair<uintptr_t, uint64_t>>;

uintptr_t at(const void *P) { return reinterpret_cast<uintptr_t>(P); }

/// The arrays of a list the compiler would pass.
struct List {
  std::vector<void *> Bases, Begins;
  std::vector<int64_t> Sizes, Types;
  List &add(void *Base, void *Begin, int64_t Size, uint64_t Type) {
    Bases.push_back(Base);
    Begins.push_back(Begin);
    Sizes.push_back(Size);
    Types.push_back(static_cast<int64_t>(Type));
    return *this;
  }
  /// What forEachSearch gives for \p A on this list.
  Ranges searches(Action A) {
    MapList Maps;
    Maps.Count = static_cast<int32_t>(Bases.size());
    Maps.Bases = Bases.data();
    Maps.Begins = Begins.data();
    Maps.Sizes = Sizes.data();
    Maps.Types = Types.data();
    ExpandedList L;
    expandInto(L, Maps);
    Ranges Found;
    forEachSearch(L, A, [&](SearchRange R) {
      Found.push_back({R.Begin, R.Size});
      return true;
    });
    return Found;
  }
};

constexpr uint64_t To = OMP_TGT_MAPTYPE_TO;
/// MEMBER_OF item 1 (1-based, as the compiler encodes it).
constexpr uint64_t MemberOfFirst = 1ull << 48;

struct Node {
  int *P;
  int Value;
};

TEST(ItemSearches, EnterSearchesThePointerOfPtrAndObjAndItsPointee) {
  int Data[4] = {};
  Node N{Data, 0};
  List L;
  L.add(&N.P, Data, sizeof(Data), To | OMP_TGT_MAPTYPE_PTR_AND_OBJ);
  EXPECT_EQ(L.searches(Action::Enter),
            (Ranges{{at(&N.P), sizeof(void *)}, {at(Data), sizeof(Data)}}));
  // Exit and update only search the pointee.
  EXPECT_EQ(L.searches(Action::Exit), (Ranges{{at(Data), sizeof(Data)}}));
  EXPECT_EQ(L.searches(Action::Update), (Ranges{{at(Data), sizeof(Data)}}));
}

TEST(ItemSearches, PrivateAndLiteralItemsSearchNothing) {
  int X = 0, Y = 0;
  List L;
  L.add(&X, &X, sizeof(X), OMP_TGT_MAPTYPE_PRIVATE | To)
      .add(&Y, &Y, sizeof(Y), OMP_TGT_MAPTYPE_LITERAL);
  EXPECT_TRUE(L.searches(Action::Enter).empty());
  EXPECT_TRUE(L.searches(Action::Exit).empty());
}

TEST(ItemSearches, AttachAndLambdaCapturesSearchPointerAndPointee) {
  int Data[2] = {};
  Node N{Data, 0};
  int Captured = 0;
  struct {
    int *Ref;
  } Lambda{&Captured};
  List L;
  L.add(&N.P, Data, sizeof(void *), OMP_TGT_MAPTYPE_ATTACH)
      .add(&Lambda, &Lambda, sizeof(Lambda), To)
      .add(&Lambda.Ref, &Captured, sizeof(Captured),
           OMP_TGT_MAPTYPE_LITERAL | OMP_TGT_MAPTYPE_PTR_AND_OBJ |
               MemberOfFirst * 2);
  EXPECT_EQ(L.searches(Action::Enter),
            (Ranges{{at(&N.P), sizeof(void *)},
                    {at(Data), 0},
                    {at(&Lambda), sizeof(Lambda)},
                    {at(&Lambda.Ref), sizeof(void *)},
                    {at(&Captured), 0}}));
  // An exit leaves attach maps alone; the lambda's own storage goes.
  EXPECT_EQ(L.searches(Action::Exit), (Ranges{{at(&Lambda), sizeof(Lambda)}}));
}

TEST(ItemSearches, StridedUpdateSearchesEachPiece) {
  int Matrix[3][4] = {};
  // Rows 0 and 2, columns 1..2: two runs of two ints.
  __tgt_target_non_contig Dims[2] = {{0, 2, 2 * sizeof(Matrix[0])},
                                     {1, 2, sizeof(int)}};
  List L;
  L.add(Matrix, Dims, 2, To | OMP_TGT_MAPTYPE_NON_CONTIG);
  EXPECT_EQ(L.searches(Action::Update),
            (Ranges{{at(&Matrix[0][1]), 2 * sizeof(int)},
                    {at(&Matrix[2][1]), 2 * sizeof(int)}}));
  // Without dimensions the item is refused in step 2: nothing to wait on.
  List Empty;
  Empty.add(Matrix, nullptr, 0, To | OMP_TGT_MAPTYPE_NON_CONTIG);
  EXPECT_TRUE(Empty.searches(Action::Update).empty());
}

TEST(ItemSearches, TheWalkStopsWhenTheCallbackDoes) {
  int A = 0, B = 0;
  List L;
  L.add(&A, &A, sizeof(A), To).add(&B, &B, sizeof(B), To);
  MapList Maps;
  Maps.Count = 2;
  Maps.Bases = L.Bases.data();
  Maps.Begins = L.Begins.data();
  Maps.Sizes = L.Sizes.data();
  Maps.Types = L.Types.data();
  ExpandedList E;
  expandInto(E, Maps);
  int Calls = 0;
  EXPECT_FALSE(forEachSearch(E, Action::Enter, [&](SearchRange) {
    ++Calls;
    return false;
  }));
  EXPECT_EQ(Calls, 1);
}

} // namespace
