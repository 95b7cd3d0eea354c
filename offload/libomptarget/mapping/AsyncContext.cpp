//===- AsyncContext.cpp - The device queue of one construct ---------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mapping/AsyncContext.h"
#include "diagnostics/Diagnostics.h"

#include <algorithm>
#include <cstring>

using namespace offload;

AsyncContext::AsyncContext(DeviceWork &D, const ident_t *Loc, const char *Construct)
    : D(D), Loc(Loc), Construct(Construct), Asynchronous(D.asynchronous()) {}

AsyncContext::~AsyncContext() {
  if (Queued || !After.empty())
    (void)synchronize();
}

const void *AsyncContext::stage(const void *Source, size_t Bytes) {
  if (!Asynchronous)
    return Source;
  Staged.emplace_back(new char[std::max<size_t>(Bytes, 1)]);
  std::memcpy(Staged.back().get(), Source, Bytes);
  return Staged.back().get();
}

void AsyncContext::afterCompletion(std::function<void()> Fn) {
  if (!Asynchronous || !Queued) {
    Fn();
    return;
  }
  After.push_back(std::move(Fn));
}

bool AsyncContext::complete(const char *Call, bool CallFailed,
                            const std::string &Message) {
  if (CallFailed) {
    // The plugin's message names the device, the kernel that failed and
    // the driver's error, as a blocking operation's failure does; the
    // construct's location follows when the program stops.
    OFFLOAD_DEBUG("%s at %s: %s failed", Construct, sourceLocation(Loc).c_str(),
                  Call);
    if (StopsOnFailure)
      errorMessage("%s", Message.c_str());
    else
      errorMessage("%s: %s", Construct, Message.c_str());
    Failed = true;
  }
  Queued = false;
  // What follows the work runs also after a failure: entries other
  // constructs wait for must settle.
  std::vector<std::function<void()>> Work;
  Work.swap(After);
  for (std::function<void()> &Fn : Work)
    Fn();
  Staged.clear();
  return !Failed;
}

bool AsyncContext::synchronize() {
  // A synchronous device's context never holds work (queue() is null and
  // completion work runs at once): nothing to lock for, on every construct.
  if (!Asynchronous)
    return !Failed;
  std::lock_guard<std::mutex> Guard(Lock);
  if (!Queued && After.empty())
    return !Failed;
  plugin::Status S;
  if (Queued)
    S = D.plugin().synchronize(&Info);
  return complete("waiting for its device work", static_cast<bool>(S),
                  S.message());
}

bool AsyncContext::poll(bool &Done) {
  Done = false;
  std::unique_lock<std::mutex> Guard(Lock, std::try_to_lock);
  if (!Guard.owns_lock())
    return true; // Another thread is completing it.
  if (!Queued && After.empty()) {
    Done = true;
    return !Failed;
  }
  bool Finished = true;
  plugin::Status S;
  if (Queued)
    S = D.plugin().queryAsync(&Info, Finished);
  if (S) {
    // The queue is released by waiting for it (it failed: that returns).
    (void)D.plugin().synchronize(&Info);
  } else if (!Finished) {
    return true;
  }
  Done = true;
  return complete("querying its device work", static_cast<bool>(S),
                  S.message());
}

void InFlightConstructs::add(const std::shared_ptr<AsyncContext> &Context) {
  Contexts.lock()->push_back(Context);
  ++Count;
  // A construct may be waiting for an entry this context will settle,
  // having seen nothing in flight: let it look again.
  LockedMappingTable Table = Context->device().Mappings.lock();
  notifySettled(Table);
}

void InFlightConstructs::remove(const AsyncContext *Context) {
  std::shared_ptr<AsyncContext> Removed; // destroyed without the lock
  auto Locked = Contexts.lock();
  auto It = std::find_if(Locked->begin(), Locked->end(),
                         [&](const std::shared_ptr<AsyncContext> &C) {
                           return C.get() == Context;
                         });
  if (It == Locked->end())
    return;
  Removed = std::move(*It);
  Locked->erase(It);
  --Count;
}

bool InFlightConstructs::completePending() {
  std::vector<std::shared_ptr<AsyncContext>> Pending;
  {
    auto Locked = Contexts.lock();
    if (Locked->empty())
      return false;
    Pending = *Locked;
  }
  bool Any = false;
  for (const std::shared_ptr<AsyncContext> &C : Pending) {
    bool Done = false;
    (void)C->poll(Done);
    if (Done)
      continue;
    // Its errors are reported here; its owner fails when it polls.
    (void)C->synchronize();
    Any = true;
  }
  return Any;
}
