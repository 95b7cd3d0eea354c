//===- AsyncRoutines.h - omp_target_memcpy_async and friends ---*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// omp_target_memcpy_async, _memcpy_rect_async and _memset_async. As in
// upstream's runtime, each is a libomp target task (a hidden helper task
// where libomp has them) made with the caller's depend objects, so `depend`
// clauses and taskwait order it like a `target nowait`. Its operations go
// on one device queue (a CUDA stream) and the task is left in flight as a
// nowait construct's is (ConstructQueue.h): it completes, and its dependent
// tasks start, once libomp's poll finds the queue done. So independent
// async copies overlap with each other and with nowait kernels.
//
// Where no queue can take the work (the CPU device, host-to-host copies,
// devices of two plugins) the routine waits for its dependences and runs
// in the call, as before: the CPU device completes every operation in its
// call anyway, and a task would only add its cost.
//
// A failed asynchronous operation prints the plugin's message, named with
// the routine; the program goes on, as upstream's (whose task drops the
// routine's result).
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_LIBOMPTARGET_API_ASYNCROUTINES_H
#define OFFLOAD_LIBOMPTARGET_API_ASYNCROUTINES_H

#include "images/Runtime.h"

#include <functional>

namespace offload {

/// The operations of one routine call: queued on the queue given (null:
/// completed in the call). Returns 0 or an errno value.
using RoutineWork = std::function<int(__tgt_async_info *Queue)>;

/// Runs \p Work after the dependences in \p DepObjList (omp_depend_t
/// objects; null entries are skipped): in a target task on \p QueueDevice's
/// queue, or, with no \p QueueDevice, in the call. Returns \p Work's result
/// when it ran in the call, else 0 once the task was created, or an errno
/// value after a message naming \p Routine.
int runAfterDependences(Device *QueueDevice, const char *Routine,
                        RoutineWork Work, int DepObjCount, void **DepObjList);

} // namespace offload

#endif // OFFLOAD_LIBOMPTARGET_API_ASYNCROUTINES_H
