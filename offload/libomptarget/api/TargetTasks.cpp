//===- TargetTasks.cpp - Where libomp runs nowait target tasks ------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "api/TargetTasks.h"
#include "api/LibompABI.h"

#include "diagnostics/Diagnostics.h"
#include "images/Runtime.h"

#include "Guarded.h"

#include <cstdlib>

using namespace offload;

namespace {
// libomp turns its hidden helpers off when either says so. We set the
// thread count, not LIBOMP_USE_HIDDEN_HELPER_TASK=0: with the latter alone,
// libomp 22 still keeps the helpers' slots out of its thread table without
// counting them in its capacity check, and asserts (kmp_runtime.cpp,
// `gtid < __kmp_threads_capacity`) once a program registers a few dozen
// root threads.
constexpr char UseHelpersVariable[] = "LIBOMP_USE_HIDDEN_HELPER_TASK";
constexpr char HelperCountVariable[] = "LIBOMP_NUM_HIDDEN_HELPER_THREADS";

bool onlyCPUDevices(Runtime &RT) {
  int32_t Count = RT.numDevices();
  for (int32_t I = 0; I < Count; ++I) {
    Device *D = RT.device(I);
    if (!D || D->Plugin.Name != "host")
      return false;
  }
  return Count > 0;
}
} // namespace

TargetTaskThreads offload::chooseTargetTaskThreads(Runtime &RT) {
  static Guarded<TargetTaskThreads> Chosen;
  Guarded<TargetTaskThreads>::Access Locked = Chosen.lock();
  TargetTaskThreads &Decision = *Locked;
  if (Decision != TargetTaskThreads::Undecided || RT.numDevices() == 0)
    return Decision;
  if (std::getenv(UseHelpersVariable) || std::getenv(HelperCountVariable)) {
    Decision = TargetTaskThreads::UserSetting;
  } else if (!onlyCPUDevices(RT)) {
    Decision = TargetTaskThreads::HiddenHelpers;
  } else {
    // Registration runs from the program's constructors, before libomp
    // reads its environment; a later libomp start would still see it.
    setenv(HelperCountVariable, "0", /*overwrite=*/0);
    Decision = TargetTaskThreads::OrdinaryTasks;
  }
  OFFLOAD_DEBUG("nowait target tasks run as %s",
                Decision == TargetTaskThreads::OrdinaryTasks
                    ? "ordinary tasks (only CPU devices; "
                      "LIBOMP_NUM_HIDDEN_HELPER_THREADS=0)"
                : Decision == TargetTaskThreads::UserSetting
                    ? "the LIBOMP_*_HIDDEN_HELPER_* variables say"
                    : "hidden helper tasks (libomp's default)");
  return Decision;
}

void offload::drainTargetTasksAtExit() {
  // A program may return from main with `nowait` target tasks still queued
  // or in flight (the end of a `target data` region does not wait for
  // them). libomp's shutdown, run by its library destructor, then waits for
  // its hidden helper team while the helpers have stopped polling the tasks
  // whose device work is in flight: the exit hung, or went on while device
  // streams still ran and the drivers' state was torn down under them. The
  // end of the program is the end of the implicit parallel region, where
  // OpenMP has every task of the region complete; so the initial thread
  // waits for them here, from an exit handler that runs before any library
  // destructor (it is registered after libc's), while libomp and the
  // plugins are whole. exit() called elsewhere (inside a parallel region or
  // a task) waits for nothing: a task there may be the caller itself.
  static bool Installed = [] {
    atexit([] {
      if (omp_get_level() != 0)
        return;
      int32_t Gtid = __kmpc_global_thread_num(nullptr);
      if (Gtid >= 0)
        (void)__kmpc_omp_taskwait(nullptr, Gtid);
    });
    return true;
  }();
  (void)Installed;
}
