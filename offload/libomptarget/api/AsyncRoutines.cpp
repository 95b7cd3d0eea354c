//===- AsyncRoutines.cpp - omp_target_memcpy_async and friends ------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "api/AsyncRoutines.h"
#include "api/ConstructQueue.h"
#include "api/LibompABI.h"
#include "diagnostics/Diagnostics.h"

#include <cerrno>
#include <memory>
#include <vector>

using namespace offload;

namespace {

/// What a routine's target task runs; owned by the task until it runs.
struct QueuedRoutine {
  Device *D;
  const char *Routine;
  RoutineWork Work;
};

std::vector<kmp_depend_info_record> dependences(int DepObjCount,
                                                void **DepObjList) {
  std::vector<kmp_depend_info_record> Deps;
  if (DepObjCount <= 0 || !DepObjList)
    return Deps;
  for (int I = 0; I < DepObjCount; ++I)
    if (DepObjList[I])
      Deps.push_back(*static_cast<kmp_depend_info_record *>(DepObjList[I]));
  return Deps;
}

/// The target task's entry: queues the routine's operations and leaves
/// them in flight in the task (or, when libomp will not poll the task,
/// waits for them).
int32_t runQueuedRoutine(int32_t, kmp_task_t *Task) {
  std::unique_ptr<QueuedRoutine> R(static_cast<QueuedRoutine *>(Task->shareds));
  Task->shareds = nullptr;
  ConstructQueue Queue(*R->D, nullptr, R->Routine, /*Nowait=*/true);
  Queue.context().continueAfterFailure();
  // Failures were printed, naming the routine; the task's result is not
  // read by anyone.
  (void)R->Work(Queue.context().queue());
  (void)Queue.finish();
  return 0;
}

} // namespace

int offload::runAfterDependences(Device *QueueDevice, const char *Routine,
                                 RoutineWork Work, int DepObjCount,
                                 void **DepObjList) {
  std::vector<kmp_depend_info_record> Deps =
      dependences(DepObjCount, DepObjList);
  int Gtid = __kmpc_global_thread_num(nullptr);
  if (!QueueDevice) {
    if (!Deps.empty())
      __kmpc_omp_wait_deps(nullptr, Gtid, static_cast<int32_t>(Deps.size()),
                           Deps.data(), 0, nullptr);
    return Work(nullptr);
  }
  kmp_task_t *Task = __kmpc_omp_target_task_alloc(
      nullptr, Gtid, KmpTaskTied, sizeof(kmp_task_t), /*SizeOfShareds=*/0,
      runQueuedRoutine, QueueDevice->Id);
  if (!Task) {
    errorMessage("%s: libomp could not create its target task", Routine);
    return ENOMEM;
  }
  Task->shareds = new QueuedRoutine{QueueDevice, Routine, std::move(Work)};
  __kmpc_omp_task_with_deps(nullptr, Gtid, Task,
                            static_cast<int32_t>(Deps.size()), Deps.data(), 0,
                            nullptr);
  return 0;
}
