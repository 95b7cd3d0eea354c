//===- InitialThreads.h - Device initial threads of the CPU device --------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A target region starts on the device's initial thread: outside any
// parallel region, omp_get_thread_num() is 0, omp_get_num_threads() 1,
// omp_get_level() 0. Clang's host-style CPU kernels call the host's libomp
// for those answers, and run on the thread that launched them; launched from
// inside a host `parallel` region, they would see the host team (thread 1 of
// 2 on the second host thread), and a `parallel` inside them would nest in
// it. Such launches run instead on a thread of their own that libomp has
// never seen inside a parallel region, so it is a fresh initial thread with
// its own teams. Launches from outside parallel regions (the common case)
// run where they are, at no cost.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_PLUGINS_HOST_INITIALTHREADS_H
#define OFFLOAD_PLUGINS_HOST_INITIALTHREADS_H

#include <functional>

namespace offload {
namespace host {

/// Whether the calling thread is inside an OpenMP parallel region of the
/// host's libomp (false when the process has no libomp).
bool insideHostParallelRegion();

/// Runs \p Body on a device initial thread and waits for it. Threads are
/// kept for later launches (they keep their libomp teams warm); several
/// launches at once use several threads.
void runOnInitialThread(const std::function<void()> &Body);

} // namespace host
} // namespace offload

#endif // OFFLOAD_PLUGINS_HOST_INITIALTHREADS_H
