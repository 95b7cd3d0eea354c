//===- AMDGPUHeap.cpp - malloc and free on AMD GPUs -----------------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// HSA has no device-side malloc, so the AMDGPU plugin reserves a heap of
// LIBOMPTARGET_HEAP_SIZE bytes per device and says where it is in
// `__ompx_device_heap` (DeviceHeapABI.h). The C allocation functions of
// user code and the runtime's own overflow memory (variables shared with a
// parallel region that do not fit in team-shared memory) both come from it,
// through the lock-free allocator of ../../src/HeapAllocator.h.
//
//===----------------------------------------------------------------------===//

#include "AMDGPUHeap.h"
#include "Arch.h"
#include "ArchConfig.h"
#include "GPUPrimitives.h"
#include "HeapAllocator.h"

using namespace ompx;

extern "C" {
/// Zero (no heap: every allocation fails) until the plugin writes it.
OMPX_EXPORTED_GLOBAL DeviceHeapLayout __ompx_device_heap = {};
}

heap::Heap ompx::gpu::deviceHeap() {
  return heap::Heap(reinterpret_cast<char *>(__ompx_device_heap.Base),
                    __ompx_device_heap.Size);
}

void ompx::gpu::heapExhausted(uint64_t Bytes) {
  const DeviceHeapLayout *Heap = &__ompx_device_heap;
  // The plugin reads the report when the kernel fails; the trap that
  // follows ends the kernel.
  if (Heap->ExhaustionReport)
    __atomic_store_n(reinterpret_cast<uint64_t *>(Heap->ExhaustionReport),
                     Bytes ? Bytes : 1, __ATOMIC_SEQ_CST);
  __builtin_trap();
}

[[gnu::noinline]] void *ompx::gpu::allocate(size_t Size) {
  return deviceHeap().allocate(Size);
}

void ompx::gpu::deallocate(void *Ptr) { ompx_heap_free(Ptr); }

// The entry points stay out of line. Inlined into the sequential part of a
// generic kernel, the allocator's compare-and-swap loops let link-time
// OpenMPOpt turn the kernel into an SPMD one whose threads then hung (seen on
// the emulated gfx90a); as calls, the pass keeps such a kernel generic.
extern "C" {

[[gnu::noinline]] void ompx_heap_free(void *Ptr) {
  heap::FreeResult Result = gpu::deviceHeap().deallocate(Ptr);
  // Freeing memory the heap did not hand out, or twice, would corrupt it;
  // stop the kernel instead.
  if (Result == heap::FreeResult::NotFromHeap)
    arch::fatal("free: the pointer was not allocated by the device heap");
  if (Result == heap::FreeResult::DoubleFree)
    arch::fatal("free: the block was already freed");
}

[[gnu::noinline]] void *malloc(size_t Size) {
  return gpu::deviceHeap().allocate(Size);
}

[[gnu::noinline]] void free(void *Ptr) { ompx_heap_free(Ptr); }

[[gnu::noinline]] void *aligned_alloc(size_t Alignment, size_t Size) {
  return gpu::deviceHeap().allocateAligned(Alignment, Size);
}

[[gnu::noinline]] void *calloc(size_t Count, size_t Size) {
  size_t Bytes = 0;
  if (__builtin_mul_overflow(Count, Size, &Bytes))
    return nullptr;
  void *Ptr = gpu::deviceHeap().allocate(Bytes);
  // Reused blocks hold what their last user left.
  if (Ptr)
    __builtin_memset(Ptr, 0, Bytes);
  return Ptr;
}

[[gnu::noinline]] void *realloc(void *Ptr, size_t Size) {
  heap::Heap Heap = gpu::deviceHeap();
  if (!Ptr)
    return Heap.allocate(Size);
  uint64_t Usable = Heap.usableSize(Ptr);
  if (!Usable)
    arch::fatal("realloc: the pointer is not a live block of the device heap");
  if (Size <= Usable)
    return Ptr;
  void *New = Heap.allocate(Size);
  if (!New)
    return nullptr; // the old block stays valid, as C requires
  __builtin_memcpy(New, Ptr, Usable);
  ompx_heap_free(Ptr);
  return New;
}

} // extern "C"
