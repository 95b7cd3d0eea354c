//===- DeviceHeapTest.cpp - The AMDGPU device heap's allocator ------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// openmp/device/src/HeapAllocator.h on host threads: the same code serves
// malloc/new on AMD GPUs, where no test can run it.
//
//===----------------------------------------------------------------------===//

#include "HeapAllocator.h"

#include "gtest/gtest.h"

#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <set>
#include <thread>
#include <vector>

using namespace ompx;
using namespace ompx::heap;

namespace {

/// A zeroed heap of \p Bytes, as the plugin hands it over.
struct TestHeap {
  explicit TestHeap(uint64_t Bytes)
      : Memory(new uint64_t[Bytes / 8]()), View(Base(), Bytes) {}
  char *Base() { return reinterpret_cast<char *>(Memory.get()); }
  std::unique_ptr<uint64_t[]> Memory;
  Heap View;
};

TEST(DeviceHeapTest, AllocationsAreAlignedDisjointAndWritable) {
  TestHeap H(1 << 20);
  std::vector<std::pair<char *, size_t>> Blocks;
  for (size_t Size : {1, 15, 16, 17, 100, 4096, 5000}) {
    auto *Ptr = static_cast<char *>(H.View.allocate(Size));
    ASSERT_NE(Ptr, nullptr) << Size;
    EXPECT_EQ(reinterpret_cast<uintptr_t>(Ptr) % 16, 0u) << Size;
    EXPECT_GE(H.View.usableSize(Ptr), Size);
    std::memset(Ptr, int(Size & 0xff), Size);
    Blocks.push_back({Ptr, Size});
  }
  for (auto &[Ptr, Size] : Blocks)
    for (size_t I = 0; I < Size; ++I)
      ASSERT_EQ(uint8_t(Ptr[I]), uint8_t(Size & 0xff)) << Size;
}

TEST(DeviceHeapTest, FreedBlocksAreReused) {
  // Room for the state and 8 blocks of 64 bytes: without reuse, the loop
  // runs out after 8 allocations.
  TestHeap H(DeviceHeapStateBytes + 8 * 64);
  for (int I = 0; I < 1000; ++I) {
    void *Ptr = H.View.allocate(40);
    ASSERT_NE(Ptr, nullptr) << "allocation " << I;
    ASSERT_EQ(H.View.deallocate(Ptr), FreeResult::Freed);
  }
}

TEST(DeviceHeapTest, ExhaustionReturnsNullAndLeavesRoomForSmallerBlocks) {
  TestHeap H(DeviceHeapStateBytes + 4096);
  EXPECT_EQ(H.View.allocate(1 << 20), nullptr);
  EXPECT_EQ(H.View.allocate(uint64_t(1) << 62), nullptr);
  void *Big = H.View.allocate(2000); // a 2048-byte block
  ASSERT_NE(Big, nullptr);
  void *Second = H.View.allocate(2000);
  ASSERT_NE(Second, nullptr);
  EXPECT_EQ(H.View.allocate(2000), nullptr);
  EXPECT_EQ(H.View.allocate(1), nullptr);
  ASSERT_EQ(H.View.deallocate(Big), FreeResult::Freed);
  EXPECT_EQ(H.View.allocate(2000), Big);
}

TEST(DeviceHeapTest, NoHeapMeansNoMemory) {
  Heap None(nullptr, 1 << 20);
  EXPECT_EQ(None.allocate(1), nullptr);
  EXPECT_EQ(None.deallocate(nullptr), FreeResult::Null);
}

TEST(DeviceHeapTest, AlignedAllocationsHonourTheAlignment) {
  TestHeap H(1 << 22);
  for (uint64_t Align : {1, 8, 16, 32, 64, 256, 4096, 65536}) {
    for (int Round = 0; Round < 3; ++Round) {
      auto *Ptr = static_cast<char *>(H.View.allocateAligned(Align, 100));
      ASSERT_NE(Ptr, nullptr) << Align;
      EXPECT_EQ(reinterpret_cast<uintptr_t>(Ptr) % Align, 0u) << Align;
      EXPECT_GE(H.View.usableSize(Ptr), 100u) << Align;
      std::memset(Ptr, 0x5a, 100);
      ASSERT_EQ(H.View.deallocate(Ptr), FreeResult::Freed) << Align;
    }
  }
  EXPECT_EQ(H.View.allocateAligned(48, 8), nullptr) << "not a power of two";
}

TEST(DeviceHeapTest, BadFreesAreRecognised) {
  TestHeap H(1 << 20);
  uint64_t Outside[4] = {};
  EXPECT_EQ(H.View.deallocate(&Outside[2]), FreeResult::NotFromHeap);
  auto *Ptr = static_cast<char *>(H.View.allocate(64));
  ASSERT_NE(Ptr, nullptr);
  EXPECT_EQ(H.View.deallocate(Ptr + 16), FreeResult::NotFromHeap);
  EXPECT_EQ(H.View.deallocate(Ptr), FreeResult::Freed);
  EXPECT_EQ(H.View.deallocate(Ptr), FreeResult::DoubleFree);
  EXPECT_EQ(H.View.usableSize(Ptr), 0u);
  void *Aligned = H.View.allocateAligned(256, 10);
  ASSERT_NE(Aligned, nullptr);
  EXPECT_EQ(H.View.deallocate(Aligned), FreeResult::Freed);
  EXPECT_EQ(H.View.deallocate(Aligned), FreeResult::DoubleFree);
}

// Threads allocate, fill with their own pattern, check and free, in rounds
// of mixed sizes; a block handed to two threads at once (a broken free
// list) shows up as a foreign pattern, and blocks that are never reused as
// exhaustion: the heap holds far less than the threads allocate in total.
TEST(DeviceHeapTest, ManyThreadsShareTheHeapCorrectly) {
  constexpr int Threads = 8;
  constexpr int Rounds = 20000;
  TestHeap H(uint64_t(4) << 20);
  std::atomic<int> Failures{0};
  std::atomic<uint64_t> AllocatedBytes{0};
  std::vector<std::thread> Workers;
  for (int T = 0; T < Threads; ++T)
    Workers.emplace_back([&, T] {
      std::vector<std::pair<uint64_t *, size_t>> Held;
      uint64_t Seed = 0x9e3779b97f4a7c15ull * (T + 1);
      for (int R = 0; R < Rounds; ++R) {
        Seed = Seed * 6364136223846793005ull + 1442695040888963407ull;
        size_t Words = 1 + (Seed >> 33) % 64;
        uint64_t Align = uint64_t(16) << ((Seed >> 20) % 4);
        auto *Ptr =
            static_cast<uint64_t *>(H.View.allocateAligned(Align, Words * 8));
        if (!Ptr || reinterpret_cast<uintptr_t>(Ptr) % Align) {
          Failures.fetch_add(1);
          continue;
        }
        AllocatedBytes.fetch_add(Words * 8, std::memory_order_relaxed);
        for (size_t I = 0; I < Words; ++I)
          Ptr[I] = (uint64_t(T) << 32) | R;
        Held.push_back({Ptr, Words});
        // Keep up to 16 blocks, then check and free the oldest half.
        if (Held.size() < 16)
          continue;
        for (size_t K = 0; K < 8; ++K) {
          auto [Block, Count] = Held[K];
          for (size_t I = 0; I < Count; ++I)
            if ((Block[I] >> 32) != uint64_t(T) || Block[I] != Block[0])
              Failures.fetch_add(1);
          if (H.View.deallocate(Block) != FreeResult::Freed)
            Failures.fetch_add(1);
        }
        Held.erase(Held.begin(), Held.begin() + 8);
      }
      for (auto [Block, Count] : Held)
        if (H.View.deallocate(Block) != FreeResult::Freed)
          Failures.fetch_add(1);
    });
  for (std::thread &W : Workers)
    W.join();
  EXPECT_EQ(Failures.load(), 0);
  EXPECT_GT(AllocatedBytes.load(), uint64_t(4) << 20)
      << "the threads must allocate more than the heap holds";
}

// Every block live at the same time is distinct, also when threads race to
// carve and pop them.
TEST(DeviceHeapTest, ConcurrentAllocationsNeverOverlap) {
  constexpr int Threads = 8;
  constexpr int PerThread = 500;
  TestHeap H(uint64_t(1) << 20);
  // Half of the blocks come back through free lists.
  std::vector<void *> Seeded;
  for (int I = 0; I < Threads * PerThread / 2; ++I)
    Seeded.push_back(H.View.allocate(48));
  for (void *Ptr : Seeded)
    ASSERT_EQ(H.View.deallocate(Ptr), FreeResult::Freed);
  std::vector<std::vector<void *>> Got(Threads);
  std::vector<std::thread> Workers;
  for (int T = 0; T < Threads; ++T)
    Workers.emplace_back([&, T] {
      for (int I = 0; I < PerThread; ++I)
        Got[T].push_back(H.View.allocate(48));
    });
  for (std::thread &W : Workers)
    W.join();
  std::set<void *> Distinct;
  for (auto &List : Got)
    for (void *Ptr : List) {
      ASSERT_NE(Ptr, nullptr);
      EXPECT_TRUE(Distinct.insert(Ptr).second) << "handed out twice: " << Ptr;
    }
}

} // namespace
