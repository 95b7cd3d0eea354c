//===- CUDADevice.h - One CUDA device ------------------------*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The device of libomptarget.rtl.cuda (CUDAPlugin.cpp says what the plugin
// does). Its members are defined by what happens there: device discovery
// and properties (CUDADeviceSetup.cpp), memory and copies (CUDAMemory.cpp),
// images and symbols (CUDAImages.cpp), kernels and launch (CUDALaunch.cpp),
// streams and the waits on them (CUDAStreams.cpp). What it does as the AMDGPU
// device does (numbering, locking, the memory pool, the grid and the launch
// line) is gpu/GPUDevice.h's.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_PLUGINS_CUDA_CUDADEVICE_H
#define OFFLOAD_PLUGINS_CUDA_CUDADEVICE_H

#include "CUDADeviceQueries.h"
#include "CUDADriver.h"
#include "Guarded.h"
#include "IndirectCallInstall.h"
#include "PluginEntryPoints.h"
#include "PluginInterface.h"
#include "gpu/AllocationReport.h"
#include "gpu/DeviceLimits.h"
#include "gpu/DeviceRuntimeDebug.h"
#include "gpu/GPUDevice.h"
#include "gpu/KernelGrid.h"
#include "gpu/KernelResources.h"
#include "gpu/SharedMemoryLimit.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace offload::plugin::cuda {

/// ELF machine number of NVIDIA cubins.
constexpr uint16_t EM_CUDA_MACHINE = 190;

struct CUDAImage : LoadedImage {
  CUmodule Module = nullptr;
  std::string Description;
};

struct CUDAKernel : GPUKernel {
  CUfunction Function = nullptr;
  uint32_t MaxThreads = 0;
  /// CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES: the kernel's static shared memory.
  uint32_t StaticShared = 0;
  /// Its registers, stack and static shared memory as the driver gives
  /// them, for LIBOMPTARGET_INFO's launch line.
  KernelResources Resources;
  /// CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES as last set: the
  /// dynamic shared memory a launch may ask for without raising it (the
  /// driver's default: 48 KiB less the static part).
  Guarded<uint32_t> DynamicSharedLimit;
};

/// Work queued on one stream that must outlive the launch: launch
/// environments and reduction buffers are freed when the stream is waited
/// for.
struct StreamRecord {
  CUstream Stream = nullptr;
  std::vector<CUdeviceptr> DeferredFrees;
  /// Sources of queued host-to-device copies of launch environments.
  std::vector<std::unique_ptr<LaunchEnvironmentLayout>> HostCopies;
  /// The kernels queued since the stream was last waited for. The driver
  /// reports a fault of one of them only at that wait (or at any later
  /// call), so this is what an error can name.
  std::string LastKernel;
  unsigned KernelsSinceWait = 0;
  /// Taken from (and returned to) the device's pool; the device's own
  /// stream is not.
  bool Pooled = false;
};

class CUDADevice final : public GPUDevice {
public:
  CUDADevice(const CUDADriver &Driver, int32_t Id, int32_t NumDevices)
      : GPUDevice(Id, NumDevices), Driver(Driver), API(Driver.api()) {}

  ~CUDADevice() override {
    // A device is destroyed only when its initialize() failed (the plugin
    // object lives until the process ends), and that failure is what the
    // user hears about: errors of this cleanup have nowhere to go.
    if (!Context)
      return;
    (void)API.cuCtxSetCurrent(Context);
    for (StreamRecord *Record : *FreeStreams.lock()) {
      (void)API.cuStreamDestroy(Record->Stream);
      delete Record;
    }
    if (CUstream Own = OwnStream.lock()->Stream)
      (void)API.cuStreamDestroy(Own);
    (void)API.cuDevicePrimaryCtxRelease(Device);
  }

  Status initialize();

  CUcontext context() const { return Context; }

  Status loadDeviceImage(const DeviceImageRef &Image,
                         LoadedImage *&Out) override;

  Status unloadDeviceImage(LoadedImage *Image) override;

  Status getKernel(LoadedImage *Image, const char *KernelName,
                   KernelHandle &Out) override;

  Status getGlobal(LoadedImage *Image, const char *GlobalName, uint64_t Size,
                   void *&DeviceAddress) override;

  void *allocate(uint64_t Size, AllocKind Kind) override;

  Status free(void *Ptr, AllocKind Kind) override;

  // Every copy is queued with cuMemcpy*Async on a stream (the async info's,
  // or the device's own, waited for). From pageable memory the driver
  // copies through a staging buffer before the call returns; from memory
  // locked with lockHostMemory the copy engine reads it directly and the
  // call returns at once, so nowait copies overlap with other work.
  Status dataSubmit(void *DevicePtr, const void *HostPtr, int64_t Size,
                    __tgt_async_info *Async) override;

  Status dataRetrieve(void *HostPtr, const void *DevicePtr, int64_t Size,
                      __tgt_async_info *Async) override;

  Status dataExchange(const void *SrcDevicePtr, GenericDevice &Dst,
                      void *DstDevicePtr, int64_t Size,
                      __tgt_async_info *Async) override;

  Status dataFill(void *DevicePtr, int Value, int64_t Size,
                  __tgt_async_info *Async) override;

  Status synchronize(__tgt_async_info *Async) override;

  Status queryAsync(__tgt_async_info *Async, bool &Done) override;

  /// For `requires unified_shared_memory` (GPUPlugin::checkRequiresFlags).
  Status checkUnifiedMemory() const;

  DeviceProperties getProperties() override;

  /// Interop objects speak CUDA's driver API: the device is a CUdevice, the
  /// context the primary context the plugin runs in, and a `targetsync`
  /// object gets a stream of its own (OpenMP's own work does not go on it).
  InteropProperties getInteropProperties() override;
  Status createInteropSync(void *&Sync) override;
  Status waitInteropSync(void *Sync) override;
  Status destroyInteropSync(void *Sync) override;

  void printInfo(FILE *Out) override;

private:
  /// "CUDA device 0 (NVIDIA H100 80GB HBM3, sm_90)"; only the number until
  /// initialize() has asked the driver for the rest.
  std::string deviceText() const override {
    std::string Text = "CUDA device " + std::to_string(Id);
    if (!Name.empty())
      Text += " (" + Name + ", sm_" + std::to_string(Major) +
              std::to_string(Minor) + ")";
    return Text;
  }

  /// "<device>: <Call> failed[ <Context>]: <driver's name and description>".
  Status failure(const char *Call, CUresult R,
                 const std::string &Context = std::string()) const {
    return Status::error("%s: %s failed%s%s: %s", deviceText().c_str(), Call,
                         Context.empty() ? "" : " ", Context.c_str(),
                         Driver.describe(R).c_str());
  }

  /// An error the driver reported while waiting for (or querying) the work
  /// of \p Record: a fault of a kernel queued there when there is one, so
  /// the message names it.
  Status streamError(const StreamRecord &Record, const std::string &What,
                     const char *Call, CUresult R) const;

  /// Sets the per-thread stack and the device heap (DeviceLimits.h) before
  /// anything runs in the context: the driver may refuse to change them
  /// later.
  Status applyLimits();

  /// The pool of device allocations (gpu/DeviceMemoryPool.h) over
  /// cuMemAlloc and cuMemFree.
  Status setUpMemoryPool();

  /// Page-locks host memory with cuMemHostRegister (an optional entry
  /// point: drivers without it refuse with a message naming it).
  Status lockWithDriver(void *Ptr, uint64_t Size, void *&DevicePtr) override;
  Status unlockWithDriver(void *Ptr) override;

  Status makeCurrent() const {
    if (CUresult R = API.cuCtxSetCurrent(Context))
      return failure("cuCtxSetCurrent", R);
    return Status::ok();
  }

  /// Fills in what the device runtime reads from the image's device
  /// environment, when the image has one (see docs/GPU.md).
  Status writeDeviceEnvironment(CUDAImage &Image);

  /// Points the image's host-service global (gpu/HostServiceDevice.h) at
  /// the device's ring, in page-locked host memory, when the image has one.
  Status attachHostService(CUDAImage &Image);

  GridLimits gridLimits(const GPUKernel &Kernel) const override;

  /// Makes the context current, opts \p Kernel in to its dynamic shared
  /// memory where it needs more than the default (reserveSharedMemory),
  /// and queues it on the stream of \p Async (or runs it, without one).
  Status launchOnDevice(GPUKernel &Kernel, void **Args, uint32_t NumArgs,
                        const KernelLaunchParams &Params, const Grid &TheGrid,
                        uint32_t DynamicShared,
                        __tgt_async_info *Async) override;

  /// Registers, shared memory and stack as cuFuncGetAttribute gives them,
  /// and the occupancy they leave (gpu/KernelResources.h).
  std::string describeResources(const GPUKernel &Kernel, const Grid &TheGrid,
                                uint64_t DynamicShared) override;

  /// A buffer a launch on \p Record's stream needs until the stream is
  /// waited for (its launch environment, its teams-reduction buffer): from
  /// the memory pool, as small launches are frequent and cuMemAlloc and
  /// cuMemFree synchronise the device. \p What names it for errors.
  Status allocateLaunchBuffer(uint64_t Bytes, const std::string &What,
                              StreamRecord &Record, CUdeviceptr &Out);

  /// The launch environment of \p Kernel, queued on \p Record's stream
  /// with its teams-reduction buffer, or null (\p LaunchEnv = 0) for a
  /// kernel without a teams reduction: the device runtime reads it only
  /// there, and a launch that needs none saves an allocation and a copy
  /// ahead of the kernel, as upstream's plugins do.
  Status writeLaunchEnvironment(const CUDAKernel &Kernel, StreamRecord &Record,
                                CUdeviceptr &LaunchEnv);

  /// What the driver says of \p Kernel's registers, stack and shared
  /// memory (each figure optional), and the limits of \p Kernel's launches.
  Status readKernelAttributes(CUDAKernel &Kernel);

  /// The multiprocessor's limits the driver gives (optional attributes),
  /// with NVIDIA's published allocation units.
  void readOccupancyLimits();

  /// Lets \p Kernel use \p DynamicBytes of dynamic shared memory: an error
  /// naming the kernel, the bytes and the limit when its static and
  /// dynamic shared memory cannot fit in a block; above the driver's
  /// default (48 KiB in all) the opt-in, cuFuncSetAttribute(
  /// CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES), as upstream's plugin
  /// does, up to the device's CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_
  /// BLOCK_OPTIN.
  Status reserveSharedMemory(CUDAKernel &Kernel, uint32_t DynamicBytes);

  /// Queues \p Kernel on \p Record's stream, after the copy of its launch
  /// environment where it has one.
  Status queueLaunch(const CUDAKernel &Kernel, void **Args, uint32_t NumArgs,
                     const Grid &TheGrid, uint32_t DynCGroupMem,
                     StreamRecord &Record);

  /// Runs \p Body with the stream of \p Async (taken from the pool on first
  /// use), or without one with the device's own stream, locked throughout:
  /// synchronous work shares that stream one host thread at a time, so
  /// nobody frees what another thread's launch still needs.
  template <typename Fn> Status withStream(__tgt_async_info *Async, Fn Body) {
    if (!Async) {
      Guarded<StreamRecord>::Access Own = OwnStream.lock();
      return Body(*Own);
    }
    if (!Async->Queue) {
      StreamRecord *Record = nullptr;
      {
        LockedStreams Free = FreeStreams.lock();
        if (!Free->empty()) {
          Record = Free->back();
          Free->pop_back();
        }
      }
      if (!Record) {
        auto Fresh = std::make_unique<StreamRecord>();
        if (CUresult R =
                API.cuStreamCreate(&Fresh->Stream, CU_STREAM_NON_BLOCKING))
          return failure("cuStreamCreate", R);
        Fresh->Pooled = true;
        Record = Fresh.release();
      }
      Async->Queue = Record;
    }
    return Body(*static_cast<StreamRecord *>(Async->Queue));
  }

  /// Queues one operation with \p Enqueue (which calls \p Call) on the
  /// stream of \p Async; without one, on the device's own stream, waiting
  /// for it. \p What describes the operation for messages.
  template <typename Fn>
  Status onStream(__tgt_async_info *Async, const char *Call, const char *What,
                  Fn Enqueue) {
    if (Status S = makeCurrent())
      return S;
    return withStream(Async, [&](StreamRecord &Record) -> Status {
      if (CUresult R = Enqueue(Record.Stream))
        return failure(Call, R, What);
      if (!Async)
        return waitAndRecycle(Record, What);
      return Status::ok();
    });
  }

  /// Waits for \p Record's stream, frees what its launches needed and, for
  /// a pooled stream, returns it to the pool. \p What describes the work
  /// for messages that cannot name a kernel. The caller has made the
  /// context current.
  Status waitAndRecycle(StreamRecord &Record, const std::string &What);

  /// Waits for \p Stream by polling, up to the configured timeout. Returns
  /// the stream's final status, or sets \p TimedOut.
  CUresult pollUntilDone(CUstream Stream, bool &TimedOut);

  /// The work of \p Record did not finish in time. Its launch environments
  /// and host copies stay allocated (the kernel may still be using them)
  /// and a pooled stream is not reused.
  Status timeoutError(const StreamRecord &Record, const std::string &What);

  const CUDADriver &Driver;
  const CUDADriverAPI &API;
  CUdevice Device = 0;
  CUcontext Context = nullptr;
  int Major = 0, Minor = 0, Multiprocessors = 0, MaxThreadsPerBlock = 0,
      MaxGridX = 0, ClockKHz = 0;
  /// Shared memory a block may have: without the opt-in (48 KiB), and with
  /// it (227 KiB on sm_90).
  int SharedPerBlock = 0, SharedPerBlockOptIn = 0;
  /// A multiprocessor's limits, for the occupancy on the launch line.
  OccupancyLimits SMLimits;
  /// The stream of synchronous work (see withStream).
  Guarded<StreamRecord> OwnStream;
  /// Pooled streams not given to an async info now.
  Guarded<std::vector<StreamRecord *>> FreeStreams;
  using LockedStreams = Guarded<std::vector<StreamRecord *>>::Access;
  Guarded<std::vector<std::unique_ptr<CUDAKernel>>> Kernels;
};

} // namespace offload::plugin::cuda

#endif // OFFLOAD_PLUGINS_CUDA_CUDADEVICE_H
