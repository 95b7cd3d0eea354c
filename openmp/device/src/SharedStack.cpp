//===- SharedStack.cpp - Team-shared memory for globalized variables ------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The compiler moves a local variable that a parallel region shares out of
// the thread's stack with __kmpc_alloc_shared / __kmpc_free_shared (in LIFO
// order). The architecture decides which threads get a part of the team
// scratch memory to use as a stack (arch::threadScratch: on the CPU device
// every thread an equal slice, on GPUs the team's leader all of a small
// area); what does not fit, and every other thread's, goes to the heap.
//
//===----------------------------------------------------------------------===//

#include "Debug.h"
#include "Interface.h"
#include "State.h"

using namespace ompx;

namespace {
constexpr size_t Alignment = 16;

size_t roundUp(size_t Bytes) {
  return Bytes ? (Bytes + Alignment - 1) & ~(Alignment - 1) : Alignment;
}
} // namespace

extern "C" {
OMPX_HOT void *__kmpc_alloc_shared(uint64_t Bytes) {
  size_t Size = roundUp(size_t(Bytes));
  size_t SliceSize;
  uint16_t *Used;
  if (char *Slice = arch::threadScratch(SliceSize, Used)) {
    if (*Used + Size <= SliceSize) {
      void *Ptr = Slice + *Used;
      *Used = uint16_t(*Used + Size);
      return Ptr;
    }
  }
  void *Ptr = arch::allocGlobal(Size);
  if (!Ptr)
    arch::fatal("out of device memory for a variable shared with a parallel "
                "region (__kmpc_alloc_shared)");
  return Ptr;
}

OMPX_HOT void __kmpc_free_shared(void *Ptr, uint64_t Bytes) {
  if (!Ptr)
    return;
  size_t SliceSize;
  uint16_t *Used;
  char *Slice = arch::threadScratch(SliceSize, Used);
  char *P = static_cast<char *>(Ptr);
  if (Slice && P >= Slice && P < Slice + SliceSize) {
    OMPX_ASSERT(P + roundUp(size_t(Bytes)) == Slice + *Used,
                "__kmpc_free_shared of a block that is not the last one "
                "__kmpc_alloc_shared gave this thread (frees must be LIFO, "
                "with the allocated size)");
    // Frees are LIFO: everything from Ptr up is released.
    *Used = uint16_t(P - Slice);
    return;
  }
  arch::freeGlobal(Ptr);
}

void *__kmpc_get_dynamic_shared() { return arch::dynamicSharedMemory(); }
void *llvm_omp_target_dynamic_shared_alloc() {
  return arch::dynamicSharedMemory();
}
void *llvm_omp_get_dynamic_shared() { return arch::dynamicSharedMemory(); }
}
