//===- AsyncContext.h - The device queue of one construct ------*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Every copy and the launch of one construct (a target region, target data,
// enter/exit data, update) go on one plugin queue (a __tgt_async_info: a
// CUDA stream), so they run in order without the host waiting between
// them. What must wait for the device, settling the mapping table, freeing
// device memory, the host side of attached pointers, runs once the queue is
// done: a blocking construct waits for it once, at its end; a `nowait` one
// leaves it in flight in its libomp target task (Interface.cpp), and libomp
// polls it through __tgt_target_nowait_query.
//
// Sources of queued copies must live until the copy has run: CUDA reads
// page-locked host memory when the copy runs, not when it is queued, so
// values the runtime computes (attached pointers...) are staged here.
//
// On a device whose operations complete in their call (the CPU device),
// queue() is null, staging returns the value itself and completion work runs
// at once: nothing changes there.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_LIBOMPTARGET_MAPPING_ASYNCCONTEXT_H
#define OFFLOAD_LIBOMPTARGET_MAPPING_ASYNCCONTEXT_H

#include "OffloadABI.h"
#include "mapping/DeviceWork.h"
#include "mapping/MappingTable.h"

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace offload {

class AsyncContext {
public:
  /// \p Construct names the construct in messages ("target region",
  /// "target update"...), \p Loc its source location.
  AsyncContext(DeviceWork &D, const ident_t *Loc, const char *Construct);
  /// Waits for work still queued (a construct that stopped half way).
  ~AsyncContext();
  AsyncContext(const AsyncContext &) = delete;
  AsyncContext &operator=(const AsyncContext &) = delete;

  /// The queue to hand to the plugin: null on a synchronous device.
  __tgt_async_info *queue() {
    if (!Asynchronous)
      return nullptr;
    Queued = true;
    return &Info;
  }
  bool asynchronous() const { return Asynchronous; }
  /// Whether anything was queued since the last completion.
  bool hasQueuedWork() const { return Queued; }
  DeviceWork &device() { return D; }
  /// Counts a poll by libomp and returns how many there were.
  unsigned countPoll() { return ++Polls; }
  const ident_t *location() const { return Loc; }
  /// For the omp_target_*_async routines: a failure prints the plugin's
  /// message named with the routine, and the program goes on (a construct's
  /// failure stops it once its owner sees it).
  void continueAfterFailure() { StopsOnFailure = false; }
  bool stopsOnFailure() const { return StopsOnFailure; }

  /// A copy of the \p Bytes at \p Source that lives until the queued work
  /// has completed (\p Source itself on a synchronous device).
  const void *stage(const void *Source, size_t Bytes);

  /// Runs \p Fn once the work queued so far has completed; at once on a
  /// synchronous device or when nothing is queued.
  void afterCompletion(std::function<void()> Fn);

  /// Waits for the queued work, then runs what follows it. Returns false
  /// after printing the device's error, named with the construct.
  bool synchronize();
  /// Sets \p Done once the work has completed and what follows it ran (by
  /// this call or an earlier one, here or in another thread). Never blocks
  /// for the device. Returns false after the error was printed.
  bool poll(bool &Done);

private:
  /// Runs the completion work after the plugin said \p S; with \p Lock
  /// held.
  bool complete(const char *Call, bool Failed, const std::string &Message);

  DeviceWork &D;
  const ident_t *Loc;
  const char *Construct;
  const bool Asynchronous;
  bool StopsOnFailure = true;
  bool Queued = false;
  std::atomic<unsigned> Polls{0};
  __tgt_async_info Info{nullptr};
  std::vector<std::function<void()>> After;
  /// Each staged value has a buffer of its own, which stays put when the
  /// vector grows. (A vector, not a deque: every construct makes a context,
  /// and an empty vector allocates nothing.)
  std::vector<std::unique_ptr<char[]>> Staged;
  /// Held while completing: the owner polls while a construct waiting for
  /// an entry this one settles may complete it (InFlightConstructs).
  std::mutex Lock;
  bool Completed = false;
  bool Failed = false;
};

} // namespace offload

#endif // OFFLOAD_LIBOMPTARGET_MAPPING_ASYNCCONTEXT_H
