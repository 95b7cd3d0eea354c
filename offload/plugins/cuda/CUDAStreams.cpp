//===- CUDAStreams.cpp - A CUDA device's streams --------------------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Streams and the waits on them: synchronising, polling, the errors a
// wait reports (naming the kernels queued since the last one) and its
// timeout.
//
//===----------------------------------------------------------------------===//

#include "CUDADevice.h"

using namespace offload::plugin;
using namespace offload::plugin::cuda;

Status CUDADevice::synchronize(__tgt_async_info *Async) {
  if (!Async || !Async->Queue)
    return Status::ok();
  if (Status S = makeCurrent())
    return S;
  auto *Record = static_cast<StreamRecord *>(Async->Queue);
  Async->Queue = nullptr;
  return waitAndRecycle(*Record, "waiting for asynchronous work");
}

Status CUDADevice::queryAsync(__tgt_async_info *Async, bool &Done) {
  Done = true;
  if (!Async || !Async->Queue)
    return Status::ok();
  if (Status S = makeCurrent())
    return S;
  auto *Record = static_cast<StreamRecord *>(Async->Queue);
  CUresult R = API.cuStreamQuery(Record->Stream);
  if (R == CUDA_ERROR_NOT_READY) {
    Done = false;
    return Status::ok();
  }
  if (R) {
    // As in waitAndRecycle: a STOP or exit is why the kernel failed.
    HostService.kernelsCompleted(Record->KernelsSinceWait, true);
    return streamError(*Record, "querying asynchronous work", "cuStreamQuery",
                       R);
  }
  return synchronize(Async);
}

Status CUDADevice::streamError(const StreamRecord &Record,
                               const std::string &What, const char *Call,
                               CUresult R) const {
  if (Record.KernelsSinceWait == 0)
    return Status::error("%s: %s failed: %s returned %s", deviceText().c_str(),
                         What.c_str(), Call, Driver.describe(R).c_str());
  std::string Which = "kernel '" + Record.LastKernel + "'";
  if (Record.KernelsSinceWait > 1)
    Which += " (the last of " + std::to_string(Record.KernelsSinceWait) +
             " kernels queued on its stream)";
  return Status::error("%s: %s failed: %s returned %s", deviceText().c_str(),
                       Which.c_str(), Call, Driver.describe(R).c_str());
}

Status CUDADevice::waitAndRecycle(StreamRecord &Record,
                                  const std::string &What) {
  const char *Call = "cuStreamSynchronize";
  CUresult R = CUDA_SUCCESS;
  if (Timeout.enabled()) {
    Call = "cuStreamQuery";
    bool TimedOut = false;
    R = pollUntilDone(Record.Stream, TimedOut);
    if (TimedOut)
      return timeoutError(Record, What);
  } else {
    R = API.cuStreamSynchronize(Record.Stream);
  }
  // The kernels' output is out, and a STOP ends the program, before
  // their completion or failure is reported.
  HostService.kernelsCompleted(Record.KernelsSinceWait, R != CUDA_SUCCESS);
  Status Result = R ? streamError(Record, What, Call, R) : Status::ok();
  Record.LastKernel.clear();
  Record.KernelsSinceWait = 0;
  // After a fault the context is unusable and these fail as well; the
  // fault is the error to report.
  for (CUdeviceptr Ptr : Record.DeferredFrees)
    if (Status F = Pool->free(reinterpret_cast<void *>(Ptr)))
      if (!Result)
        Result = Status::error("%s (releasing a launch environment)",
                               F.message().c_str());
  Record.DeferredFrees.clear();
  Record.HostCopies.clear();
  if (Record.Pooled)
    FreeStreams.lock()->push_back(&Record);
  return Result;
}

CUresult CUDADevice::pollUntilDone(CUstream Stream, bool &TimedOut) {
  WaitDeadline Deadline(Timeout);
  // Sleeping between polls leaves the host's cores to the program; the
  // pause grows to 1 ms, which is all it adds to a kernel's completion.
  auto Pause = std::chrono::microseconds(20);
  for (;;) {
    CUresult R = API.cuStreamQuery(Stream);
    if (R != CUDA_ERROR_NOT_READY)
      return R;
    if (Deadline.passed()) {
      TimedOut = true;
      return CUDA_SUCCESS;
    }
    std::this_thread::sleep_for(Pause);
    Pause = std::min(Pause * 2, std::chrono::microseconds(1000));
  }
}

Status CUDADevice::timeoutError(const StreamRecord &Record,
                                const std::string &What) {
  std::string Which = What;
  if (Record.KernelsSinceWait)
    Which = "kernel '" + Record.LastKernel + "'";
  return Status::error(
      "%s: %s did not complete within %llu ms (%s): it is still running "
      "or hung; giving up",
      deviceText().c_str(), Which.c_str(),
      static_cast<unsigned long long>(Timeout.Milliseconds),
      KernelTimeoutVariable);
}
