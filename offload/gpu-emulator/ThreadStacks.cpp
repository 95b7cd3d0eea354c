//===- ThreadStacks.cpp - Stacks of the GPU threads of one worker ---------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "ThreadStacks.h"

#include <cstdio>
#include <cstdlib>
#include <sys/mman.h>
#include <unistd.h>

namespace gpuemu {

ThreadStacks::ThreadStacks(uint64_t Count, size_t RequestedBytes)
    : Count(Count) {
  size_t Page = size_t(sysconf(_SC_PAGESIZE));
  Bytes = (RequestedBytes + Page - 1) / Page * Page;
  Guard = Page;
  Stride = Bytes + Guard;
  void *Memory = mmap(nullptr, Stride * Count, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (Memory == MAP_FAILED) {
    fprintf(stderr, "gpu-emulator: cannot map %llu stacks of %zu bytes\n",
            (unsigned long long)Count, Bytes);
    std::abort();
  }
  Base = static_cast<char *>(Memory);
  for (uint64_t I = 0; I < Count; ++I)
    mprotect(Base + I * Stride, Guard, PROT_NONE);
#if GPUEMU_TSAN_FIBERS
  Fibers.resize(Count);
  for (uint64_t I = 0; I < Count; ++I) {
    Fibers[I] = __tsan_create_fiber(0);
    char Name[48];
    snprintf(Name, sizeof(Name), "gpu-emulator thread %llu",
             (unsigned long long)I);
    __tsan_set_fiber_name(Fibers[I], Name);
  }
#endif
}

ThreadStacks::~ThreadStacks() {
#if GPUEMU_TSAN_FIBERS
  // The worker destroys them on its own fiber, after its last block.
  for (void *Fiber : Fibers)
    __tsan_destroy_fiber(Fiber);
#endif
  munmap(Base, Stride * Count);
}

} // namespace gpuemu
