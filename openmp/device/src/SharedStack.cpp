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
// order). Each thread of the block owns an equal slice of the team scratch
// memory and uses it as a stack; what does not fit goes to the global heap.
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

/// The calling thread's slice of the scratch memory, or null.
char *sliceOf(size_t &SliceSize) {
  char *Scratch = static_cast<char *>(arch::teamScratch());
  uint32_t Threads = arch::numThreadsInBlock();
  SliceSize =
      Threads ? (arch::teamScratchSize() / Threads) & ~(Alignment - 1) : 0;
  if (!Scratch || SliceSize == 0)
    return nullptr;
  return Scratch + SliceSize * arch::threadIdInBlock();
}
} // namespace

extern "C" {
void *__kmpc_alloc_shared(uint64_t Bytes) {
  size_t Size = roundUp(size_t(Bytes));
  ThreadState &State = arch::threadState();
  size_t SliceSize;
  if (char *Slice = sliceOf(SliceSize)) {
    if (State.StackUsed + Size <= SliceSize) {
      void *Ptr = Slice + State.StackUsed;
      State.StackUsed += Size;
      return Ptr;
    }
  }
  void *Ptr = arch::allocGlobal(Size);
  if (!Ptr)
    arch::fatal("out of device memory for a variable shared with a parallel "
                "region (__kmpc_alloc_shared)");
  return Ptr;
}

void __kmpc_free_shared(void *Ptr, uint64_t Bytes) {
  if (!Ptr)
    return;
  size_t SliceSize;
  char *Slice = sliceOf(SliceSize);
  char *P = static_cast<char *>(Ptr);
  if (Slice && P >= Slice && P < Slice + SliceSize) {
    OMPX_ASSERT(P + roundUp(size_t(Bytes)) ==
                    Slice + arch::threadState().StackUsed,
                "__kmpc_free_shared of a block that is not the last one "
                "__kmpc_alloc_shared gave this thread (frees must be LIFO, "
                "with the allocated size)");
    // Frees are LIFO: everything from Ptr up is released.
    arch::threadState().StackUsed = uint32_t(P - Slice);
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
