//===- AMDGPULaunch.cpp - Kernel launches on an AMD GPU -------------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The grid of a launch, its kernel arguments and launch environment, and
// the dispatch on a queue.
//
//===----------------------------------------------------------------------===//

#include "AMDGPUDevice.h"

using namespace offload::plugin;
using namespace offload::plugin::hsa;

Status AMDGPUDevice::launchOnDevice(GPUKernel &Generic, void **Args,
                                    uint32_t NumArgs,
                                    const KernelLaunchParams &Params,
                                    const Grid &TheGrid, uint32_t DynamicShared,
                                    __tgt_async_info *Async) {
  auto &Kernel = static_cast<AMDGPUKernel &>(Generic);
  // A queue stops for good at a kernel's fault: say so rather than queue
  // work that will never run.
  QueueFault Fault;
  if (Queues.fault(Fault))
    return Status::error("%s: cannot launch kernel '%s': the HSA queue "
                         "stopped earlier, after kernel '%s': %s",
                         deviceText().c_str(), Kernel.Name.c_str(),
                         Fault.Kernel.c_str(),
                         Runtime.statusString(Fault.Status).c_str());
  if (Status S = checkSharedMemory(
          deviceText(), Kernel.Name, Kernel.GroupSize, DynamicShared,
          {GroupMemoryPerWorkGroup, "LDS", "work-group"}))
    return S;
  if (AMDKnobs.KernelTrace)
    traceLaunch(Kernel, NumArgs, TheGrid, Params, DynamicShared);
  return onChain(Async, [&](AMDGPUWorkChain &Chain) {
    return queueLaunch(Kernel, Args, NumArgs, TheGrid, DynamicShared, Chain);
  });
}

std::string AMDGPUDevice::describeResources(const GPUKernel &Generic,
                                            const Grid &,
                                            uint64_t DynamicShared) {
  const auto &Kernel = static_cast<const AMDGPUKernel &>(Generic);
  return describeAMDGPUResources(Kernel.Metadata, Kernel.GroupSize,
                                 DynamicShared,
                                 std::max(Kernel.PrivateSize, StackBytes));
}

GridLimits AMDGPUDevice::gridLimits(const GPUKernel &Generic) const {
  const auto &Kernel = static_cast<const AMDGPUKernel &>(Generic);
  GridLimits Limits;
  Limits.MaxThreadsPerBlock = 256;
  if (MaxWorkgroupSize && MaxWorkgroupSize < 256)
    Limits.MaxThreadsPerBlock = MaxWorkgroupSize;
  // A dispatch larger than the kernel was compiled for is invalid, and
  // its code (link-time OpenMPOpt's state machine too) assumes the bound.
  if (Kernel.MaxFlatWorkgroupSize &&
      Kernel.MaxFlatWorkgroupSize < Limits.MaxThreadsPerBlock)
    Limits.MaxThreadsPerBlock = Kernel.MaxFlatWorkgroupSize;
  Limits.DefaultThreadsPerBlock = 256;
  Limits.MaxBlocks = UINT32_MAX / Limits.MaxThreadsPerBlock;
  // LIBOMPTARGET_AMDGPU_TEAMS_PER_CU teams per compute unit by default.
  Limits.DefaultBlocks =
      (ComputeUnits ? ComputeUnits : 1) * AMDKnobs.TeamsPerCU;
  Limits.WarpSize = WavefrontSize ? WavefrontSize : 64;
  Limits.MaxBareThreadsPerBlock = MaxWorkgroupSize ? MaxWorkgroupSize : 1024;
  if (Kernel.MaxFlatWorkgroupSize &&
      Kernel.MaxFlatWorkgroupSize < Limits.MaxBareThreadsPerBlock)
    Limits.MaxBareThreadsPerBlock = Kernel.MaxFlatWorkgroupSize;
  return Limits;
}

void AMDGPUDevice::traceLaunch(const AMDGPUKernel &Kernel, uint32_t NumArgs,
                               const Grid &TheGrid,
                               const KernelLaunchParams &Params,
                               uint32_t DynCGroupMem) {
  TracedLaunch L;
  L.DeviceId = GlobalId;
  L.Name = Kernel.Name;
  L.ExecMode = Kernel.Config.ExecMode;
  L.MaxFlatWorkgroupSize = Kernel.MaxFlatWorkgroupSize;
  L.NumArgs = NumArgs + 1;
  L.TheGrid = TheGrid;
  L.NumTeams = Params.NumTeams;
  L.ThreadLimit = Params.ThreadLimit;
  L.Tripcount = Params.Tripcount;
  // What the dispatch packet will say (queueLaunch).
  L.GroupBytes = uint64_t(Kernel.GroupSize) + DynCGroupMem;
  L.PrivateBytes = std::max(Kernel.PrivateSize, StackBytes);
  L.Metadata = Kernel.Metadata;
  std::fprintf(stderr, "%s\n", kernelTraceLine(L).c_str());
}

Status AMDGPUDevice::queueLaunch(const AMDGPUKernel &Kernel, void **Args,
                                 uint32_t NumArgs, const Grid &TheGrid,
                                 uint32_t DynCGroupMem,
                                 AMDGPUWorkChain &Chain) {
  std::string What = "kernel '" + Kernel.Name + "'";
  DispatchRequest Request;
  void *LaunchEnv = nullptr;
  if (Status S = writeLaunchEnvironment(Kernel, Chain, LaunchEnv))
    return S;
  if (Status S = writeKernargs(Kernel, Args, NumArgs, TheGrid, LaunchEnv, Chain,
                               Request.Kernargs))
    return S;
  if (!Chain.empty() && !Chain.TailIsKernel)
    Request.Dependencies.push_back(Chain.Tail);
  if (hsa_status_t S = SignalPool.acquire(Request.Completion))
    return failure("hsa_signal_create", S,
                   "for the completion of kernel '" + Kernel.Name + "'");
  Request.KernelName = &Kernel.Name;
  Request.KernelObject = Kernel.KernelObject;
  // HSA counts the grid in work-items, not work-groups.
  for (int D = 0; D < 3; ++D) {
    Request.WorkgroupSize[D] = uint16_t(TheGrid.threads(D));
    Request.GridSize[D] = TheGrid.blocks(D) * TheGrid.threads(D);
  }
  Request.Dimensions = TheGrid.dimensions();
  Request.PrivateSegmentBytes = std::max(Kernel.PrivateSize, StackBytes);
  Request.GroupSegmentBytes = Kernel.GroupSize + DynCGroupMem;
  RoomWait Wait{this, WaitDeadline(Timeout)};
  if (Status S =
          Queues.dispatch(Chain.Queue, Request, keepWaitingForRoom, &Wait)) {
    // Nothing will signal it: back to the pool.
    SignalPool.release(Request.Completion);
    return S;
  }
  Chain.append(Request.Completion, /*IsKernel=*/true, What);
  Chain.LastKernel = Kernel.Name;
  ++Chain.KernelsSinceWait;
  HostService.kernelQueued();
  return Status::ok();
}

Status AMDGPUDevice::keepWaitingForRoom(void *Context,
                                        const std::string &What) {
  auto *Wait = static_cast<RoomWait *>(Context);
  QueueFault Fault;
  if (Wait->Self->Queues.fault(Fault))
    return Status::error(
        "%s: queueing %s failed: the HSA queue stopped "
        "after kernel '%s': %s",
        Wait->Self->deviceText().c_str(), What.c_str(), Fault.Kernel.c_str(),
        Wait->Self->Runtime.statusString(Fault.Status).c_str());
  if (Wait->Deadline.passed())
    return Wait->Self->timeoutError("queueing " + What);
  // The GPU frees a slot when a packet completes: leave the host's cores
  // to the program meanwhile.
  std::this_thread::sleep_for(std::chrono::microseconds(50));
  return Status::ok();
}

Status AMDGPUDevice::writeLaunchEnvironment(const AMDGPUKernel &Kernel,
                                            AMDGPUWorkChain &Chain,
                                            void *&LaunchEnv) {
  LaunchEnv = nullptr;
  uint64_t Bytes = reductionBufferBytes(Kernel.Config);
  if (!Bytes)
    return Status::ok();
  std::string ForKernel = "for kernel '" + Kernel.Name + "'";
  // Both are the chain's until it completes.
  auto AllocateForChain = [&](uint64_t Size, const char *What, void *&Ptr) {
    Status Error;
    Ptr = allocateOrExplain(Size, AllocKind::Device, Error);
    if (!Ptr)
      return Status::error("%s (%s %s)", Error.message().c_str(), What,
                           ForKernel.c_str());
    Chain.RuntimeAllocations.push_back(Ptr);
    return Status::ok();
  };
  void *Buffer = nullptr;
  if (Status S = AllocateForChain(Bytes, "the teams-reduction buffer", Buffer))
    return S;
  LaunchEnvironmentLayout Env{};
  Env.ReductionBuffer = reinterpret_cast<uint64_t>(Buffer);
  if (Status S =
          AllocateForChain(sizeof(Env), "the launch environment", LaunchEnv))
    return S;
  std::string What = "writing the launch environment " + ForKernel;
  void *Staging = nullptr;
  if (Status S = stage(Chain, sizeof(Env), What, Staging))
    return S;
  std::memcpy(Staging, &Env, sizeof(Env));
  return queueCopy(Chain, LaunchEnv, Agent, Staging, HostAgent, sizeof(Env),
                   What);
}

Status AMDGPUDevice::writeKernargs(const AMDGPUKernel &Kernel, void **Args,
                                   uint32_t NumArgs, const Grid &TheGrid,
                                   void *LaunchEnv, AMDGPUWorkChain &Chain,
                                   void *&Kernargs) {
  std::string ForKernel = "for kernel '" + Kernel.Name + "'";
  uint32_t Explicit = (NumArgs + 1) * 8;
  uint32_t KernargBytes = Kernel.KernargSize;
  if (KernargBytes < Explicit + ImplicitArgBytes)
    KernargBytes = Explicit + ImplicitArgBytes;
  if (hsa_status_t S = API.hsa_amd_memory_pool_allocate(
          KernargPool, KernargBytes, 0, &Kernargs))
    return failure("hsa_amd_memory_pool_allocate", S,
                   "allocating the arguments " + ForKernel);
  Chain.RuntimeAllocations.push_back(Kernargs);
  if (hsa_status_t S =
          API.hsa_amd_agents_allow_access(1, &Agent, nullptr, Kernargs))
    return failure("hsa_amd_agents_allow_access", S,
                   "for the arguments " + ForKernel);
  std::memset(Kernargs, 0, KernargBytes);
  auto *Words = static_cast<uint64_t *>(Kernargs);
  Words[0] = reinterpret_cast<uint64_t>(LaunchEnv);
  for (uint32_t I = 0; I < NumArgs; ++I)
    Words[I + 1] = reinterpret_cast<uint64_t>(Args[I]);
  auto *Implicit = static_cast<uint8_t *>(Kernargs) + Explicit;
  uint32_t BlockCount[3];
  uint16_t GroupSize[3];
  for (int D = 0; D < 3; ++D) {
    BlockCount[D] = TheGrid.blocks(D);
    GroupSize[D] = uint16_t(TheGrid.threads(D));
  }
  uint16_t GridDims = TheGrid.dimensions();
  std::memcpy(Implicit + 0, BlockCount, sizeof(BlockCount));
  std::memcpy(Implicit + 12, GroupSize, sizeof(GroupSize));
  std::memcpy(Implicit + 64, &GridDims, sizeof(GridDims));
  return Status::ok();
}
