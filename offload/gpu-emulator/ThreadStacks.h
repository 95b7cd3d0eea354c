//===- ThreadStacks.h - Stacks of the GPU threads of one worker -*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// One stack per thread of a block, reused by every block the worker runs.
// Each has an inaccessible guard page below it, so an overflow faults
// instead of corrupting the neighbouring thread's stack. Pages are only
// committed when touched. Under ThreadSanitizer each stack also has a TSan
// fiber, which every context started on it runs as (FiberAnnotations.h).
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_GPU_EMULATOR_THREADSTACKS_H
#define OFFLOAD_GPU_EMULATOR_THREADSTACKS_H

#include "FiberAnnotations.h"

#include <cstddef>
#include <cstdint>
#if GPUEMU_TSAN_FIBERS
#include <vector>
#endif

namespace gpuemu {

class ThreadStacks {
public:
  ThreadStacks(uint64_t Count, size_t Bytes);
  ~ThreadStacks();
  ThreadStacks(const ThreadStacks &) = delete;
  ThreadStacks &operator=(const ThreadStacks &) = delete;

  void *stack(uint64_t Index) const { return Base + Index * Stride + Guard; }
  size_t size() const { return Bytes; }
#if GPUEMU_TSAN_FIBERS
  void *fiber(uint64_t Index) const { return Fibers[Index]; }
#endif

private:
  char *Base = nullptr;
  size_t Bytes, Guard, Stride;
  uint64_t Count;
#if GPUEMU_TSAN_FIBERS
  std::vector<void *> Fibers;
#endif
};

} // namespace gpuemu

#endif // OFFLOAD_GPU_EMULATOR_THREADSTACKS_H
