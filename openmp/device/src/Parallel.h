//===- Parallel.h - Running outlined parallel regions -----------*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef OPENMP_DEVICE_SRC_PARALLEL_H
#define OPENMP_DEVICE_SRC_PARALLEL_H

#include "State.h"

namespace ompx {

/// Most captured variables an outlined region may take.
constexpr uint64_t MaxRegionArgs = 64;

/// Returns \p Ptr through an empty assembler statement: the same pointer at
/// run time, but one no optimizer can trace back to what it points to.
///
/// invokeRegion calls a parallel region through a different prototype for
/// each argument count (65 indirect call sites). Given the region pointer
/// the caller passed, the device link's OpenMPOpt pass (its Attributor, which
/// sees every region of the program) compared each of those sites with each
/// region, whatever its argument count, and the inliner then copied the
/// regions into all of them: link time and code size grew with sites x
/// regions (a 33-kernel solver did not link for gfx90a in 10 CPU-minutes).
/// Behind this barrier each site stays one indirect call, which is all the
/// runtime needs (the region and its argument count are only known when the
/// program runs), and the pass takes time linear in the program.
template <typename T>
[[gnu::always_inline]] inline T *hideFromOptimizer(T *Ptr) {
#if defined(__AMDGPU__)
  asm volatile("" : "+v"(Ptr));
#elif defined(__NVPTX__)
  asm volatile("" : "+l"(Ptr));
#else
  asm volatile("" : "+r"(Ptr));
#endif
  return Ptr;
}

/// Runs outlined region \p Fn on the calling thread as member \p ThreadNum
/// (its id in the block) of its team's level-1 region, which the thread
/// that started it has sized and numbered in TeamState.
void runRegionAsMember(void *Fn, void **Args, uint64_t NumArgs,
                       uint32_t ThreadNum);

/// Threads of a new level-1 region: those available to regions, limited by
/// a num_threads clause (when positive) or, without one, by the calling
/// thread's nthreads-var.
uint32_t chooseTeamSize(int32_t NumThreadsClause);

} // namespace ompx

#endif // OPENMP_DEVICE_SRC_PARALLEL_H
