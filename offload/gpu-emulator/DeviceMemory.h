//===- DeviceMemory.h - The emulated device's memory ------------*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Device allocations come from one reserved range of the address space
// (GPUEMU_MEMORY bytes, default 16 GiB, committed only when touched), so a
// device pointer is never a host allocation's address. Copies and memsets
// check that their device side lies in one allocation or in a loaded
// image's data; anything else is CUDA_ERROR_INVALID_VALUE, as a host pointer
// passed as a device pointer is on a GPU. (Kernels themselves access
// memory directly: a host pointer dereferenced in a kernel is not caught.)
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_GPU_EMULATOR_DEVICEMEMORY_H
#define OFFLOAD_GPU_EMULATOR_DEVICEMEMORY_H

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>

namespace gpuemu {

class MemoryShadow;

class DeviceMemory {
public:
  static DeviceMemory &get();

  /// 256-byte aligned; nullptr when the range is exhausted.
  void *allocate(size_t Bytes);
  /// False when \p Ptr is not the start of an allocation.
  bool free(void *Ptr);
  /// True when [Ptr, Ptr+Bytes) lies inside one allocation or one
  /// registered range.
  bool isDevice(const void *Ptr, size_t Bytes) const;
  /// Registers (or removes) a loaded image's writable data.
  void addRange(const void *Start, size_t Bytes);
  void removeRange(const void *Start);
  size_t capacity() const { return Capacity; }

private:
  DeviceMemory();
  void *allocateRounded(size_t Bytes);
  /// Memcheck's report of a free of \p Ptr that is not an allocation.
  void checkFree(MemoryShadow &Shadow, void *Ptr);
  static bool inside(const std::map<uintptr_t, size_t> &Ranges, uintptr_t P,
                     size_t Bytes);

  mutable std::mutex Lock;
  char *Base = nullptr;
  size_t Capacity = 0;
  /// Free ranges by start address (coalesced) and allocations.
  std::map<uintptr_t, size_t> Free, Allocated, Registered;
};

} // namespace gpuemu

#endif // OFFLOAD_GPU_EMULATOR_DEVICEMEMORY_H
