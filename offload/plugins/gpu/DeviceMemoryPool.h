//===- DeviceMemoryPool.h - Reuse of small device allocations ---*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Every map of a variable allocates device memory and every unmap frees it.
// The drivers' allocation calls are slow (cuMemAlloc and cuMemFree
// synchronise the device), so a loop of small maps spends its time in them.
// A DeviceMemoryPool keeps freed blocks of up to a threshold
// (LIBOMPTARGET_MEMORY_MANAGER_THRESHOLD, default 8 KiB as upstream's memory
// manager) and hands them out again:
//
// - a request of at most the threshold is rounded up to a power of two of at
//   least MinBlockBytes (its size class), so blocks of one class serve every
//   request of that class, not only requests of the same size;
// - larger requests go straight to the driver and back;
// - when the driver refuses an allocation, every cached block is returned to
//   it and the allocation is tried once more; the cache is also returned at
//   process exit and when the pool is destroyed;
// - each size class has its own lock and free list, and the table that says
//   which class a pointer belongs to is split in shards with a lock each, so
//   threads mapping different sizes or addresses do not wait for each other.
//
// A block given back to the pool is freed as far as the program and
// libomptarget are concerned (LIBOMPTARGET_ALLOCATION_REPORT counts it as
// freed); only the driver still sees it allocated.
//
// The pool knows nothing of a driver: it calls the AllocateFn and FreeFn it
// was built with, so units can test it directly.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_PLUGINS_GPU_DEVICEMEMORYPOOL_H
#define OFFLOAD_PLUGINS_GPU_DEVICEMEMORYPOOL_H

#include "PluginInterface.h"

#include "Guarded.h"

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

namespace offload {
namespace plugin {

/// The variable and its default (upstream's: 8 KiB; 0 disables the pool).
inline constexpr const char *MemoryPoolThresholdVariable =
    "LIBOMPTARGET_MEMORY_MANAGER_THRESHOLD";
inline constexpr uint64_t DefaultMemoryPoolThreshold = 8192;

/// LIBOMPTARGET_MEMORY_MANAGER_THRESHOLD read from the environment: the
/// default when unset, 0 when the pool is off, or an error naming the
/// variable and its value.
struct MemoryPoolThreshold {
  uint64_t Bytes = DefaultMemoryPoolThreshold;
  std::string Error;
};
MemoryPoolThreshold memoryPoolThresholdFromEnvironment();

class DeviceMemoryPool {
public:
  /// One allocation the pool asks of the driver: \p Bytes (the block, a
  /// size class for pooled requests) for a request of \p Requested bytes.
  /// Returns null with \p Error set when the driver refuses.
  using AllocateFn =
      std::function<void *(uint64_t Bytes, uint64_t Requested, Status &Error)>;
  using FreeFn = std::function<Status(void *Ptr)>;

  /// The smallest block the pool allocates: the drivers' own allocation
  /// granularity is at least this.
  static constexpr uint64_t MinBlockBytes = 256;

  /// A pool that caches blocks of up to \p ThresholdBytes (0: none; every
  /// call goes to the driver).
  DeviceMemoryPool(uint64_t ThresholdBytes, AllocateFn Allocate, FreeFn Free);
  /// Returns the cached blocks to the driver (errors are dropped: there is
  /// no caller left to tell). Blocks still in use are the program's.
  ~DeviceMemoryPool();
  DeviceMemoryPool(const DeviceMemoryPool &) = delete;
  DeviceMemoryPool &operator=(const DeviceMemoryPool &) = delete;

  /// \p Size bytes (not 0), from a free list or the driver. Null with
  /// \p Error set when the driver refuses even after the cache was released.
  void *allocate(uint64_t Size, Status &Error);
  /// Takes back a pointer allocate() returned: cached when it is a pooled
  /// block, else freed by the driver.
  Status free(void *Ptr);

  /// Returns every cached block to the driver; the first failure is
  /// returned, the remaining blocks are still released.
  Status releaseCachedBlocks();

  uint64_t threshold() const { return Threshold; }
  /// Blocks cached now (for tests and reports).
  size_t cachedBlocks() const;

private:
  static constexpr unsigned NumClasses = 48;
  static constexpr unsigned NumShards = 16;

  /// The cached blocks of one size class.
  using SizeClass = Guarded<std::vector<void *>>;
  /// Which class each pooled block (in use or cached) belongs to, for the
  /// blocks whose address falls in this shard.
  using Shard = Guarded<std::unordered_map<void *, unsigned>>;

  static unsigned classOf(uint64_t Size);
  static uint64_t classBytes(unsigned Class) { return MinBlockBytes << Class; }
  Shard &shardOf(void *Ptr);
  /// The driver's allocation; on failure the cache is released and the
  /// allocation tried once more.
  void *allocateFromDriver(uint64_t Bytes, uint64_t Requested, Status &Error);

  uint64_t Threshold;
  AllocateFn Allocate;
  FreeFn Free;
  /// Mutable: cachedBlocks() locks them to count.
  mutable std::array<SizeClass, NumClasses> Classes;
  std::array<Shard, NumShards> Shards;
};

} // namespace plugin
} // namespace offload

#endif // OFFLOAD_PLUGINS_GPU_DEVICEMEMORYPOOL_H
