//===- AMDGPUQueues.cpp - The HSA queues of one AMD GPU -------------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "AMDGPUQueues.h"

#include <cstdint>

using namespace offload::plugin;
using namespace offload::plugin::hsa;

namespace {

/// The header of a packet of \p Type: barrier bit set (in order after every
/// earlier packet of the queue) and system-scope fences, so the host sees
/// what kernels wrote once the completion signal says so.
uint16_t packetHeader(int Type) {
  return uint16_t(Type << HSA_PACKET_HEADER_TYPE) |
         uint16_t(1 << HSA_PACKET_HEADER_BARRIER) |
         uint16_t(HSA_FENCE_SCOPE_SYSTEM
                  << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE) |
         uint16_t(HSA_FENCE_SCOPE_SYSTEM
                  << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE);
}

/// Makes the packet at \p Packet valid: its first 32 bits (header and the
/// next 16 bits) are written last, atomically, after the body.
void publish(void *Packet, uint16_t Header, uint16_t Rest) {
  __atomic_store_n(static_cast<uint32_t *>(Packet),
                   uint32_t(Header) | (uint32_t(Rest) << 16), __ATOMIC_RELEASE);
}

} // namespace

AMDGPUQueues::~AMDGPUQueues() {
  // Queues are destroyed only with a device whose initialize() failed (the
  // plugin lives until the process ends); that failure is what the user
  // hears about, so errors of this cleanup are dropped.
  for (auto &Q : Queues)
    if (hsa_queue_t *Handle = *Q->Handle.lock())
      (void)API.hsa_queue_destroy(Handle);
}

bool AMDGPUQueues::create(hsa_agent_t Agent, uint32_t Count, uint32_t Size,
                          hsa_status_t &Failed) {
  for (uint32_t I = 0; I < Count; ++I) {
    auto Q = std::make_unique<Queue>();
    Q->Owner = this;
    Q->Index = Queues.size();
    Q->Size = Size;
    Q->SlotKernels.reset(new std::atomic<const std::string *>[Size]);
    for (uint32_t S = 0; S < Size; ++S)
      Q->SlotKernels[S].store(nullptr);
    hsa_queue_t *Handle = nullptr;
    if (hsa_status_t S = API.hsa_queue_create(
            Agent, Size, HSA_QUEUE_TYPE_MULTIPLE, errorCallback, Q.get(),
            UINT32_MAX, UINT32_MAX, &Handle)) {
      Failed = S;
      return false;
    }
    *Q->Handle.lock() = Handle;
    Queues.push_back(std::move(Q));
  }
  return true;
}

void AMDGPUQueues::errorCallback(hsa_status_t Status, hsa_queue_t *Handle,
                                 void *Data) {
  auto *Q = static_cast<Queue *>(Data);
  AMDGPUQueues &Self = *Q->Owner;
  // The packet the queue stopped at names the kernel; a barrier packet (or
  // a runtime that moved the read index on) leaves the last kernel written.
  const std::string *Kernel = nullptr;
  if (Handle && Q->Size) {
    uint64_t Read = Self.API.hsa_queue_load_read_index_scacquire(Handle);
    Kernel = Q->SlotKernels[Read % Q->Size].load();
  }
  if (!Kernel)
    Kernel = Q->LastKernel.load();
  {
    Guarded<QueueFault>::Access Fault = Self.Fault.lock();
    if (Fault->Status != HSA_STATUS_SUCCESS)
      return;
    Fault->Status = Status;
    Fault->Queue = Q->Index;
    Fault->Kernel = Kernel ? *Kernel : std::string("(unknown)");
  }
  Self.Failed.store(Status);
}

bool AMDGPUQueues::fault(QueueFault &Out) const {
  if (Failed.load() == HSA_STATUS_SUCCESS)
    return false;
  Out = *Fault.lock();
  return true;
}

Status AMDGPUQueues::reserve(Queue &Q, hsa_queue_t *Handle,
                             const std::string &What, KeepWaitingFn KeepWaiting,
                             void *Context, uint64_t &Index) {
  Index = API.hsa_queue_add_write_index_relaxed(Handle, 1);
  // The queue is full: wait for the GPU to consume a packet, unless it has
  // stopped or the caller's deadline passed.
  while (Index - API.hsa_queue_load_read_index_scacquire(Handle) >= Q.Size)
    if (Status S = KeepWaiting(Context, What))
      return S;
  return Status::ok();
}

void AMDGPUQueues::writeBarrier(hsa_queue_t *Handle, uint64_t Index,
                                const std::vector<hsa_signal_t> &Deps) {
  auto *Packet = static_cast<hsa_barrier_and_packet_t *>(Handle->base_address) +
                 (Index % Handle->size);
  Packet->reserved0 = 0;
  Packet->reserved1 = 0;
  for (size_t I = 0; I < 5; ++I)
    Packet->dep_signal[I] = I < Deps.size() ? Deps[I] : hsa_signal_t{0};
  Packet->reserved2 = 0;
  Packet->completion_signal = hsa_signal_t{0};
  publish(Packet, packetHeader(HSA_PACKET_TYPE_BARRIER_AND), 0);
}

void AMDGPUQueues::writeDispatch(hsa_queue_t *Handle, uint64_t Index,
                                 const DispatchRequest &R) {
  auto *Packet =
      static_cast<hsa_kernel_dispatch_packet_t *>(Handle->base_address) +
      (Index % Handle->size);
  Packet->workgroup_size_x = R.WorkgroupSize[0];
  Packet->workgroup_size_y = R.WorkgroupSize[1];
  Packet->workgroup_size_z = R.WorkgroupSize[2];
  Packet->reserved0 = 0;
  Packet->grid_size_x = R.GridSize[0];
  Packet->grid_size_y = R.GridSize[1];
  Packet->grid_size_z = R.GridSize[2];
  Packet->private_segment_size = R.PrivateSegmentBytes;
  Packet->group_segment_size = R.GroupSegmentBytes;
  Packet->kernel_object = R.KernelObject;
  Packet->kernarg_address = R.Kernargs;
  Packet->reserved2 = 0;
  Packet->completion_signal = R.Completion;
  publish(
      Packet, packetHeader(HSA_PACKET_TYPE_KERNEL_DISPATCH),
      uint16_t(R.Dimensions << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS));
}

Status AMDGPUQueues::dispatch(size_t QueueIndex, const DispatchRequest &R,
                              KeepWaitingFn KeepWaiting, void *Context) {
  Queue &Q = *Queues[QueueIndex];
  std::string What = "kernel '" + *R.KernelName + "'";
  // Held throughout, so that a barrier packet and its dispatch are adjacent
  // and each packet is published before a later one rings the doorbell.
  LockedQueue Handle = Q.Handle.lock();
  uint64_t Index = 0;
  if (!R.Dependencies.empty()) {
    if (Status S = reserve(Q, *Handle, What, KeepWaiting, Context, Index))
      return S;
    Q.SlotKernels[Index % Q.Size].store(nullptr);
    writeBarrier(*Handle, Index, R.Dependencies);
    API.hsa_signal_store_screlease((*Handle)->doorbell_signal,
                                   hsa_signal_value_t(Index));
  }
  if (Status S = reserve(Q, *Handle, What, KeepWaiting, Context, Index))
    return S;
  Q.SlotKernels[Index % Q.Size].store(R.KernelName);
  Q.LastKernel.store(R.KernelName);
  writeDispatch(*Handle, Index, R);
  API.hsa_signal_store_screlease((*Handle)->doorbell_signal,
                                 hsa_signal_value_t(Index));
  return Status::ok();
}
