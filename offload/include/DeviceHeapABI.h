//===- DeviceHeapABI.h - The AMDGPU device heap, shared layout --*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What the AMDGPU plugin and the AMDGPU device runtime agree on for the heap
// behind malloc/free/new/delete in target regions: the plugin reserves
// LIBOMPTARGET_HEAP_SIZE bytes of device memory per device, zeroes the
// allocator's state at its start (openmp/device/src/HeapAllocator.h) and
// writes where it is into the image's `__ompx_device_heap`.
//
// Freestanding: included by device code.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_INCLUDE_DEVICEHEAPABI_H
#define OFFLOAD_INCLUDE_DEVICEHEAPABI_H

#include <stdint.h>

namespace ompx {

/// `__ompx_device_heap`, written by the plugin after loading an image. All
/// images loaded on one device share the same heap.
struct DeviceHeapLayout {
  /// Device address of the heap; 0 when no plugin set one up (malloc then
  /// returns null).
  uint64_t Base;
  /// Bytes at Base, the allocator's state included.
  uint64_t Size;
  /// Host-visible 64-bit word: a device that cannot satisfy `operator new`
  /// stores the size it asked for there before it traps, so the plugin can
  /// name the cause of the kernel's failure. 0 when the plugin has none.
  uint64_t ExhaustionReport;
  uint64_t Reserved;
};

constexpr const char *DeviceHeapSymbol = "__ompx_device_heap";

/// Bytes at the start of the heap that hold the allocator's state; the
/// plugin zeroes them, which is the state of an empty heap.
constexpr uint64_t DeviceHeapStateBytes = 1024;

/// LIBOMPTARGET_HEAP_SIZE when it is not set: upstream LLVM's AMDGPU plugin
/// reserved 512 MiB for its device malloc (LLVM 18 to 21).
constexpr uint64_t DefaultDeviceHeapBytes = uint64_t(512) << 20;

} // namespace ompx

#endif // OFFLOAD_INCLUDE_DEVICEHEAPABI_H
