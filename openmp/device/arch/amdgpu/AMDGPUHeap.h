//===- AMDGPUHeap.h - The device heap of AMD GPUs ---------------*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Shared by the C allocation functions (AMDGPUHeap.cpp) and the C++
// operators new and delete (AMDGPUOperatorNew.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef OPENMP_DEVICE_ARCH_AMDGPU_AMDGPUHEAP_H
#define OPENMP_DEVICE_ARCH_AMDGPU_AMDGPUHEAP_H

#include "HeapAllocator.h"

#include <stddef.h>
#include <stdint.h>

namespace ompx {
namespace gpu {
/// The heap the plugin set up for this device (empty without one).
heap::Heap deviceHeap();
/// Ends the kernel because the heap could not serve \p Bytes bytes to an
/// allocation that may not fail (operator new); the plugin's error names
/// the heap and LIBOMPTARGET_HEAP_SIZE.
[[noreturn]] void heapExhausted(uint64_t Bytes);
} // namespace gpu
} // namespace ompx

extern "C" {
/// free(), under a name LLVM does not know as a library function.
void ompx_heap_free(void *Ptr);
}

#endif // OPENMP_DEVICE_ARCH_AMDGPU_AMDGPUHEAP_H
