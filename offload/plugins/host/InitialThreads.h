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
// region. Outside any parallel region it already gives the device's answers
// and the kernel runs where it is. Inside one, the CPU device runtime runs
// the kernel on the launching thread in a team of one and answers the
// level queries from there (openmp/device/arch/cpu/CPUInPlace.cpp). What
// is here serves launches from inside an *active* region (a host team, or
// libomp's hidden helper team) that the user sends to a thread of ours
// (LIBOMPTARGET_HOST_NESTED_LAUNCH=device-thread), or whose image lacks
// that runtime: libomp has never seen our thread inside a parallel region,
// so it is a fresh initial thread and the kernel's `parallel` gets a team
// of its own instead of being serialized in the host's.
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

/// Whether a host-style kernel launched with \p Nesting must leave the
/// host's team: libomp would answer for it there (active parallel region).
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
