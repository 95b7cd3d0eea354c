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
// committed when touched.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_GPU_EMULATOR_THREADSTACKS_H
#define OFFLOAD_GPU_EMULATOR_THREADSTACKS_H

#include <cstddef>
#include <cstdint>

namespace gpuemu {

class ThreadStacks {
public:
  ThreadStacks(uint64_t Count, size_t Bytes);
  ~ThreadStacks();
  ThreadStacks(const ThreadStacks &) = delete;
  ThreadStacks &operator=(const ThreadStacks &) = delete;

  void *stack(uint64_t Index) const { return Base + Index * Stride + Guard; }
  size_t size() const { return Bytes; }

private:
  char *Base = nullptr;
  size_t Bytes, Guard, Stride;
  uint64_t Count;
};

} // namespace gpuemu

#endif // OFFLOAD_GPU_EMULATOR_THREADSTACKS_H
