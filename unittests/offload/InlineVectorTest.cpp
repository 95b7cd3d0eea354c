//===- InlineVectorTest.cpp - Vector with inline room ---------------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mapping/InlineVector.h"

#include "gtest/gtest.h"

using namespace offload;

namespace {

struct Pair {
  int A;
  long B;
};

TEST(InlineVector, GrowsPastItsInlineRoomKeepingTheElements) {
  InlineVector<Pair, 2> V;
  EXPECT_TRUE(V.empty());
  for (int I = 0; I < 100; ++I) {
    V.push_back({I, -I});
    ASSERT_EQ(V.size(), static_cast<size_t>(I + 1));
    EXPECT_EQ(V.back().A, I);
  }
  long Sum = 0;
  for (const Pair &P : V)
    Sum += P.A + P.B;
  EXPECT_EQ(Sum, 0);
  EXPECT_EQ(V[57].A, 57);
  EXPECT_EQ(V[57].B, -57);
  V.clear();
  EXPECT_TRUE(V.empty());
  V.push_back({7, 7});
  EXPECT_EQ(V[0].A, 7);
}

TEST(InlineVector, CountCopiesOfAValueInsideOrNot) {
  InlineVector<char, 4> Small(3, 1);
  EXPECT_EQ(Small.size(), 3u);
  EXPECT_EQ(Small[2], 1);
  InlineVector<void *, 4> Large(10, nullptr);
  EXPECT_EQ(Large.size(), 10u);
  for (void *P : Large)
    EXPECT_EQ(P, nullptr);
  InlineVector<int, 4> None(0, 5);
  EXPECT_TRUE(None.empty());
}

} // namespace
