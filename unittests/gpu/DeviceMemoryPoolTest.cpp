//===- DeviceMemoryPoolTest.cpp - The GPU plugins' device memory pool -----===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// gpu/DeviceMemoryPool over a driver made of two counting callbacks that
// take memory from the host heap (and can be told to refuse).
//
//===----------------------------------------------------------------------===//

#include "gpu/DeviceMemoryPool.h"

#include "gtest/gtest.h"

#include <atomic>
#include <cstdlib>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

using namespace offload::plugin;

namespace {

/// The driver side: every block it handed out and not yet got back.
struct FakeDriver {
  std::mutex Lock;
  std::map<void *, uint64_t> Live;
  std::atomic<unsigned> Allocations{0}, Frees{0};
  /// Refuse allocations while more than this many bytes are live.
  uint64_t Capacity = ~uint64_t(0);
  uint64_t LiveBytes = 0;
  std::vector<uint64_t> Sizes; ///< of every allocation asked for

  DeviceMemoryPool::AllocateFn allocator() {
    return [this](uint64_t Bytes, uint64_t, Status &Error) -> void * {
      std::lock_guard<std::mutex> Guard(Lock);
      Sizes.push_back(Bytes);
      if (LiveBytes + Bytes > Capacity) {
        Error = Status::error("out of memory for %llu bytes",
                              static_cast<unsigned long long>(Bytes));
        return nullptr;
      }
      ++Allocations;
      void *Ptr = std::aligned_alloc(256, (Bytes + 255) / 256 * 256);
      Live[Ptr] = Bytes;
      LiveBytes += Bytes;
      return Ptr;
    };
  }
  DeviceMemoryPool::FreeFn releaser() {
    return [this](void *Ptr) -> Status {
      std::lock_guard<std::mutex> Guard(Lock);
      auto It = Live.find(Ptr);
      if (It == Live.end())
        return Status::error("free of an unknown pointer");
      ++Frees;
      LiveBytes -= It->second;
      Live.erase(It);
      std::free(Ptr);
      return Status::ok();
    };
  }
};

TEST(DeviceMemoryPool, SmallBlocksAreReused) {
  FakeDriver Driver;
  DeviceMemoryPool Pool(8192, Driver.allocator(), Driver.releaser());
  Status Error;
  for (int I = 0; I < 1000; ++I) {
    void *Ptr = Pool.allocate(4096, Error);
    ASSERT_NE(Ptr, nullptr) << Error.message();
    ASSERT_FALSE(Pool.free(Ptr));
  }
  EXPECT_EQ(Driver.Allocations, 1u);
  EXPECT_EQ(Driver.Frees, 0u);
  EXPECT_EQ(Pool.cachedBlocks(), 1u);
}

TEST(DeviceMemoryPool, RequestsShareTheirSizeClass) {
  FakeDriver Driver;
  DeviceMemoryPool Pool(8192, Driver.allocator(), Driver.releaser());
  Status Error;
  void *A = Pool.allocate(3000, Error);
  ASSERT_NE(A, nullptr);
  EXPECT_EQ(Driver.Sizes.back(), 4096u);
  ASSERT_FALSE(Pool.free(A));
  // 2049..4096 bytes: the same class, the same block.
  EXPECT_EQ(Pool.allocate(4096, Error), A);
  ASSERT_FALSE(Pool.free(A));
  EXPECT_EQ(Pool.allocate(2049, Error), A);
  // The smallest class is MinBlockBytes.
  void *Tiny = Pool.allocate(1, Error);
  EXPECT_EQ(Driver.Sizes.back(), DeviceMemoryPool::MinBlockBytes);
  // A live block is not handed out twice.
  void *B = Pool.allocate(4000, Error);
  EXPECT_NE(B, A);
  EXPECT_EQ(Driver.Allocations, 3u);
  for (void *Ptr : {A, B, Tiny})
    ASSERT_FALSE(Pool.free(Ptr));
  EXPECT_EQ(Pool.cachedBlocks(), 3u);
}

TEST(DeviceMemoryPool, LargeBlocksGoStraightToTheDriver) {
  FakeDriver Driver;
  DeviceMemoryPool Pool(8192, Driver.allocator(), Driver.releaser());
  Status Error;
  for (int I = 0; I < 10; ++I) {
    void *Ptr = Pool.allocate(8193, Error);
    ASSERT_NE(Ptr, nullptr);
    EXPECT_EQ(Driver.Sizes.back(), 8193u); // not rounded
    ASSERT_FALSE(Pool.free(Ptr));
  }
  EXPECT_EQ(Driver.Allocations, 10u);
  EXPECT_EQ(Driver.Frees, 10u);
  EXPECT_EQ(Pool.cachedBlocks(), 0u);
  // The threshold itself is pooled.
  void *Edge = Pool.allocate(8192, Error);
  ASSERT_FALSE(Pool.free(Edge));
  EXPECT_EQ(Pool.cachedBlocks(), 1u);
}

TEST(DeviceMemoryPool, ThresholdZeroTurnsItOff) {
  FakeDriver Driver;
  DeviceMemoryPool Pool(0, Driver.allocator(), Driver.releaser());
  Status Error;
  for (int I = 0; I < 5; ++I) {
    void *Ptr = Pool.allocate(64, Error);
    ASSERT_NE(Ptr, nullptr);
    EXPECT_EQ(Driver.Sizes.back(), 64u);
    ASSERT_FALSE(Pool.free(Ptr));
  }
  EXPECT_EQ(Driver.Allocations, 5u);
  EXPECT_EQ(Driver.Frees, 5u);
}

TEST(DeviceMemoryPool, CacheIsReleasedWhenTheDriverRefuses) {
  FakeDriver Driver;
  DeviceMemoryPool Pool(8192, Driver.allocator(), Driver.releaser());
  Status Error;
  std::vector<void *> Blocks;
  for (int I = 0; I < 4; ++I)
    Blocks.push_back(Pool.allocate(8192, Error));
  for (void *Ptr : Blocks)
    ASSERT_FALSE(Pool.free(Ptr));
  ASSERT_EQ(Pool.cachedBlocks(), 4u);
  // 32 KiB cached: a 16 KiB block fits only once the cache is returned.
  Driver.Capacity = 4 * 8192 + 8192;
  void *Large = Pool.allocate(16384, Error);
  ASSERT_NE(Large, nullptr) << Error.message();
  EXPECT_FALSE(Error);
  EXPECT_EQ(Pool.cachedBlocks(), 0u);
  EXPECT_EQ(Driver.Frees, 4u);
  // Nothing left to return: the refusal is the caller's error.
  void *TooMuch = Pool.allocate(1 << 20, Error);
  EXPECT_EQ(TooMuch, nullptr);
  EXPECT_TRUE(Error);
  EXPECT_EQ(Error.message(), "out of memory for 1048576 bytes");
  ASSERT_FALSE(Pool.free(Large));
}

TEST(DeviceMemoryPool, DestructionReturnsTheCache) {
  FakeDriver Driver;
  {
    DeviceMemoryPool Pool(8192, Driver.allocator(), Driver.releaser());
    Status Error;
    void *A = Pool.allocate(100, Error);
    void *B = Pool.allocate(5000, Error);
    ASSERT_FALSE(Pool.free(A));
    ASSERT_FALSE(Pool.free(B));
    EXPECT_EQ(Driver.Live.size(), 2u);
  }
  EXPECT_TRUE(Driver.Live.empty());
}

TEST(DeviceMemoryPool, ReleaseReportsTheDriversError) {
  FakeDriver Driver;
  bool Refuse = false;
  DeviceMemoryPool::FreeFn Releaser = Driver.releaser();
  DeviceMemoryPool Pool(8192, Driver.allocator(), [&](void *Ptr) -> Status {
    if (Refuse)
      return Status::error("refused");
    return Releaser(Ptr);
  });
  Status Error;
  void *A = Pool.allocate(100, Error);
  ASSERT_FALSE(Pool.free(A));
  Refuse = true;
  Status Released = Pool.releaseCachedBlocks();
  EXPECT_TRUE(Released);
  EXPECT_EQ(Released.message(), "refused");
  Refuse = false;
  std::free(A); // the fake driver's block, which the pool gave up on
  Driver.Live.clear();
}

TEST(DeviceMemoryPool, ThreadsShareThePoolSafely) {
  FakeDriver Driver;
  DeviceMemoryPool Pool(8192, Driver.allocator(), Driver.releaser());
  constexpr int Threads = 8, Rounds = 2000;
  std::atomic<int> Failures{0};
  std::vector<std::thread> Workers;
  for (int T = 0; T < Threads; ++T)
    Workers.emplace_back([&, T] {
      uint64_t Size = 256u << (T % 4);
      for (int I = 0; I < Rounds; ++I) {
        Status Error;
        auto *Ptr = static_cast<unsigned char *>(Pool.allocate(Size, Error));
        if (!Ptr) {
          ++Failures;
          continue;
        }
        // A block given to two threads at once would be seen here.
        Ptr[0] = static_cast<unsigned char>(T);
        std::this_thread::yield();
        if (Ptr[0] != static_cast<unsigned char>(T))
          ++Failures;
        if (Pool.free(Ptr))
          ++Failures;
      }
    });
  for (std::thread &W : Workers)
    W.join();
  EXPECT_EQ(Failures, 0);
  // At most one block per thread was ever needed at once.
  EXPECT_LE(Driver.Allocations, unsigned(Threads));
  EXPECT_EQ(Pool.cachedBlocks(), Driver.Allocations.load());
}

TEST(DeviceMemoryPool, ThresholdComesFromTheEnvironment) {
  unsetenv(MemoryPoolThresholdVariable);
  EXPECT_EQ(memoryPoolThresholdFromEnvironment().Bytes, 8192u);
  setenv(MemoryPoolThresholdVariable, "0", 1);
  EXPECT_EQ(memoryPoolThresholdFromEnvironment().Bytes, 0u);
  setenv(MemoryPoolThresholdVariable, "64K", 1);
  EXPECT_EQ(memoryPoolThresholdFromEnvironment().Bytes, 65536u);
  setenv(MemoryPoolThresholdVariable, "lots", 1);
  MemoryPoolThreshold Bad = memoryPoolThresholdFromEnvironment();
  EXPECT_NE(Bad.Error.find("LIBOMPTARGET_MEMORY_MANAGER_THRESHOLD='lots'"),
            std::string::npos)
      << Bad.Error;
  unsetenv(MemoryPoolThresholdVariable);
}

} // namespace
