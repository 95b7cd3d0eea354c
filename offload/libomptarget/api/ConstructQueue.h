//===- ConstructQueue.h - Where a construct's device work goes -*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A construct queues its copies and its launch on one AsyncContext. A
// blocking construct waits for it once, at its end. A `nowait` construct
// runs inside the target task libomp made for it; on a device whose work
// completes asynchronously it leaves the context in flight in that task's
// async handle (__kmpc_omp_get_target_async_handle_ptr) and returns. libomp
// then keeps the task, and its dependent tasks, waiting and calls
// __tgt_target_nowait_query with the handle until the runtime clears it:
// the completion work runs there, and errors are reported there. Without a
// task team (the target task runs undeferred) libomp would not poll, so
// the construct waits, as upstream's runtime does.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_LIBOMPTARGET_API_CONSTRUCTQUEUE_H
#define OFFLOAD_LIBOMPTARGET_API_CONSTRUCTQUEUE_H

#include "images/Runtime.h"
#include "mapping/AsyncContext.h"

#include <memory>
#include <optional>

namespace offload {

class ConstructQueue {
public:
  /// \p Nowait: the construct has the nowait clause (it runs in a target
  /// task).
  ConstructQueue(Device &D, const ident_t *Loc, const char *Construct,
                 bool Nowait);
  AsyncContext &context() { return InTask ? *InTask : *Local; }
  /// Ends the construct: waits for its work, or leaves it in flight in its
  /// task. Returns false after printing why the work failed.
  bool finish();

private:
  std::optional<AsyncContext> Local;
  std::shared_ptr<AsyncContext> InTask;
  void **TaskHandle = nullptr;
};

/// __tgt_target_nowait_query: polls the context \p Handle holds; once its
/// work completed, frees it, clears the handle and stops the program with
/// the construct's failure if it failed (an async routine's failure was
/// only reported: AsyncContext::continueAfterFailure).
void queryInFlight(void **Handle);

} // namespace offload

#endif // OFFLOAD_LIBOMPTARGET_API_CONSTRUCTQUEUE_H
