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
// for those answers, and would run on the thread that launched them.
//
// libomp answers for the calling thread's innermost *active* parallel
// region: outside any, or inside serialized (inactive) ones only, it already
// says thread 0 of 1, not in parallel, and a `parallel` in the kernel gets a
// team of its own. Such launches (the main thread's, a plain thread's, a
// task's run by the initial thread, a launch in `parallel if(0)`) run where
// they are, at no cost. Inside an active region (a host team, or libomp's
// hidden helper team, which runs `nowait` target tasks) the kernel would see
// the host team (thread 1 of 2) and its `parallel` would be serialized; it
// runs instead on a thread of ours that libomp has never seen inside a
// parallel region, so it is a fresh initial thread with its own teams.
//
// The launching thread blocks on a semaphore (one futex wake each way, no
// spinning and no lock held across the kernel) until the kernel returns.
// The threads are pooled, most recently used first, so a time-step loop of
// launches keeps handing its kernels to the same thread, whose libomp team
// is still warm from the previous kernel.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_PLUGINS_HOST_INITIALTHREADS_H
#define OFFLOAD_PLUGINS_HOST_INITIALTHREADS_H

#include <string>

namespace offload {
namespace host {

/// Where the host's libomp puts the calling thread.
struct HostNesting {
  int Level = 0;       ///< omp_get_level()
  int ActiveLevel = 0; ///< omp_get_active_level()
};

/// The calling thread's nesting (zeros when the process has no libomp).
HostNesting hostNesting();

/// Whether a host-style kernel launched with \p Nesting must run on a device
/// initial thread rather than on the launching thread.
inline bool needsInitialThread(const HostNesting &Nesting) {
  return Nesting.ActiveLevel > 0;
}

/// Runs \p Body(\p Context) on a device initial thread and waits for it.
/// Several launches at once use several threads. Returns false with \p Error
/// set when no thread could be started (Body did not run).
bool runOnInitialThread(void (*Body)(void *), void *Context,
                        std::string &Error);

} // namespace host
} // namespace offload

#endif // OFFLOAD_PLUGINS_HOST_INITIALTHREADS_H
