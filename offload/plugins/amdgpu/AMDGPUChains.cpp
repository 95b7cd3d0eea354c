//===- AMDGPUChains.cpp - An AMD GPU agent's work chains ------------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Queues and signals: the chains of work of a __tgt_async_info, the waits
// on them, and the errors and timeouts a wait reports.
//
//===----------------------------------------------------------------------===//

#include "AMDGPUDevice.h"

using namespace offload::plugin;
using namespace offload::plugin::hsa;

Status AMDGPUDevice::synchronize(__tgt_async_info *Async) {
  if (!Async || !Async->Queue)
    return Status::ok();
  auto *Chain = static_cast<AMDGPUWorkChain *>(Async->Queue);
  Async->Queue = nullptr;
  return finish(Chain);
}

Status AMDGPUDevice::queryAsync(__tgt_async_info *Async, bool &Done) {
  Done = true;
  if (!Async || !Async->Queue)
    return Status::ok();
  auto *Chain = static_cast<AMDGPUWorkChain *>(Async->Queue);
  // Not complete and no queue stopped: still running. Otherwise
  // synchronize() finishes the chain (its wait sees the stopped queue at
  // once) and reports how it ended.
  if (!Chain->empty() && !Chain->Failure &&
      API.hsa_signal_load_scacquire(Chain->Tail) >= 1 && !Queues.stopped()) {
    Done = false;
    return Status::ok();
  }
  return synchronize(Async);
}

Status AMDGPUDevice::timeoutError(const std::string &What) const {
  return Status::error(
      "%s: %s did not complete within %llu ms (%s): it is still running "
      "or hung; giving up",
      deviceText().c_str(), What.c_str(),
      static_cast<unsigned long long>(Timeout.Milliseconds),
      KernelTimeoutVariable);
}

std::string AMDGPUDevice::pendingWork(const AMDGPUWorkChain &Chain) {
  if (!Chain.KernelsSinceWait)
    return Chain.LastWork;
  std::string Which = "kernel '" + Chain.LastKernel + "'";
  if (Chain.KernelsSinceWait > 1)
    Which += " (the last of " + std::to_string(Chain.KernelsSinceWait) +
             " kernels queued on its async info)";
  return Which;
}

Status AMDGPUDevice::chainStopped(const AMDGPUWorkChain &Chain) const {
  QueueFault Fault;
  if (!Queues.fault(Fault))
    return Status::ok();
  std::string Reported = Runtime.statusString(Fault.Status);
  if (Chain.KernelsSinceWait && Fault.Queue == Chain.Queue)
    return Status::error("%s: kernel '%s' failed: the HSA queue reported %s",
                         deviceText().c_str(), Fault.Kernel.c_str(),
                         Reported.c_str());
  return Status::error("%s: %s failed: the HSA queue stopped after kernel "
                       "'%s': %s",
                       deviceText().c_str(), pendingWork(Chain).c_str(),
                       Fault.Kernel.c_str(), Reported.c_str());
}

Status AMDGPUDevice::waitForChain(const AMDGPUWorkChain &Chain) {
  if (Chain.empty())
    return Status::ok();
  WaitDeadline Deadline(Timeout);
  // Blocking waits of at most 10 ms: a change of the signal ends a wait
  // at once, and between them the queues' state and the deadline are
  // looked at, so neither is noticed more than 10 ms late.
  uint64_t Slice = TimestampFrequency / 100;
  for (;;) {
    if (API.hsa_signal_wait_scacquire(Chain.Tail, HSA_SIGNAL_CONDITION_LT, 1,
                                      Slice, HSA_WAIT_STATE_BLOCKED) < 1)
      return Status::ok();
    if (Status S = chainStopped(Chain))
      return S;
    if (Deadline.passed())
      return timeoutError(pendingWork(Chain));
  }
}

Status AMDGPUDevice::drain(AMDGPUWorkChain &Chain) {
  if (Chain.Failure)
    return Chain.Failure;
  Status Waited = waitForChain(Chain);
  // The kernels' output is out, and a STOP or exit ends the program,
  // before their completion or failure is reported.
  if (Chain.KernelsSinceWait)
    HostService.kernelsCompleted(Chain.KernelsSinceWait, bool(Waited));
  if (Waited) {
    Chain.Failure =
        Chain.KernelsSinceWait ? Heap.explain(std::move(Waited)) : Waited;
    return Chain.Failure;
  }
  for (const DeferredHostCopy &Copy : Chain.HostCopies)
    std::memcpy(Copy.Dst, Copy.Src, Copy.Size);
  Status Released = release(Chain);
  Chain.reset();
  return Released;
}

Status AMDGPUDevice::release(AMDGPUWorkChain &Chain) {
  Status First;
  auto Keep = [&](Status S) {
    if (S && !First)
      First = std::move(S);
  };
  for (void *Ptr : Chain.RuntimeAllocations)
    if (hsa_status_t S = API.hsa_amd_memory_pool_free(Ptr))
      Keep(failure("hsa_amd_memory_pool_free", S,
                   "releasing a kernel's arguments or launch environment"));
  for (void *Ptr : Chain.StagingBuffers)
    Keep(Staging->free(Ptr));
  for (void *Ptr : Chain.TransferLocks)
    Keep(Pinned.unlock(Ptr));
  SignalPool.release(Chain.Signals);
  return First;
}

AMDGPUWorkChain *AMDGPUDevice::takeChain() {
  AMDGPUWorkChain *Chain = nullptr;
  {
    Guarded<std::vector<AMDGPUWorkChain *>>::Access Free = FreeChains.lock();
    if (!Free->empty()) {
      Chain = Free->back();
      Free->pop_back();
    }
  }
  if (!Chain)
    Chain = new AMDGPUWorkChain();
  Chain->Queue = Queues.pick();
  return Chain;
}

Status AMDGPUDevice::finish(AMDGPUWorkChain *Chain) {
  Status Result = drain(*Chain);
  if (Chain->Failure) {
    delete Chain;
    return Result;
  }
  FreeChains.lock()->push_back(Chain);
  return Result;
}
