//===- CUDALaunch.cpp - Kernel launches on a CUDA device ------------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The grid of a launch, its launch environment, and the launch on a
// stream.
//
//===----------------------------------------------------------------------===//

#include "CUDADevice.h"

using namespace offload::plugin;
using namespace offload::plugin::cuda;

Status CUDADevice::launchOnDevice(GPUKernel &Generic, void **Args,
                                  uint32_t NumArgs, const KernelLaunchParams &,
                                  const Grid &TheGrid, uint32_t DynamicShared,
                                  __tgt_async_info *Async) {
  auto &Kernel = static_cast<CUDAKernel &>(Generic);
  if (Status S = makeCurrent())
    return S;
  if (Status S = reserveSharedMemory(Kernel, DynamicShared))
    return S;
  return withStream(Async, [&](StreamRecord &Record) -> Status {
    if (Status S =
            queueLaunch(Kernel, Args, NumArgs, TheGrid, DynamicShared, Record))
      return S;
    if (!Async)
      return waitAndRecycle(Record, "running kernel '" + Kernel.Name + "'");
    return Status::ok();
  });
}

std::string CUDADevice::describeResources(const GPUKernel &Generic,
                                          const Grid &TheGrid,
                                          uint64_t DynamicShared) {
  const auto &Kernel = static_cast<const CUDAKernel &>(Generic);
  Occupancy Occ = computeOccupancy(
      SMLimits, Kernel.Resources, TheGrid.totalThreadsPerBlock(),
      Kernel.Resources.StaticShared + DynamicShared);
  return plugin::describeResources(Kernel.Resources, DynamicShared, Occ);
}

GridLimits CUDADevice::gridLimits(const GPUKernel &Generic) const {
  const auto &Kernel = static_cast<const CUDAKernel &>(Generic);
  GridLimits Limits;
  Limits.MaxThreadsPerBlock = 256;
  if (MaxThreadsPerBlock > 0 && uint32_t(MaxThreadsPerBlock) < 256)
    Limits.MaxThreadsPerBlock = uint32_t(MaxThreadsPerBlock);
  if (Kernel.MaxThreads && Kernel.MaxThreads < Limits.MaxThreadsPerBlock)
    Limits.MaxThreadsPerBlock = Kernel.MaxThreads;
  Limits.DefaultThreadsPerBlock = 128;
  Limits.MaxBlocks = MaxGridX > 0 ? uint32_t(MaxGridX) : 65535;
  Limits.DefaultBlocks =
      uint32_t(Multiprocessors > 0 ? Multiprocessors : 1) * 4;
  Limits.MaxBareThreadsPerBlock = Kernel.MaxThreads ? Kernel.MaxThreads : 1024;
  return Limits;
}

Status CUDADevice::reserveSharedMemory(CUDAKernel &Kernel,
                                       uint32_t DynamicBytes) {
  if (Status S =
          checkSharedMemory(deviceText(), Kernel.Name, Kernel.StaticShared,
                            DynamicBytes, {uint64_t(SharedPerBlockOptIn)}))
    return S;
  // Under the lock, so that two launches raising the limit at once leave
  // it at the larger of their sizes.
  Guarded<uint32_t>::Access Limit = Kernel.DynamicSharedLimit.lock();
  if (DynamicBytes <= *Limit)
    return Status::ok();
  if (!API.cuFuncSetAttribute)
    return Status::error(
        "%s: cannot launch kernel '%s' with %u bytes of dynamic shared "
        "memory: more than %u needs cuFuncSetAttribute, which the driver "
        "lacks",
        deviceText().c_str(), Kernel.Name.c_str(), DynamicBytes, *Limit);
  if (CUresult R = API.cuFuncSetAttribute(
          Kernel.Function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
          int(DynamicBytes)))
    return failure("cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)", R,
                   "letting kernel '" + Kernel.Name + "' use " +
                       std::to_string(DynamicBytes) +
                       " bytes of dynamic shared memory");
  *Limit = DynamicBytes;
  return Status::ok();
}

Status CUDADevice::allocateLaunchBuffer(uint64_t Bytes, const std::string &What,
                                        StreamRecord &Record,
                                        CUdeviceptr &Out) {
  Status Error;
  void *Ptr = Pool->allocate(Bytes, Error);
  if (!Ptr)
    return Status::error("%s (allocating %s)", Error.message().c_str(),
                         What.c_str());
  Out = reinterpret_cast<CUdeviceptr>(Ptr);
  Record.DeferredFrees.push_back(Out);
  return Status::ok();
}

Status CUDADevice::writeLaunchEnvironment(const CUDAKernel &Kernel,
                                          StreamRecord &Record,
                                          CUdeviceptr &LaunchEnv) {
  LaunchEnv = 0;
  uint64_t Bytes = reductionBufferBytes(Kernel.Config);
  if (!Bytes)
    return Status::ok();
  // Both live until the stream is waited for.
  std::string ForKernel = "for kernel '" + Kernel.Name + "'";
  if (Status S = allocateLaunchBuffer(sizeof(LaunchEnvironmentLayout),
                                      "the launch environment " + ForKernel,
                                      Record, LaunchEnv))
    return S;
  LaunchEnvironmentLayout Env{};
  CUdeviceptr Buffer = 0;
  if (Status S =
          allocateLaunchBuffer(Bytes,
                               "the " + std::to_string(Bytes) +
                                   "-byte teams-reduction buffer " + ForKernel,
                               Record, Buffer))
    return S;
  Env.ReductionBuffer = Buffer;
  // The copy is queued before the launch on the same stream, and its
  // source must stay valid until it runs: keep it in the record too.
  Record.HostCopies.push_back(std::make_unique<LaunchEnvironmentLayout>(Env));
  LaunchEnvironmentLayout *EnvCopy = Record.HostCopies.back().get();
  if (CUresult R = API.cuMemcpyHtoDAsync(LaunchEnv, EnvCopy, sizeof(*EnvCopy),
                                         Record.Stream))
    return failure("cuMemcpyHtoDAsync", R,
                   "writing the launch environment " + ForKernel);
  return Status::ok();
}

Status CUDADevice::queueLaunch(const CUDAKernel &Kernel, void **Args,
                               uint32_t NumArgs, const Grid &TheGrid,
                               uint32_t DynCGroupMem, StreamRecord &Record) {
  CUdeviceptr LaunchEnv = 0;
  if (Status S = writeLaunchEnvironment(Kernel, Record, LaunchEnv))
    return S;

  std::vector<void *> Values(NumArgs + 1);
  std::vector<void *> Pointers(NumArgs + 1);
  Values[0] = reinterpret_cast<void *>(LaunchEnv);
  for (uint32_t I = 0; I < NumArgs; ++I)
    Values[I + 1] = Args[I];
  for (uint32_t I = 0; I <= NumArgs; ++I)
    Pointers[I] = &Values[I];
  if (CUresult R = API.cuLaunchKernel(Kernel.Function, TheGrid.blocks(0),
                                      TheGrid.blocks(1), TheGrid.blocks(2),
                                      TheGrid.threads(0), TheGrid.threads(1),
                                      TheGrid.threads(2), DynCGroupMem,
                                      Record.Stream, Pointers.data(), nullptr))
    return Status::error("%s: launching kernel '%s' with %s failed: "
                         "cuLaunchKernel returned %s",
                         deviceText().c_str(), Kernel.Name.c_str(),
                         TheGrid.describe().c_str(),
                         Driver.describe(R).c_str());
  Record.LastKernel = Kernel.Name;
  HostService.kernelQueued();
  ++Record.KernelsSinceWait;
  return Status::ok();
}
