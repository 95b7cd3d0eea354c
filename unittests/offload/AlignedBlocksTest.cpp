//===- AlignedBlocksTest.cpp - The CPU device's aligned allocations -------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "AlignedBlocks.h"

#include "gtest/gtest.h"

#include <cstring>
#include <vector>

using namespace offload::host;

namespace {

TEST(AlignedBlocks, AlignedWritableAndReleased) {
  for (uint64_t Alignment : {64u, 4096u})
    for (uint64_t Size : {1u, 63u, 4096u, (1u << 20) + 17u}) {
      void *Block = allocateAlignedBlock(Size, Alignment);
      ASSERT_NE(Block, nullptr);
      EXPECT_EQ(reinterpret_cast<uintptr_t>(Block) % Alignment, 0u)
          << Size << " bytes at alignment " << Alignment;
      std::memset(Block, 0xab, Size);
      freeAlignedBlock(Block);
    }
  freeAlignedBlock(nullptr);
}

TEST(AlignedBlocks, ManyLiveBlocksDoNotOverlap) {
  std::vector<char *> Blocks;
  for (int I = 0; I < 64; ++I) {
    auto *Block = static_cast<char *>(allocateAlignedBlock(1000, 64));
    ASSERT_NE(Block, nullptr);
    std::memset(Block, I, 1000);
    Blocks.push_back(Block);
  }
  for (int I = 0; I < 64; ++I) {
    EXPECT_EQ(Blocks[I][0], char(I));
    EXPECT_EQ(Blocks[I][999], char(I));
    freeAlignedBlock(Blocks[I]);
  }
}

TEST(AlignedBlocks, ImpossibleSizeIsRefused) {
  EXPECT_EQ(allocateAlignedBlock(UINT64_MAX - 10, 4096), nullptr);
}

} // namespace
