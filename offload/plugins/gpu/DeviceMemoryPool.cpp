//===- DeviceMemoryPool.cpp - Reuse of small device allocations -----------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "DeviceMemoryPool.h"

#include "DeviceLimits.h"

#include <cstdlib>
#include <set>

using namespace offload::plugin;

namespace {

/// The pools alive in the process, so that one exit handler can return
/// their caches: the GPU plugins' devices are never destroyed (see
/// PluginInterface.h), so their pools' destructors do not run at exit.
struct PoolSet {
  std::set<DeviceMemoryPool *> Pools;
  bool HandlerInstalled = false;
};
using LivePools = offload::Guarded<PoolSet>;

LivePools &livePools() {
  // Never destroyed: the exit handler may run after static destructors.
  static LivePools *Live = new LivePools();
  return *Live;
}

void releaseAllAtExit() {
  LivePools::Access Live = livePools().lock();
  // At exit a failure has nobody to report to; the driver reclaims the
  // memory with the process anyway.
  for (DeviceMemoryPool *Pool : Live->Pools)
    (void)Pool->releaseCachedBlocks();
}

} // namespace

MemoryPoolThreshold offload::plugin::memoryPoolThresholdFromEnvironment() {
  MemoryPoolThreshold Result;
  RequestedSize Requested = parseRequestedSize(
      MemoryPoolThresholdVariable, std::getenv(MemoryPoolThresholdVariable));
  if (!Requested.Error.empty())
    Result.Error = Requested.Error;
  else if (Requested.Present)
    Result.Bytes = Requested.Bytes;
  return Result;
}

DeviceMemoryPool::DeviceMemoryPool(uint64_t ThresholdBytes, AllocateFn Allocate,
                                   FreeFn Free)
    : Threshold(ThresholdBytes), Allocate(std::move(Allocate)),
      Free(std::move(Free)) {
  // Requests above the largest class go to the driver.
  if (Threshold > classBytes(NumClasses - 1))
    Threshold = classBytes(NumClasses - 1);
  if (!Threshold)
    return;
  LivePools::Access Live = livePools().lock();
  Live->Pools.insert(this);
  if (!Live->HandlerInstalled)
    Live->HandlerInstalled = std::atexit(releaseAllAtExit) == 0;
}

DeviceMemoryPool::~DeviceMemoryPool() {
  livePools().lock()->Pools.erase(this);
  (void)releaseCachedBlocks();
}

unsigned DeviceMemoryPool::classOf(uint64_t Size) {
  unsigned Class = 0;
  while (classBytes(Class) < Size)
    ++Class;
  return Class;
}

DeviceMemoryPool::Shard &DeviceMemoryPool::shardOf(void *Ptr) {
  // Device blocks are at least 256-byte aligned: the low bits carry nothing.
  uint64_t Address = reinterpret_cast<uintptr_t>(Ptr) >> 8;
  return Shards[(Address * 0x9E3779B97F4A7C15ull) >> 60];
}

void *DeviceMemoryPool::allocateFromDriver(uint64_t Bytes, uint64_t Requested,
                                           Status &Error) {
  if (void *Ptr = Allocate(Bytes, Requested, Error))
    return Ptr;
  if (!cachedBlocks())
    return nullptr;
  // Out of memory, perhaps because of what the pool holds: give it back and
  // try once more. The first refusal is not an error the user needs.
  if (Status S = releaseCachedBlocks()) {
    Error = S;
    return nullptr;
  }
  Error = Status::ok();
  return Allocate(Bytes, Requested, Error);
}

void *DeviceMemoryPool::allocate(uint64_t Size, Status &Error) {
  if (Size > Threshold)
    return allocateFromDriver(Size, Size, Error);
  unsigned Class = classOf(Size);
  {
    SizeClass::Access Cached = Classes[Class].lock();
    if (!Cached->empty()) {
      void *Ptr = Cached->back();
      Cached->pop_back();
      return Ptr;
    }
  }
  void *Ptr = allocateFromDriver(classBytes(Class), Size, Error);
  if (!Ptr)
    return nullptr;
  (*shardOf(Ptr).lock())[Ptr] = Class;
  return Ptr;
}

Status DeviceMemoryPool::free(void *Ptr) {
  unsigned Class = NumClasses;
  {
    Shard::Access ClassOf = shardOf(Ptr).lock();
    auto It = ClassOf->find(Ptr);
    if (It != ClassOf->end())
      Class = It->second;
  }
  if (Class == NumClasses)
    return Free(Ptr);
  Classes[Class].lock()->push_back(Ptr);
  return Status::ok();
}

Status DeviceMemoryPool::releaseCachedBlocks() {
  Status First;
  for (SizeClass &C : Classes) {
    std::vector<void *> Blocks;
    C.lock()->swap(Blocks);
    for (void *Ptr : Blocks) {
      shardOf(Ptr).lock()->erase(Ptr);
      Status Released = Free(Ptr);
      if (Released && !First)
        First = Released;
    }
  }
  return First;
}

size_t DeviceMemoryPool::cachedBlocks() const {
  size_t Count = 0;
  for (SizeClass &C : Classes)
    Count += C.lock()->size();
  return Count;
}
