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
// region. Outside any, or inside inactive ones only, it already gives the
// device's answers (only omp_get_level() counts the inactive regions) and
// the kernel runs where it is. Inside an active one (a host team, or
// libomp's hidden helper team) whose nesting leaves the kernel's own
// parallel regions serialized (the default max-active-levels of 1), the
// CPU device runtime runs the kernel on the launching thread in a team of
// one and answers the level queries from there
// (openmp/device/arch/cpu/CPUInPlace.cpp). What is here serves the other
// launches from active regions: those the user sends to a thread of ours
// (LIBOMPTARGET_HOST_NESTED_LAUNCH=device-thread), those whose parallel
// regions libomp would run on more threads (whose levels the runtime could
// not answer for), and those whose image lacks that runtime. libomp has
// never seen our thread inside a parallel region, so it is a fresh initial
// thread and the kernel's `parallel` gets a team of its own.
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
  int Level = 0;           ///< omp_get_level()
  int ActiveLevel = 0;     ///< omp_get_active_level()
  int MaxActiveLevels = 1; ///< omp_get_max_active_levels()
};

/// The calling thread's nesting (zeros when the process has no libomp).
HostNesting hostNesting();

/// Whether a host-style kernel launched with \p Nesting must leave the
/// host's team: libomp would answer for it there (active parallel region).
inline bool needsInitialThread(const HostNesting &Nesting) {
  return Nesting.ActiveLevel > 0;
}

/// Whether libomp serializes every parallel region of a kernel launched
/// with \p Nesting, so that the kernel runs on the launching thread alone
/// (the condition for running it in place, CPUDeviceLaunch.h).
inline bool kernelRegionsSerialized(const HostNesting &Nesting) {
  return Nesting.ActiveLevel >= Nesting.MaxActiveLevels;
}

/// Runs \p Body(\p Context) on a device initial thread and waits for it.
/// Several launches at once use several threads. Returns false with \p Error
/// set when no thread could be started (Body did not run).
bool runOnInitialThread(void (*Body)(void *), void *Context,
                        std::string &Error);

} // namespace host
} // namespace offload

#endif // OFFLOAD_PLUGINS_HOST_INITIALTHREADS_H
