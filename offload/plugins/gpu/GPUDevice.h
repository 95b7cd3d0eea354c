//===- GPUDevice.h - What every GPU device does alike -----------*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The generic part of a CUDA or AMDGPU device, as upstream's plugins-nextgen
// GenericDeviceTy is: its numbering, the environment variables both read,
// host-memory locking, unified memory, the device memory pool, the host
// service, and the launch up to the driver: the grid (from the kernel's
// environment, the clauses and the device's limits), the dynamic shared
// memory, and LIBOMPTARGET_INFO's description of the launch. A target's
// device (cuda/CUDADevice.h, amdgpu/AMDGPUDevice.h) says what only its
// driver knows: its limits, how a kernel is queued, how memory is
// allocated and locked, and how it names itself in messages.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_PLUGINS_GPU_GPUDEVICE_H
#define OFFLOAD_PLUGINS_GPU_GPUDEVICE_H

#include "PluginDevice.h"
#include "PluginInterface.h"
#include "gpu/DeviceMemoryPool.h"
#include "gpu/GPUPlugin.h"
#include "gpu/HostServiceDevice.h"
#include "gpu/KernelGrid.h"
#include "gpu/KernelTimeout.h"
#include "gpu/LaunchKnobs.h"
#include "gpu/PinnedHostMemory.h"
#include "gpu/ZeroCopyMaps.h"

#include <cstdint>
#include <memory>
#include <string>

namespace offload {
namespace plugin {

/// What every GPU kernel handle holds; a target's kernel adds its driver's
/// handle and limits. The KernelHandle a device gives out points to this
/// part (see GPUDevice::kernelOf).
struct GPUKernel {
  std::string Name;
  KernelConfiguration Config{};
};

class GPUDevice : public PluginDevice {
public:
  GPUDevice(int32_t Id, int32_t NumDevices)
      : Id(Id), NumDevices(NumDevices), GlobalId(Id),
        NumGlobalDevices(NumDevices) {}

  Status lockHostMemory(void *HostPtr, uint64_t Size, void *&Locked) override {
    return Pinned.lock(HostPtr, Size, Locked);
  }
  Status unlockHostMemory(void *HostPtr) override {
    return Pinned.unlock(HostPtr);
  }

  /// Whether kernels can read pageable host memory (HMM, XNACK, coherent
  /// links), as the target's initialize() found.
  bool supportsUnifiedMemory() const override { return UnifiedMemory; }
  bool useZeroCopyMaps() const override {
    return UnifiedMemory && ZeroCopyMapsRequested;
  }

  void setDeviceNumbering(int32_t GlobalDeviceId,
                          int32_t NumAllDevices) override {
    GlobalId = GlobalDeviceId;
    NumGlobalDevices = NumAllDevices;
  }

  /// The grid and the dynamic shared memory (ompx_dyn_cgroup_mem plus
  /// LIBOMPTARGET_SHARED_MEMORY_SIZE, as upstream's plugins add them),
  /// then the target's launchOnDevice.
  Status launchKernel(KernelHandle Handle, void **Args, uint32_t NumArgs,
                      const KernelLaunchParams &Params,
                      __tgt_async_info *Async) override {
    GPUKernel &Kernel = kernelOf(Handle);
    Grid TheGrid{0, 0};
    if (Status S = gridFor(Kernel, Params, TheGrid))
      return S;
    return launchOnDevice(Kernel, Args, NumArgs, Params, TheGrid,
                          dynamicSharedBytes(Params), Async);
  }

  /// LIBOMPTARGET_INFO's line: the grid launchKernel gives the driver, in
  /// upstream's words, then what the kernel takes (describeResources).
  std::string describeLaunch(KernelHandle Handle,
                             const KernelLaunchParams &Params) override {
    GPUKernel &Kernel = kernelOf(Handle);
    Grid TheGrid{0, 0};
    if (Status S = gridFor(Kernel, Params, TheGrid))
      return S.message();
    return describeLaunchGrid(TheGrid, Kernel.Config) + ", " +
           describeResources(Kernel, TheGrid, dynamicSharedBytes(Params));
  }

protected:
  /// The kernel behind a handle this device gave out (getKernel sets its
  /// handle to the kernel's GPUKernel part).
  static GPUKernel &kernelOf(KernelHandle Handle) {
    return *static_cast<GPUKernel *>(Handle);
  }

  /// "CUDA device 0 (NVIDIA H100, sm_90)", "AMDGPU device 0 (gfx90a)": how
  /// messages name the device.
  virtual std::string deviceText() const = 0;

  /// The device's and \p Kernel's limits on a launch's grid.
  virtual GridLimits gridLimits(const GPUKernel &Kernel) const = 0;

  /// Queues \p Kernel with \p TheGrid and \p DynamicShared bytes of dynamic
  /// shared memory on \p Async's queue (or runs it, without one).
  virtual Status launchOnDevice(GPUKernel &Kernel, void **Args,
                                uint32_t NumArgs,
                                const KernelLaunchParams &Params,
                                const Grid &TheGrid, uint32_t DynamicShared,
                                __tgt_async_info *Async) = 0;

  /// What follows the grid on LIBOMPTARGET_INFO's launch line: the
  /// kernel's registers, shared memory and stack, and its occupancy where
  /// the target computes one.
  virtual std::string describeResources(const GPUKernel &Kernel,
                                        const Grid &TheGrid,
                                        uint64_t DynamicShared) = 0;

  /// Page-locks host memory with the driver, and unlocks it
  /// (PinnedHostMemory counts the locks of each range).
  virtual Status lockWithDriver(void *Ptr, uint64_t Size, void *&DevicePtr) = 0;
  virtual Status unlockWithDriver(void *Ptr) = 0;

  /// The launch's grid: what the kernel's environment and \p Params ask
  /// for, within gridLimits and the user's launch variables.
  Status gridFor(const GPUKernel &Kernel, const KernelLaunchParams &Params,
                 Grid &Out) const {
    return chooseGridWithin(gridLimits(Kernel), Knobs, Kernel.Config, Params,
                            deviceText(), Kernel.Name, Out);
  }

  uint32_t dynamicSharedBytes(const KernelLaunchParams &Params) const {
    return Params.DynCGroupMem + Knobs.SharedMemoryBytes;
  }

  /// The first error of the variables every GPU device reads
  /// (LIBOMPTARGET_KERNEL_TIMEOUT_MS, the launch variables), naming the
  /// device; ok when there is none.
  Status checkEnvironment() const {
    for (const std::string *Error : {&Timeout.Error, &Knobs.Error})
      if (!Error->empty())
        return Status::error("%s: %s", deviceText().c_str(), Error->c_str());
    return Status::ok();
  }

  /// The driver's allocation for the device memory pool: \p Bytes (the
  /// pool's block for a request of \p Requested) or null, with the error,
  /// whose context \p For says what the memory was for.
  using PoolAllocateFn = std::function<void *(
      uint64_t Bytes, const std::string &For, Status &Error)>;

  /// Sets Pool up over \p Allocate and \p Free, with the threshold of
  /// LIBOMPTARGET_MEMORY_MANAGER_THRESHOLD (gpu/DeviceMemoryPool.h).
  Status createMemoryPool(PoolAllocateFn Allocate,
                          DeviceMemoryPool::FreeFn Free) {
    MemoryPoolThreshold Threshold = memoryPoolThresholdFromEnvironment();
    if (!Threshold.Error.empty())
      return Status::error("%s: %s", deviceText().c_str(),
                           Threshold.Error.c_str());
    auto ForRequest = [Allocate](uint64_t Bytes, uint64_t Requested,
                                 Status &Error) {
      std::string For =
          "for " + std::to_string(Requested) + " bytes of device memory";
      if (Bytes != Requested)
        For += " (a " + std::to_string(Bytes) +
               "-byte block of the device memory pool)";
      return Allocate(Bytes, For, Error);
    };
    Pool = std::make_unique<DeviceMemoryPool>(Threshold.Bytes, ForRequest,
                                              std::move(Free));
    return Status::ok();
  }

  int32_t Id;
  int32_t NumDevices;
  /// The device's number among all devices of the process, and their count.
  int32_t GlobalId, NumGlobalDevices;
  /// The device's name, as the driver gives it; empty until initialize()
  /// has asked.
  std::string Name;
  bool UnifiedMemory = false;
  const bool ZeroCopyMapsRequested = zeroCopyMapsRequested();
  const KernelTimeout Timeout = kernelTimeoutFromEnvironment();
  const LaunchKnobs Knobs = launchKnobsFromEnvironment();
  /// Requests from the device (gpu/HostServiceDevice.h).
  DeviceHostService HostService;
  /// Device allocations (AllocKind::Device); set by createMemoryPool.
  std::unique_ptr<DeviceMemoryPool> Pool;
  /// Host memory locked through lockHostMemory.
  PinnedHostMemory Pinned{[this](void *Ptr, uint64_t Size, void *&DevicePtr) {
                            return lockWithDriver(Ptr, Size, DevicePtr);
                          },
                          [this](void *Ptr) { return unlockWithDriver(Ptr); }};
};

} // namespace plugin
} // namespace offload

#endif // OFFLOAD_PLUGINS_GPU_GPUDEVICE_H
