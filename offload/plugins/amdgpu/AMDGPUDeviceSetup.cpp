//===- AMDGPUDeviceSetup.cpp - An AMD GPU agent's setup -------------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Device discovery and properties: the agent's queues and memory pools,
// its stack size, what it reports.
//
//===----------------------------------------------------------------------===//

#include "AMDGPUDevice.h"

using namespace offload::plugin;
using namespace offload::plugin::hsa;

namespace {

struct PoolSearch {
  const HSAAPI *API;
  uint32_t WantedFlag;
  hsa_amd_memory_pool_t Found{};
  bool Ok = false;
  /// The query that failed and stopped the search, if one did.
  const char *FailedCall = nullptr;
};

hsa_status_t findPool(hsa_amd_memory_pool_t Pool, void *Data) {
  auto *Search = static_cast<PoolSearch *>(Data);
  auto Query = [&](int Attribute, void *Value, const char *Call) {
    hsa_status_t S =
        Search->API->hsa_amd_memory_pool_get_info(Pool, Attribute, Value);
    if (S)
      Search->FailedCall = Call;
    return S;
  };
  int Segment = -1;
  uint32_t Flags = 0;
  bool Allowed = false;
  // A failed query ends the iteration with its status (HSA passes it on).
  if (hsa_status_t S = Query(HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &Segment,
                             "hsa_amd_memory_pool_get_info(SEGMENT)"))
    return S;
  if (Segment != HSA_AMD_SEGMENT_GLOBAL)
    return HSA_STATUS_SUCCESS;
  if (hsa_status_t S =
          Query(HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED, &Allowed,
                "hsa_amd_memory_pool_get_info(RUNTIME_ALLOC_ALLOWED)"))
    return S;
  if (!Allowed)
    return HSA_STATUS_SUCCESS;
  if (hsa_status_t S = Query(HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &Flags,
                             "hsa_amd_memory_pool_get_info(GLOBAL_FLAGS)"))
    return S;
  if (!(Flags & Search->WantedFlag))
    return HSA_STATUS_SUCCESS;
  Search->Found = Pool;
  Search->Ok = true;
  return HSA_STATUS_INFO_BREAK;
}

} // namespace

Status AMDGPUDevice::initialize() {
  if (Status S = checkEnvironment())
    return S;
  if (!AMDKnobs.Error.empty())
    return Status::error("%s: %s", deviceText().c_str(),
                         AMDKnobs.Error.c_str());
  if (Status S = readStackSize())
    return S;
  char AgentName[64] = {0};
  if (hsa_status_t S =
          API.hsa_agent_get_info(Agent, HSA_AGENT_INFO_NAME, AgentName))
    return failure("hsa_agent_get_info(NAME)", S);
  Name = AgentName;
  // Asked once: omp_target_is_accessible and the plugin's answer to
  // `requires unified_shared_memory` use it.
  UnifiedMemory = missingForUnifiedMemory(Runtime).empty();
  struct {
    int Attribute;
    uint32_t *Value;
    const char *Call;
  } const Attributes[] = {
      {HSA_AGENT_INFO_WORKGROUP_MAX_SIZE, &MaxWorkgroupSize,
       "hsa_agent_get_info(WORKGROUP_MAX_SIZE)"},
      {HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT, &ComputeUnits,
       "hsa_agent_get_info(COMPUTE_UNIT_COUNT)"},
      {HSA_AGENT_INFO_WAVEFRONT_SIZE, &WavefrontSize,
       "hsa_agent_get_info(WAVEFRONT_SIZE)"},
  };
  for (const auto &A : Attributes)
    if (hsa_status_t S = API.hsa_agent_get_info(Agent, A.Attribute, A.Value))
      return failure(A.Call, S);
  // Signal waits take their timeout in ticks of the system timestamp.
  if (hsa_status_t S = API.hsa_system_get_info(
          HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &TimestampFrequency))
    return failure("hsa_system_get_info(TIMESTAMP_FREQUENCY)", S);
  if (TimestampFrequency == 0)
    TimestampFrequency = 1000000000;
  if (Runtime.cpuAgents().empty())
    return Status::error("%s: HSA reports no CPU agent to allocate host "
                         "memory from",
                         deviceText().c_str());
  HostAgent = Runtime.cpuAgents().front();
  if (Status S = pool(Agent, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED,
                      DevicePool, "device memory"))
    return S;
  if (Status S = pool(HostAgent, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED,
                      HostPool, "host memory"))
    return S;
  if (Status S = pool(HostAgent, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT,
                      KernargPool, "kernel arguments"))
    return S;
  if (Status S = createQueues())
    return S;
  return createMemoryPools();
}

Status AMDGPUDevice::checkUnifiedMemory() const {
  return unifiedMemoryRefusal(deviceText(), missingForUnifiedMemory(Runtime));
}

DeviceProperties AMDGPUDevice::getProperties() {
  DeviceProperties P = queryDeviceProperties(Runtime, Agent, DevicePool);
  P.Extra.push_back({"HSA queues", std::to_string(Queues.count()) + " of " +
                                       std::to_string(Queues.size()) +
                                       " packets"});
  P.Extra.push_back(
      {"Default teams", std::to_string(ComputeUnits * AMDKnobs.TeamsPerCU) +
                            " (" + std::to_string(AMDKnobs.TeamsPerCU) +
                            " per compute unit)"});
  P.Extra.push_back(
      {"Staged async copies",
       "up to " + std::to_string(AMDKnobs.MaxAsyncCopyBytes) + " bytes"});
  return P;
}

void AMDGPUDevice::printInfo(FILE *Out) {
  fprintf(Out,
          "    Device %d of %d: %s (HSA, %u compute units, %zu HSA queues "
          "of %u packets)\n",
          Id, NumDevices, Name.c_str(), ComputeUnits, Queues.count(),
          Queues.size());
}

Status AMDGPUDevice::readStackSize() {
  RequestedSize Stack = requestedSizeFromEnvironment("LIBOMPTARGET_STACK_SIZE");
  if (!Stack.Error.empty())
    return Status::error("%s: %s", deviceText().c_str(), Stack.Error.c_str());
  if (Stack.Bytes > UINT32_MAX)
    return Status::error("%s: LIBOMPTARGET_STACK_SIZE=%zu is more than a "
                         "dispatch packet can ask for",
                         deviceText().c_str(), Stack.Bytes);
  StackBytes = uint32_t(Stack.Bytes);
  return Status::ok();
}

Status AMDGPUDevice::createQueues() {
  uint32_t MaxSize = 0;
  if (hsa_status_t S = API.hsa_agent_get_info(
          Agent, HSA_AGENT_INFO_QUEUE_MAX_SIZE, &MaxSize))
    return failure("hsa_agent_get_info(QUEUE_MAX_SIZE)", S);
  uint32_t Size = hsaQueueSize(AMDKnobs.QueueSize, MaxSize);
  hsa_status_t Failed = HSA_STATUS_SUCCESS;
  if (!Queues.create(Agent, AMDKnobs.NumQueues, Size, Failed))
    return failure("hsa_queue_create", Failed,
                   "for queue " + std::to_string(Queues.count() + 1) + " of " +
                       std::to_string(AMDKnobs.NumQueues) + " (" +
                       std::to_string(Size) + " packets)");
  return Status::ok();
}

Status AMDGPUDevice::createMemoryPools() {
  auto Allocate = [this](uint64_t Bytes, const std::string &For,
                         Status &Error) -> void * {
    void *Ptr = nullptr;
    if (hsa_status_t S =
            API.hsa_amd_memory_pool_allocate(DevicePool, Bytes, 0, &Ptr)) {
      Error = failure("hsa_amd_memory_pool_allocate", S, For);
      return nullptr;
    }
    return Ptr;
  };
  auto Free = [this](void *Ptr) -> Status {
    if (hsa_status_t S = API.hsa_amd_memory_pool_free(Ptr))
      return failure("hsa_amd_memory_pool_free", S);
    return Status::ok();
  };
  if (Status S = createMemoryPool(Allocate, Free))
    return S;
  auto AllocateStaging = [this](uint64_t Bytes, uint64_t,
                                Status &Error) -> void * {
    return allocateOrExplain(Bytes, AllocKind::Host, Error);
  };
  uint64_t Kept = std::max<uint64_t>(AMDKnobs.MaxAsyncCopyBytes,
                                     DeviceMemoryPool::MinBlockBytes);
  Staging = std::make_unique<DeviceMemoryPool>(Kept, AllocateStaging, Free);
  return Status::ok();
}

Status AMDGPUDevice::pool(hsa_agent_t Owner, uint32_t Flag,
                          hsa_amd_memory_pool_t &Out, const char *What) {
  PoolSearch Search{&API, Flag};
  hsa_status_t S =
      API.hsa_amd_agent_iterate_memory_pools(Owner, findPool, &Search);
  if (S && S != HSA_STATUS_INFO_BREAK)
    return failure(Search.FailedCall ? Search.FailedCall
                                     : "hsa_amd_agent_iterate_memory_pools",
                   S, std::string("looking for the pool of ") + What);
  if (!Search.Ok)
    return Status::error("%s: HSA offers no memory pool for %s",
                         deviceText().c_str(), What);
  Out = Search.Found;
  return Status::ok();
}
