//===- TargetTasks.h - Where libomp runs nowait target tasks ---*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// libomp runs the task of a `target nowait` on one of its hidden helper
// threads, so that the encountering thread goes on while a GPU works. When
// every device is the CPU device there is nothing to overlap with: the
// kernel needs the same cores as the encountering thread, which usually
// spins in `taskwait` meanwhile. And a hidden helper is a thread of an
// active parallel region (the hidden helper team), so the kernel cannot run
// on it and still see a device initial thread (plugins/host/
// InitialThreads.h): every such launch is handed to another thread, whose
// team then competes with the spinning host thread for the cores.
//
// So when registration finds only CPU devices, the runtime asks libomp to
// run target tasks as ordinary tasks (LIBOMP_NUM_HIDDEN_HELPER_THREADS=0,
// read by libomp when it initialises, which happens after the program's
// registration constructors): a `target nowait` outside any parallel region
// then runs at once on the encountering thread, with no hand-off; inside a
// parallel region it is queued for the team as any task. A user's own
// setting of LIBOMP_USE_HIDDEN_HELPER_TASK or
// LIBOMP_NUM_HIDDEN_HELPER_THREADS always wins. The variable stays in the
// environment (child processes inherit it): removing it while other threads
// may read the environment is not safe.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_LIBOMPTARGET_API_TARGETTASKS_H
#define OFFLOAD_LIBOMPTARGET_API_TARGETTASKS_H

namespace offload {

class Runtime;

/// What the decision was, for tests and LIBOMPTARGET_DEBUG.
enum class TargetTaskThreads {
  Undecided,      ///< no library registered yet
  UserSetting,    ///< the user set one of libomp's hidden helper variables
  HiddenHelpers,  ///< a non-CPU device exists: libomp's default kept
  OrdinaryTasks,  ///< only CPU devices: hidden helper tasks turned off
};

/// Called after each library registration; decides once, on the first
/// registration that found devices.
TargetTaskThreads chooseTargetTaskThreads(Runtime &RT);

/// Called after each library registration; once, arranges for exit() on
/// the initial thread to wait for the target tasks still pending (see
/// TargetTasks.cpp).
void drainTargetTasksAtExit();

} // namespace offload

#endif // OFFLOAD_LIBOMPTARGET_API_TARGETTASKS_H
