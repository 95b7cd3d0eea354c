//===- PinnedHostMemory.h - Host ranges page-locked for a GPU ---*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// llvm_omp_target_lock_mem and LIBOMPTARGET_LOCK_MAPPED_HOST_BUFFERS pin
// host memory with the driver (cuMemHostRegister, hsa_amd_memory_lock) so
// that the GPU's copy engines read and write it directly: copies need no
// staging through a driver buffer and can run asynchronously. The same range
// may be locked twice (by the program and by a map of it), but the drivers
// refuse a second registration, so a device keeps the ranges it locked with
// a count: the first lock calls the driver, the last unlock releases it.
//
// The table knows nothing of a driver: it calls the LockFn and UnlockFn it
// was built with.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_PLUGINS_GPU_PINNEDHOSTMEMORY_H
#define OFFLOAD_PLUGINS_GPU_PINNEDHOSTMEMORY_H

#include "PluginInterface.h"

#include <cstdint>
#include <functional>
#include <iterator>
#include <map>
#include <mutex>

namespace offload {
namespace plugin {

class PinnedHostMemory {
public:
  /// Pins [Ptr, Ptr+Size); \p DevicePtr receives the address the device
  /// uses for it.
  using LockFn =
      std::function<Status(void *Ptr, uint64_t Size, void *&DevicePtr)>;
  using UnlockFn = std::function<Status(void *Ptr)>;

  PinnedHostMemory(LockFn Lock, UnlockFn Unlock)
      : Lock(std::move(Lock)), Unlock(std::move(Unlock)) {}

  /// Locks [Ptr, Ptr+Size), or counts one more lock of a range that holds
  /// it. \p DevicePtr: the device's address of \p Ptr.
  Status lock(void *Ptr, uint64_t Size, void *&DevicePtr) {
    std::lock_guard<std::mutex> Guard(Mutex);
    if (Range *R = find(Ptr, Size)) {
      ++R->Count;
      DevicePtr = R->DevicePtr(Ptr);
      return Status::ok();
    }
    void *Base = nullptr;
    if (Status S = Lock(Ptr, Size, Base))
      return S;
    uintptr_t Start = reinterpret_cast<uintptr_t>(Ptr);
    Ranges[Start] = {Size, Base, 1, Start};
    DevicePtr = Base;
    return Status::ok();
  }

  /// Drops one lock of the range that holds \p Ptr (a pointer lock() was
  /// given); the last one unpins it. An error names a pointer that was
  /// never locked.
  Status unlock(void *Ptr) {
    std::lock_guard<std::mutex> Guard(Mutex);
    Range *R = find(Ptr, 1);
    if (!R)
      return Status::error("host address %p is not locked on this device", Ptr);
    if (--R->Count)
      return Status::ok();
    uintptr_t Start = R->Start;
    Ranges.erase(Start);
    return Unlock(reinterpret_cast<void *>(Start));
  }

  /// Whether [Ptr, Ptr+Size) lies in a locked range; \p DevicePtr then
  /// receives the device's address of \p Ptr.
  bool isLocked(const void *Ptr, uint64_t Size, void *&DevicePtr) {
    std::lock_guard<std::mutex> Guard(Mutex);
    Range *R = find(Ptr, Size);
    if (R)
      DevicePtr = R->DevicePtr(Ptr);
    return R;
  }

private:
  struct Range {
    uint64_t Size = 0;
    void *Base = nullptr; ///< the device's address of the range's start
    unsigned Count = 0;
    uintptr_t Start = 0; ///< the host address of the range's start
    void *DevicePtr(const void *Ptr) const {
      return static_cast<char *>(Base) +
             (reinterpret_cast<uintptr_t>(Ptr) - Start);
    }
  };

  /// The locked range holding [Ptr, Ptr+Size), or null. Requires Mutex.
  Range *find(const void *Ptr, uint64_t Size) {
    uintptr_t Begin = reinterpret_cast<uintptr_t>(Ptr);
    auto It = Ranges.upper_bound(Begin);
    if (It == Ranges.begin())
      return nullptr;
    It = std::prev(It);
    Range &R = It->second;
    if (Begin + Size > R.Start + R.Size)
      return nullptr;
    return &R;
  }

  LockFn Lock;
  UnlockFn Unlock;
  std::mutex Mutex;
  /// Locked ranges by start address.
  std::map<uintptr_t, Range> Ranges;
};

} // namespace plugin
} // namespace offload

#endif // OFFLOAD_PLUGINS_GPU_PINNEDHOSTMEMORY_H
