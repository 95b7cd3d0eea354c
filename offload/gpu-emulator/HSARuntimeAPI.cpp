//===- HSARuntimeAPI.cpp - The emulated libhsa-runtime64.so.1 -------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The HSA entry points our AMDGPU plugin calls (offload/plugins/amdgpu/
// HSARuntime.h) for agents and memory, with the public API's signatures
// and exported names; signals, queues and executables are in HSASignals,
// HSAQueues and HSAExecutables.cpp. There is a CPU agent and one GPU agent,
// reported as a gfx90a with 64-lane wavefronts. The GPU's coarse-grained
// pool is the emulator's device memory (a range apart from host pointers);
// the CPU's fine-grained pool, which is also the kernarg pool, is host
// memory the emulator keeps track of. Copies must name memory of these
// kinds on both sides, as a host pointer used as a device pointer fails on
// a GPU. A copy starts once its dependency signals have completed (below 1),
// and then runs on the copy engine, a host thread of its own, in the order
// copies became ready: as in ROCr, copies are ordered only by their
// dependencies, so a copy waiting for a kernel holds up no other copy.
//
//===----------------------------------------------------------------------===//

#include "DeviceMemory.h"
#include "MemoryShadow.h"
#include "HSATypes.h"
#include "Streams.h"
#include "Trace.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>
#include <map>
#include <vector>

using namespace gpuemu;
using namespace gpuemu::hsa;

#define HSA_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

struct Agent {
  const char *Name;
  int Type;
};
const Agent CPUAgent{"GPU emulator host CPU", HSA_DEVICE_TYPE_CPU};
const Agent GPUAgent{"gfx90a", HSA_DEVICE_TYPE_GPU};

struct Pool {
  const Agent *Owner;
  uint32_t Flags;
};
const Pool DevicePool{&GPUAgent,
                      HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED};
const Pool HostPool{&CPUAgent,
                    HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED |
                        HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT};

constexpr uint32_t ComputeUnits = 4;
constexpr size_t HostAlignment = 4096;

/// Fine-grained host allocations and page-locked user memory (which the
/// GPU may access too, but the pool does not own), by start address.
struct HostAllocations {
  std::mutex Lock;
  std::map<uintptr_t, size_t> Ranges, Locked;
};
HostAllocations &hostAllocations() {
  static auto *A = new HostAllocations(); // used until exit
  return *A;
}

/// The copy engine: one host thread running copies in order.
Stream &copyEngine() {
  static auto *S = new Stream();
  return *S;
}

bool Initialized = false;

/// Runs \p Start once every signal of \p Waits has completed, one after the
/// other, in the thread that completes the last of them (or now).
void startWhenReady(std::vector<hsa_signal_t> Waits,
                    std::function<void()> Start) {
  if (Waits.empty())
    return Start();
  hsa_signal_t First = Waits.back();
  Waits.pop_back();
  Signal::of(First)->whenBelowOne(
      [Waits = std::move(Waits), Start = std::move(Start)]() mutable {
        startWhenReady(std::move(Waits), std::move(Start));
      });
}

template <typename T> hsa_status_t put(void *Value, T V) {
  std::memcpy(Value, &V, sizeof(V));
  return HSA_STATUS_SUCCESS;
}

const Agent *agentOf(hsa_agent_t A) {
  auto *P = reinterpret_cast<const Agent *>(A.handle);
  return P == &CPUAgent || P == &GPUAgent ? P : nullptr;
}

const Pool *poolOf(hsa_amd_memory_pool_t P) {
  auto *Ptr = reinterpret_cast<const Pool *>(P.handle);
  return Ptr == &DevicePool || Ptr == &HostPool ? Ptr : nullptr;
}

hsa_status_t gpuInfo(int Attribute, void *Value) {
  switch (Attribute) {
  case HSA_AGENT_INFO_WAVEFRONT_SIZE:
    return put<uint32_t>(Value, 64);
  case HSA_AGENT_INFO_WORKGROUP_MAX_SIZE:
    return put<uint32_t>(Value, 1024);
  case HSA_AGENT_INFO_WORKGROUP_MAX_DIM: {
    const uint16_t Dims[3] = {1024, 1024, 1024};
    std::memcpy(Value, Dims, sizeof(Dims));
    return HSA_STATUS_SUCCESS;
  }
  case HSA_AGENT_INFO_GRID_MAX_DIM: {
    const uint32_t Dims[3] = {UINT32_MAX, UINT32_MAX, UINT32_MAX};
    std::memcpy(Value, Dims, sizeof(Dims));
    return HSA_STATUS_SUCCESS;
  }
  case HSA_AGENT_INFO_GRID_MAX_SIZE:
    return put<uint32_t>(Value, UINT32_MAX);
  case HSA_AGENT_INFO_QUEUES_MAX:
    return put<uint32_t>(Value, 128);
  case HSA_AGENT_INFO_QUEUE_MIN_SIZE:
    return put<uint32_t>(Value, 64);
  case HSA_AGENT_INFO_QUEUE_MAX_SIZE:
    return put<uint32_t>(Value, 4096);
  case HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT:
    return put<uint32_t>(Value, ComputeUnits);
  default:
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
}

/// Why a copy's side \p Ptr is refused, printed as the GPU's memory
/// fault would be.
bool checkCopySide(const void *Ptr, size_t Size, const char *Side) {
  if (isAgentMemory(Ptr, Size))
    return true;
  fprintf(stderr,
          "gpu-emulator: hsa_amd_memory_async_copy: the %s %p (%zu bytes) is "
          "neither device memory nor memory of a host pool\n",
          Side, Ptr, Size);
  return false;
}

/// Whether [P, P+Bytes) lies in one range of \p Ranges.
bool inside(const std::map<uintptr_t, size_t> &Ranges, uintptr_t P,
            size_t Bytes) {
  auto It = Ranges.upper_bound(P);
  if (It == Ranges.begin())
    return false;
  --It;
  return P + Bytes <= It->first + It->second;
}

} // namespace

bool gpuemu::hsa::isAgentMemory(const void *Ptr, size_t Bytes) {
  if (DeviceMemory::get().isDevice(Ptr, Bytes))
    return true;
  HostAllocations &H = hostAllocations();
  std::lock_guard<std::mutex> Guard(H.Lock);
  auto P = reinterpret_cast<uintptr_t>(Ptr);
  return inside(H.Ranges, P, Bytes) || inside(H.Locked, P, Bytes);
}

HSA_EXPORT hsa_status_t hsa_init() {
  Initialized = true;
  return HSA_STATUS_SUCCESS;
}

HSA_EXPORT hsa_status_t hsa_shut_down() {
  if (!Initialized)
    return HSA_STATUS_ERROR_NOT_INITIALIZED;
  return HSA_STATUS_SUCCESS;
}

HSA_EXPORT hsa_status_t hsa_status_string(hsa_status_t Status,
                                          const char **Text) {
  static const std::map<hsa_status_t, const char *> Texts = {
      {HSA_STATUS_SUCCESS, "HSA_STATUS_SUCCESS: The function has been "
                           "executed successfully."},
      {HSA_STATUS_ERROR_INVALID_ARGUMENT,
       "HSA_STATUS_ERROR_INVALID_ARGUMENT: One of the actual arguments does "
       "not meet a precondition stated in the documentation of the "
       "corresponding formal argument."},
      {HSA_STATUS_ERROR_INVALID_ALLOCATION,
       "HSA_STATUS_ERROR_INVALID_ALLOCATION: The memory is not allocated."},
      {HSA_STATUS_ERROR_OUT_OF_RESOURCES,
       "HSA_STATUS_ERROR_OUT_OF_RESOURCES: The runtime failed to allocate "
       "the necessary resources."},
      {HSA_STATUS_ERROR_INVALID_CODE_OBJECT,
       "HSA_STATUS_ERROR_INVALID_CODE_OBJECT: The code object is invalid."},
      {HSA_STATUS_ERROR_INVALID_SYMBOL_NAME,
       "HSA_STATUS_ERROR_INVALID_SYMBOL_NAME: There is no symbol with the "
       "given name."},
      {HSA_STATUS_ERROR_EXCEPTION,
       "HSA_STATUS_ERROR_EXCEPTION: An HSAIL operation resulted in a "
       "hardware exception."},
      {HSA_STATUS_ERROR_INVALID_PACKET_FORMAT,
       "HSA_STATUS_ERROR_INVALID_PACKET_FORMAT: The packet format is "
       "invalid."},
  };
  auto It = Texts.find(Status);
  if (!Text || It == Texts.end())
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  *Text = It->second;
  return HSA_STATUS_SUCCESS;
}

HSA_EXPORT hsa_status_t hsa_system_get_info(int Attribute, void *Value) {
  if (Attribute == HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY)
    return put<uint64_t>(Value, 1000000000); // nanoseconds
  if (Attribute == HSA_SYSTEM_INFO_TIMESTAMP) {
    timespec Now;
    clock_gettime(CLOCK_MONOTONIC, &Now);
    return put<uint64_t>(Value, uint64_t(Now.tv_sec) * 1000000000u +
                                    uint64_t(Now.tv_nsec));
  }
  // Kernels run on the CPU and read any host memory, pageable included:
  // what HMM (shared virtual memory) with XNACK gives a real GPU, so
  // `requires unified_shared_memory` programs run (the CUDA driver says
  // the same through its attributes).
  if (Attribute == HSA_AMD_SYSTEM_INFO_SVM_SUPPORTED ||
      Attribute == HSA_AMD_SYSTEM_INFO_XNACK_ENABLED)
    return put<bool>(Value, true);
  return HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

HSA_EXPORT hsa_status_t hsa_iterate_agents(hsa_agent_callback_t Callback,
                                           void *Data) {
  if (!Initialized)
    return HSA_STATUS_ERROR_NOT_INITIALIZED;
  for (const Agent *A : {&CPUAgent, &GPUAgent})
    if (hsa_status_t S = Callback({reinterpret_cast<uint64_t>(A)}, Data))
      return S;
  return HSA_STATUS_SUCCESS;
}

HSA_EXPORT hsa_status_t hsa_agent_get_info(hsa_agent_t Handle, int Attribute,
                                           void *Value) {
  const Agent *A = agentOf(Handle);
  if (!A)
    return HSA_STATUS_ERROR_INVALID_AGENT;
  switch (Attribute) {
  case HSA_AGENT_INFO_NAME:
  case HSA_AGENT_INFO_VENDOR_NAME: {
    char Name[64] = {0};
    std::strncpy(Name, Attribute == HSA_AGENT_INFO_NAME ? A->Name : "AMD",
                 sizeof(Name) - 1);
    std::memcpy(Value, Name, sizeof(Name));
    return HSA_STATUS_SUCCESS;
  }
  case HSA_AGENT_INFO_DEVICE:
    return put<int>(Value, A->Type);
  default:
    return A == &GPUAgent ? gpuInfo(Attribute, Value)
                          : HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
}

HSA_EXPORT hsa_status_t hsa_amd_agent_iterate_memory_pools(
    hsa_agent_t Handle, hsa_pool_callback_t Callback, void *Data) {
  const Agent *A = agentOf(Handle);
  if (!A)
    return HSA_STATUS_ERROR_INVALID_AGENT;
  const Pool *P = A == &GPUAgent ? &DevicePool : &HostPool;
  return Callback({reinterpret_cast<uint64_t>(P)}, Data);
}

HSA_EXPORT hsa_status_t hsa_amd_memory_pool_get_info(
    hsa_amd_memory_pool_t Handle, int Attribute, void *Value) {
  const Pool *P = poolOf(Handle);
  if (!P)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  switch (Attribute) {
  case HSA_AMD_MEMORY_POOL_INFO_SEGMENT:
    return put<int>(Value, HSA_AMD_SEGMENT_GLOBAL);
  case HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS:
    return put<uint32_t>(Value, P->Flags);
  case HSA_AMD_MEMORY_POOL_INFO_SIZE:
    return put<size_t>(Value, P == &DevicePool ? DeviceMemory::get().capacity()
                                               : size_t(64) << 30);
  case HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED:
  case HSA_AMD_MEMORY_POOL_INFO_ACCESSIBLE_BY_ALL:
    return put<bool>(Value, true);
  case HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_GRANULE:
  case HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALIGNMENT:
    return put<size_t>(Value, HostAlignment);
  default:
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
}

HSA_EXPORT hsa_status_t hsa_amd_memory_pool_allocate(
    hsa_amd_memory_pool_t Handle, size_t Size, uint32_t, void **Out) {
  const Pool *P = poolOf(Handle);
  if (!P || !Out || Size == 0)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (P == &DevicePool) {
    *Out = DeviceMemory::get().allocate(Size);
    return *Out ? HSA_STATUS_SUCCESS : HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  size_t Rounded = (Size + HostAlignment - 1) / HostAlignment * HostAlignment;
  *Out = std::aligned_alloc(HostAlignment, Rounded);
  if (!*Out)
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  HostAllocations &H = hostAllocations();
  std::lock_guard<std::mutex> Guard(H.Lock);
  H.Ranges[reinterpret_cast<uintptr_t>(*Out)] = Size;
  return HSA_STATUS_SUCCESS;
}

HSA_EXPORT hsa_status_t hsa_amd_memory_pool_free(void *Ptr) {
  if (DeviceMemory::get().free(Ptr))
    return HSA_STATUS_SUCCESS;
  HostAllocations &H = hostAllocations();
  std::lock_guard<std::mutex> Guard(H.Lock);
  if (!H.Ranges.erase(reinterpret_cast<uintptr_t>(Ptr)))
    return HSA_STATUS_ERROR_INVALID_ALLOCATION;
  std::free(Ptr);
  return HSA_STATUS_SUCCESS;
}

HSA_EXPORT hsa_status_t hsa_amd_agents_allow_access(uint32_t Count,
                                                    const hsa_agent_t *Agents,
                                                    const uint32_t *,
                                                    const void *Ptr) {
  for (uint32_t I = 0; I < Count; ++I)
    if (!agentOf(Agents[I]))
      return HSA_STATUS_ERROR_INVALID_AGENT;
  return isAgentMemory(Ptr, 1) ? HSA_STATUS_SUCCESS
                               : HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

HSA_EXPORT hsa_status_t hsa_amd_memory_fill(void *Ptr, uint32_t Value,
                                            size_t Count) {
  if (!isAgentMemory(Ptr, Count * 4))
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  auto *Words = static_cast<uint32_t *>(Ptr);
  for (size_t I = 0; I < Count; ++I)
    Words[I] = Value;
  if (MemoryShadow *Shadow = MemoryShadow::get())
    Shadow->written(Ptr, Count * 4);
  return HSA_STATUS_SUCCESS;
}

HSA_EXPORT hsa_status_t hsa_amd_memory_async_copy(
    void *Dst, hsa_agent_t DstAgent, const void *Src, hsa_agent_t SrcAgent,
    size_t Size, uint32_t NumDependencies, const hsa_signal_t *Dependencies,
    hsa_signal_t Completion) {
  if (!agentOf(DstAgent) || !agentOf(SrcAgent))
    return HSA_STATUS_ERROR_INVALID_AGENT;
  if (!checkCopySide(Dst, Size, "destination") ||
      !checkCopySide(Src, Size, "source"))
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  for (uint32_t I = 0; I < NumDependencies; ++I)
    if (!Dependencies[I].handle)
      return HSA_STATUS_ERROR_INVALID_SIGNAL;
  traceCopy(Dst, Src, Size);
  std::vector<hsa_signal_t> Waits(Dependencies, Dependencies + NumDependencies);
  startWhenReady(std::move(Waits), [=]() {
    copyEngine().enqueue([=]() {
      std::memmove(Dst, Src, Size);
      if (MemoryShadow *Shadow = MemoryShadow::get())
        Shadow->copied(Dst, Src, Size);
      if (Completion.handle)
        Signal::of(Completion)->update(-1, /*Add=*/true);
      return 0;
    });
  });
  return HSA_STATUS_SUCCESS;
}

// Page-locking: host memory is always resident here; a locked range becomes
// memory copies may name, under its own address (the agent pointer).
HSA_EXPORT hsa_status_t hsa_amd_memory_lock(void *Ptr, size_t Size,
                                            hsa_agent_t *, int,
                                            void **AgentPtr) {
  if (!Ptr || !Size || !AgentPtr)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  HostAllocations &H = hostAllocations();
  std::lock_guard<std::mutex> Guard(H.Lock);
  H.Locked[reinterpret_cast<uintptr_t>(Ptr)] = Size;
  *AgentPtr = Ptr;
  return HSA_STATUS_SUCCESS;
}

HSA_EXPORT hsa_status_t hsa_amd_memory_unlock(void *Ptr) {
  HostAllocations &H = hostAllocations();
  std::lock_guard<std::mutex> Guard(H.Lock);
  return H.Locked.erase(reinterpret_cast<uintptr_t>(Ptr))
             ? HSA_STATUS_SUCCESS
             : HSA_STATUS_ERROR_INVALID_ALLOCATION;
}
