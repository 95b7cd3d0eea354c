//===- AMDGPUHeap.cpp - Device-global allocations on AMD GPUs -------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// HSA offers no device-side malloc without a host-call service, so memory the
// runtime needs beyond team-shared scratch (variables shared with a parallel
// region that do not fit) comes from a fixed region reserved in the image's
// .bss. Allocation is a single atomic add; nothing is ever reused, which is
// acceptable for the rare overflow path it serves and keeps it wait-free.
//
//===----------------------------------------------------------------------===//

#include "GPUPrimitives.h"

namespace {
constexpr size_t HeapSize = size_t(4) << 20;
constexpr size_t HeapAlignment = 16;

alignas(HeapAlignment) OMPX_GLOBAL char Heap[HeapSize];
OMPX_GLOBAL uint64_t HeapUsed = 0;
} // namespace

void *ompx::gpu::allocate(size_t Size) {
  uint64_t Bytes = (Size + HeapAlignment - 1) & ~uint64_t(HeapAlignment - 1);
  uint64_t Offset = __scoped_atomic_fetch_add(
      &HeapUsed, Bytes, __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE);
  if (Offset + Bytes > HeapSize)
    return nullptr;
  // A C-style cast is how clang converts a global-memory address to a
  // generic one.
  return (char *)&Heap[Offset];
}
