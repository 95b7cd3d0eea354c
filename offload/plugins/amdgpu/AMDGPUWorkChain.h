//===- AMDGPUWorkChain.h - In-order work of one async info ------*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What the AMDGPU plugin keeps for the work queued on one __tgt_async_info
// (its Queue field points to it) or for one synchronous operation: the
// operations run in the order they were queued, each waiting for the
// completion signal of the one before (copies take it as a dependency,
// dispatches a barrier-AND packet or their queue's order), so the chain is
// complete when its last signal (Tail) is.
//
// Until then the chain owns what its operations still use: their signals,
// kernel arguments, launch environments, staging buffers and host ranges
// locked for a copy, and the copies from staging buffers into pageable host
// memory that must happen once the device has written the staging buffer.
// The device releases all of it when it has waited for the chain, and
// reuses the chain and its signals (HSASignalPool) for later work.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_PLUGINS_AMDGPU_AMDGPUWORKCHAIN_H
#define OFFLOAD_PLUGINS_AMDGPU_AMDGPUWORKCHAIN_H

#include "Guarded.h"
#include "HSARuntime.h"
#include "PluginInterface.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace offload {
namespace plugin {
namespace hsa {

/// A copy the host makes once the chain is complete: from a staging
/// buffer the device wrote into the caller's pageable memory.
struct DeferredHostCopy {
  void *Dst;
  const void *Src;
  size_t Size;
};

struct AMDGPUWorkChain {
  /// The HSA queue its kernels go to (AMDGPUQueues::pick).
  size_t Queue = 0;
  /// The completion signal of the last operation; handle 0: none queued
  /// since the last wait.
  hsa_signal_t Tail{};
  /// Whether the last operation was a dispatch (then the next dispatch is
  /// ordered by its queue alone).
  bool TailIsKernel = false;
  /// Every operation's completion signal since the last wait.
  std::vector<hsa_signal_t> Signals;
  /// Memory to release: from the runtime's pools (kernel arguments,
  /// launch environments, reduction buffers) and staging buffers (from the
  /// device's staging pool).
  std::vector<void *> RuntimeAllocations, StagingBuffers;
  /// Host ranges locked for a copy (the device's locked-memory table).
  std::vector<void *> TransferLocks;
  std::vector<DeferredHostCopy> HostCopies;
  /// For errors: the kernels queued since the last wait, and the last
  /// operation ("copying 64 bytes to the device").
  std::string LastKernel;
  unsigned KernelsSinceWait = 0;
  std::string LastWork;
  /// Set when a wait for the chain failed: it is reported again, and the
  /// chain is never reused.
  Status Failure;

  bool empty() const { return Tail.handle == 0; }

  /// Whether a deferred host copy writes into [Ptr, Ptr+Size): reading or
  /// writing that memory now would see it out of order.
  bool pendingHostWrite(const void *Ptr, size_t Size) const {
    auto Begin = reinterpret_cast<uintptr_t>(Ptr);
    for (const DeferredHostCopy &C : HostCopies) {
      auto Start = reinterpret_cast<uintptr_t>(C.Dst);
      if (Begin < Start + C.Size && Start < Begin + Size)
        return true;
    }
    return false;
  }

  /// Makes \p Signal the chain's last operation.
  void append(hsa_signal_t Signal, bool IsKernel, const std::string &What) {
    Signals.push_back(Signal);
    Tail = Signal;
    TailIsKernel = IsKernel;
    LastWork = What;
  }

  /// Forgets everything after it was released (or abandoned).
  void reset() {
    Tail = hsa_signal_t{};
    TailIsKernel = false;
    Signals.clear();
    RuntimeAllocations.clear();
    StagingBuffers.clear();
    TransferLocks.clear();
    HostCopies.clear();
    LastKernel.clear();
    KernelsSinceWait = 0;
    LastWork.clear();
    Failure = Status();
  }
};

/// Completion signals for reuse: a signal goes back to the pool when its
/// chain has been waited for (so nothing will decrement it any more) and is
/// reset to 1 when taken again.
class HSASignalPool {
public:
  explicit HSASignalPool(const HSAAPI &API) : API(API) {}

  /// A signal of value 1, or the failing hsa_signal_create's status.
  hsa_status_t acquire(hsa_signal_t &Out) {
    {
      Guarded<std::vector<hsa_signal_t>>::Access Free = Signals.lock();
      if (!Free->empty()) {
        Out = Free->back();
        Free->pop_back();
        API.hsa_signal_store_screlease(Out, 1);
        return HSA_STATUS_SUCCESS;
      }
    }
    return API.hsa_signal_create(1, 0, nullptr, &Out);
  }

  void release(const std::vector<hsa_signal_t> &Done) {
    Guarded<std::vector<hsa_signal_t>>::Access Free = Signals.lock();
    Free->insert(Free->end(), Done.begin(), Done.end());
  }
  void release(hsa_signal_t Unused) {
    release(std::vector<hsa_signal_t>{Unused});
  }

private:
  const HSAAPI &API;
  Guarded<std::vector<hsa_signal_t>> Signals;
};

} // namespace hsa
} // namespace plugin
} // namespace offload

#endif // OFFLOAD_PLUGINS_AMDGPU_AMDGPUWORKCHAIN_H
