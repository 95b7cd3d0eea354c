//===- AMDGPUQueues.h - The HSA queues of one AMD GPU -----------*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A device's pool of AQL queues (LIBOMPTARGET_AMDGPU_NUM_HSA_QUEUES of
// LIBOMPTARGET_AMDGPU_HSA_QUEUE_SIZE packets). Each chain of work (one per
// __tgt_async_info, AMDGPUWorkChain.h) is given one queue, round-robin, so
// independent chains run their kernels on different queues.
//
// A dispatch is written with the barrier bit, so it starts after every
// earlier packet of its queue has completed; when the chain's previous
// operation was a copy (which the copy engines run, not the queue), a
// barrier-AND packet waiting for the copy's completion signal goes first.
//
// A kernel that faults (a memory violation, a trap) stops its queue: HSA
// never signals the dispatch's completion and reports the error only to the
// queue's error callback, on a thread of its own. The pool keeps the first
// such error with the kernel whose packet the queue stopped at, and every
// wait of the device looks at it (AMDGPUPlugin.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_PLUGINS_AMDGPU_AMDGPUQUEUES_H
#define OFFLOAD_PLUGINS_AMDGPU_AMDGPUQUEUES_H

#include "Guarded.h"
#include "HSARuntime.h"
#include "PluginInterface.h"

#include <atomic>
#include <memory>
#include <string>
#include <vector>

namespace offload {
namespace plugin {
namespace hsa {

/// The fields of a kernel dispatch packet the plugin chooses.
struct DispatchRequest {
  /// For messages and for naming the kernel of a queue error.
  const std::string *KernelName = nullptr;
  uint64_t KernelObject = 0;
  void *Kernargs = nullptr;
  uint16_t WorkgroupSize[3] = {1, 1, 1};
  uint32_t GridSize[3] = {1, 1, 1};
  uint16_t Dimensions = 1;
  uint32_t PrivateSegmentBytes = 0;
  uint32_t GroupSegmentBytes = 0;
  hsa_signal_t Completion{};
  /// Signals (at most 5) the dispatch must wait for first: a barrier-AND
  /// packet precedes it when there are any.
  std::vector<hsa_signal_t> Dependencies;
};

/// The first queue error of the device.
struct QueueFault {
  hsa_status_t Status = HSA_STATUS_SUCCESS;
  size_t Queue = 0;
  /// The kernel the queue stopped at (or the last one written to it).
  std::string Kernel;
};

class AMDGPUQueues {
public:
  /// Whether to give up waiting for room in a full queue: returns an error
  /// to give up with, or success to keep waiting.
  using KeepWaitingFn = Status (*)(void *Context, const std::string &What);

  explicit AMDGPUQueues(const HSAAPI &API) : API(API) {}
  ~AMDGPUQueues();
  AMDGPUQueues(const AMDGPUQueues &) = delete;
  AMDGPUQueues &operator=(const AMDGPUQueues &) = delete;

  /// Creates \p Count queues of \p Size packets on \p Agent. On failure the
  /// hsa_status_t is in \p Failed and the number created so far stays.
  bool create(hsa_agent_t Agent, uint32_t Count, uint32_t Size,
              hsa_status_t &Failed);

  size_t count() const { return Queues.size(); }
  uint32_t size() const { return Queues.empty() ? 0 : Queues[0]->Size; }
  /// The queue for the next chain, round-robin.
  size_t pick() { return Next.fetch_add(1) % Queues.size(); }

  /// Writes \p Request to queue \p Index (after a barrier-AND packet when
  /// it has dependencies) and rings the doorbell. While the queue is full,
  /// \p KeepWaiting(\p Context) decides whether to go on waiting.
  Status dispatch(size_t Index, const DispatchRequest &Request,
                  KeepWaitingFn KeepWaiting, void *Context);

  /// The first queue error, if a queue has stopped.
  bool fault(QueueFault &Out) const;
  bool stopped() const { return Failed.load() != HSA_STATUS_SUCCESS; }

private:
  struct Queue {
    AMDGPUQueues *Owner = nullptr;
    size_t Index = 0;
    uint32_t Size = 0;
    /// Written with the lock held.
    Guarded<hsa_queue_t *> Handle{nullptr};
    /// The kernel of each packet slot (null for barrier packets), so the
    /// error callback can name the kernel the queue stopped at.
    std::unique_ptr<std::atomic<const std::string *>[]> SlotKernels;
    std::atomic<const std::string *> LastKernel{nullptr};
  };
  using LockedQueue = Guarded<hsa_queue_t *>::Access;

  static void errorCallback(hsa_status_t Status, hsa_queue_t *Q, void *Data);
  /// Reserves the next packet slot of \p Q, waiting while it is full.
  Status reserve(Queue &Q, hsa_queue_t *Handle, const std::string &What,
                 KeepWaitingFn KeepWaiting, void *Context, uint64_t &Index);
  void writeBarrier(hsa_queue_t *Handle, uint64_t Index,
                    const std::vector<hsa_signal_t> &Dependencies);
  void writeDispatch(hsa_queue_t *Handle, uint64_t Index,
                     const DispatchRequest &Request);

  const HSAAPI &API;
  std::vector<std::unique_ptr<Queue>> Queues;
  std::atomic<size_t> Next{0};
  std::atomic<hsa_status_t> Failed{HSA_STATUS_SUCCESS};
  mutable Guarded<QueueFault> Fault;
};

} // namespace hsa
} // namespace plugin
} // namespace offload

#endif // OFFLOAD_PLUGINS_AMDGPU_AMDGPUQUEUES_H
