//===- ConstructQueue.cpp - Where a construct's device work goes ----------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "api/ConstructQueue.h"
#include "api/LibompABI.h"
#include "api/Policy.h"

using namespace offload;

namespace {

/// The async-handle slot of the target task running on this thread, when
/// libomp will poll it; null otherwise.
void **targetTaskHandle() {
  int Gtid = __kmpc_global_thread_num(nullptr);
  if (Gtid < 0 || !__kmpc_omp_has_task_team(Gtid))
    return nullptr;
  void **Handle = __kmpc_omp_get_target_async_handle_ptr(Gtid);
  // A task runs one construct: a handle already set is not ours to reuse.
  return Handle && !*Handle ? Handle : nullptr;
}

/// Polls of one in-flight construct before the polling thread waits for
/// the device instead: libomp hands an unfinished target task straight
/// back to the thread that polled it, which would otherwise spin on it
/// (and take the cores an emulated device's streams run on).
constexpr unsigned PollsBeforeWaiting = 4;

} // namespace

ConstructQueue::ConstructQueue(Device &D, const ident_t *Loc,
                               const char *Construct, bool Nowait) {
  if (Nowait && D.asynchronous())
    TaskHandle = targetTaskHandle();
  if (TaskHandle)
    InTask = std::make_shared<AsyncContext>(D, Loc, Construct);
  else
    Local.emplace(D, Loc, Construct);
}

bool ConstructQueue::finish() {
  if (!InTask)
    return Local->synchronize();
  bool Done = false;
  bool Ok = InTask->poll(Done);
  if (Done)
    return Ok;
  InTask->device().InFlight.add(InTask);
  *TaskHandle = InTask.get();
  return true;
}

void offload::queryInFlight(void **Handle) {
  if (!Handle || !*Handle)
    return;
  auto *Context = static_cast<AsyncContext *>(*Handle);
  bool Done = false;
  bool Ok = Context->poll(Done);
  if (!Done) {
    if (Context->countPoll() < PollsBeforeWaiting)
      return;
    Ok = Context->synchronize();
  }
  const ident_t *Loc = Context->location();
  bool Stop = !Ok && Context->stopsOnFailure();
  *Handle = nullptr;
  Context->device().InFlight.remove(Context); // the last reference
  if (Stop)
    targetConstructFailed(Loc);
}
