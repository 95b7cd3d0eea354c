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

/// Runs outlined region \p Fn on the calling thread as thread \p ThreadNum
/// of level-1 region number \p RegionSerial with \p TeamSize threads.
void runRegionAsMember(void *Fn, void **Args, uint64_t NumArgs,
                       uint32_t ThreadNum, uint32_t TeamSize,
                       uint32_t RegionSerial);

/// Threads of a new level-1 region: those available to regions, limited by
/// a num_threads clause (when positive) or, without one, by nthreads-var.
uint32_t chooseTeamSize(int32_t NumThreadsClause, const ThreadState &State);

/// Recomputes omp_get_thread_num/omp_get_num_threads from the level.
void restoreRegionView(ThreadState &State);

} // namespace ompx

#endif // OPENMP_DEVICE_SRC_PARALLEL_H
