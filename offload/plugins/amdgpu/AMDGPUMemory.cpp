//===- AMDGPUMemory.cpp - An AMD GPU agent's memory and copies ------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Device memory, page-locked host memory, and the copies between them
// (directly, or through a staging buffer).
//
//===----------------------------------------------------------------------===//

#include "AMDGPUDevice.h"

using namespace offload::plugin;
using namespace offload::plugin::hsa;

void *AMDGPUDevice::allocate(uint64_t Size, AllocKind Kind) {
  if (Size == 0)
    return nullptr;
  Status Error;
  void *Ptr = Kind == AllocKind::Device ? Pool->allocate(Size, Error)
                                        : allocateOrExplain(Size, Kind, Error);
  if (!Ptr)
    reportAllocationFailure(Error);
  return Ptr;
}

Status AMDGPUDevice::free(void *Ptr, AllocKind Kind) {
  if (Kind == AllocKind::Device)
    return Pool->free(Ptr);
  if (hsa_status_t S = API.hsa_amd_memory_pool_free(Ptr))
    return failure("hsa_amd_memory_pool_free", S);
  return Status::ok();
}

Status AMDGPUDevice::dataSubmit(void *DevicePtr, const void *HostPtr,
                                int64_t Size, __tgt_async_info *Async) {
  if (Size <= 0)
    return Status::ok();
  std::string What = "copying " + std::to_string(Size) + " bytes to the device";
  return onChain(Async, [&](AMDGPUWorkChain &Chain) -> Status {
    // The host range is read now: an earlier copy into it comes first.
    if (Chain.pendingHostWrite(HostPtr, size_t(Size)))
      if (Status S = drain(Chain))
        return S;
    void *Source = nullptr;
    if (lockForTransfer(Chain, HostPtr, uint64_t(Size), Source))
      return queueCopy(Chain, DevicePtr, Agent, Source, HostAgent, size_t(Size),
                       What);
    void *Staging = nullptr;
    if (Status S = stage(Chain, uint64_t(Size), What, Staging))
      return S;
    std::memcpy(Staging, HostPtr, size_t(Size));
    return queueCopy(Chain, DevicePtr, Agent, Staging, HostAgent, size_t(Size),
                     What);
  });
}

Status AMDGPUDevice::dataRetrieve(void *HostPtr, const void *DevicePtr,
                                  int64_t Size, __tgt_async_info *Async) {
  if (Size <= 0)
    return Status::ok();
  std::string What =
      "copying " + std::to_string(Size) + " bytes from the device";
  return onChain(Async, [&](AMDGPUWorkChain &Chain) -> Status {
    // A direct copy lands before the chain's staged copies are copied
    // out: those into the same range go first.
    if (copiesDirectly(HostPtr, uint64_t(Size)) &&
        Chain.pendingHostWrite(HostPtr, size_t(Size)))
      if (Status S = drain(Chain))
        return S;
    void *Target = nullptr;
    if (lockForTransfer(Chain, HostPtr, uint64_t(Size), Target))
      return queueCopy(Chain, Target, HostAgent, DevicePtr, Agent, size_t(Size),
                       What);
    void *Staging = nullptr;
    if (Status S = stage(Chain, uint64_t(Size), What, Staging))
      return S;
    if (Status S = queueCopy(Chain, Staging, HostAgent, DevicePtr, Agent,
                             size_t(Size), What))
      return S;
    Chain.HostCopies.push_back({HostPtr, Staging, size_t(Size)});
    return Status::ok();
  });
}

Status AMDGPUDevice::dataExchange(const void *SrcDevicePtr, GenericDevice &Dst,
                                  void *DstDevicePtr, int64_t Size,
                                  __tgt_async_info *Async) {
  if (Size <= 0)
    return Status::ok();
  auto &Other = static_cast<AMDGPUDevice &>(Dst);
  std::string What =
      "copying " + std::to_string(Size) + " bytes to " + Other.deviceText();
  return onChain(Async, [&](AMDGPUWorkChain &Chain) {
    return queueCopy(Chain, DstDevicePtr, Other.Agent, SrcDevicePtr, Agent,
                     size_t(Size), What);
  });
}

Status AMDGPUDevice::dataFill(void *DevicePtr, int Value, int64_t Size,
                              __tgt_async_info *Async) {
  if (Size <= 0)
    return Status::ok();
  uint8_t Byte = uint8_t(Value);
  std::string What = "filling " + std::to_string(Size) + " bytes";
  bool Aligned =
      reinterpret_cast<uintptr_t>(DevicePtr) % 4 == 0 && Size % 4 == 0;
  return onChain(Async, [&](AMDGPUWorkChain &Chain) -> Status {
    // hsa_amd_memory_fill returns when the memory is filled: it runs
    // when nothing is queued before it, or (large fills, which would
    // need a large staging buffer) once the chain is complete.
    bool Large = uint64_t(Size) > AMDKnobs.MaxAsyncCopyBytes;
    if (Aligned && (Chain.empty() || Large)) {
      if (Status S = drain(Chain))
        return S;
      uint32_t Word = 0x01010101u * Byte;
      if (hsa_status_t S =
              API.hsa_amd_memory_fill(DevicePtr, Word, size_t(Size) / 4))
        return failure("hsa_amd_memory_fill", S, What);
      return Status::ok();
    }
    void *Staging = nullptr;
    if (Status S = stage(Chain, uint64_t(Size), What, Staging))
      return S;
    std::memset(Staging, Byte, size_t(Size));
    return queueCopy(Chain, DevicePtr, Agent, Staging, HostAgent, size_t(Size),
                     What);
  });
}

Status AMDGPUDevice::queueCopy(AMDGPUWorkChain &Chain, void *Dst,
                               hsa_agent_t DstAgent, const void *Src,
                               hsa_agent_t SrcAgent, size_t Size,
                               const std::string &What) {
  hsa_signal_t Signal;
  if (hsa_status_t S = SignalPool.acquire(Signal))
    return failure("hsa_signal_create", S, What);
  uint32_t Dependencies = Chain.empty() ? 0 : 1;
  if (hsa_status_t S = API.hsa_amd_memory_async_copy(
          Dst, DstAgent, Src, SrcAgent, Size, Dependencies,
          Dependencies ? &Chain.Tail : nullptr, Signal)) {
    SignalPool.release(Signal);
    return failure("hsa_amd_memory_async_copy", S, What);
  }
  Chain.append(Signal, /*IsKernel=*/false, What);
  return Status::ok();
}

Status AMDGPUDevice::stage(AMDGPUWorkChain &Chain, uint64_t Size,
                           const std::string &What, void *&Out) {
  Status Error;
  Out = Staging->allocate(Size, Error);
  if (!Out)
    return Status::error("%s (a staging buffer for %s)",
                         Error.message().c_str(), What.c_str());
  Chain.StagingBuffers.push_back(Out);
  return Status::ok();
}

bool AMDGPUDevice::copiesDirectly(const void *HostPtr, uint64_t Size) {
  void *Locked = nullptr;
  if (Pinned.isLocked(HostPtr, Size, Locked))
    return true;
  return Size > AMDKnobs.MaxAsyncCopyBytes && API.hsa_amd_memory_lock &&
         API.hsa_amd_memory_unlock;
}

bool AMDGPUDevice::lockForTransfer(AMDGPUWorkChain &Chain, const void *HostPtr,
                                   uint64_t Size, void *&AgentPtr) {
  if (!copiesDirectly(HostPtr, Size))
    return false;
  if (Pinned.lock(const_cast<void *>(HostPtr), Size, AgentPtr))
    return false;
  Chain.TransferLocks.push_back(const_cast<void *>(HostPtr));
  return true;
}

Status AMDGPUDevice::lockWithDriver(void *Ptr, uint64_t Size, void *&AgentPtr) {
  if (!API.hsa_amd_memory_lock || !API.hsa_amd_memory_unlock)
    return Status::error("%s: cannot lock host memory: the HSA runtime has "
                         "no hsa_amd_memory_lock/hsa_amd_memory_unlock",
                         deviceText().c_str());
  if (hsa_status_t S =
          API.hsa_amd_memory_lock(Ptr, size_t(Size), &Agent, 1, &AgentPtr))
    return failure("hsa_amd_memory_lock", S,
                   "locking " + std::to_string(Size) + " bytes of host memory");
  return Status::ok();
}

Status AMDGPUDevice::unlockWithDriver(void *Ptr) {
  if (hsa_status_t S = API.hsa_amd_memory_unlock(Ptr))
    return failure("hsa_amd_memory_unlock", S);
  return Status::ok();
}

void *AMDGPUDevice::allocateOrExplain(uint64_t Size, AllocKind Kind,
                                      Status &Error) {
  std::string For = "for " + std::to_string(Size) + " bytes";
  void *Ptr = nullptr;
  if (Kind == AllocKind::Device) {
    if (hsa_status_t S =
            API.hsa_amd_memory_pool_allocate(DevicePool, Size, 0, &Ptr)) {
      Error =
          failure("hsa_amd_memory_pool_allocate", S, For + " of device memory");
      return nullptr;
    }
    return Ptr;
  }
  // Host and shared memory: fine-grained host memory the GPU may access.
  if (hsa_status_t S =
          API.hsa_amd_memory_pool_allocate(HostPool, Size, 0, &Ptr)) {
    Error = failure("hsa_amd_memory_pool_allocate", S, For + " of host memory");
    return nullptr;
  }
  if (hsa_status_t S =
          API.hsa_amd_agents_allow_access(1, &Agent, nullptr, Ptr)) {
    Error = failure("hsa_amd_agents_allow_access", S, For + " of host memory");
    if (hsa_status_t F = API.hsa_amd_memory_pool_free(Ptr))
      Error = Status::error("%s (and hsa_amd_memory_pool_free failed too: "
                            "%s)",
                            Error.message().c_str(),
                            Runtime.statusString(F).c_str());
    return nullptr;
  }
  return Ptr;
}
