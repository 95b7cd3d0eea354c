//===- CUDAPlugin.cpp - NVIDIA GPUs through the CUDA driver API -----------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// libomptarget.rtl.cuda: one device per CUDA device, each using its primary
// context. Images are executable cubins (our wrapper's NVPTX link); kernels
// are launched with the grid chosen from the clauses and the kernel
// environment (gpu/KernelGrid.h) and a launch environment in device memory.
// Asynchronous work (nowait) goes on a CUDA stream per __tgt_async_info;
// synchronous work on the device's own stream, waited for before returning.
//
// The driver is loaded with dlopen (CUDADriver.h): without it, or without a
// device, the plugin has zero devices and says why when that matters.
//
// Every driver call is checked. A failure becomes a Status that names the
// device, the call and the driver's name and description of the error; a
// fault inside a kernel (a trap, an illegal address) surfaces only when its
// stream is waited for, so each stream remembers the kernels queued since
// its last wait and the error names them. LIBOMPTARGET_KERNEL_TIMEOUT_MS
// (gpu/KernelTimeout.h) bounds those waits.
//
//===----------------------------------------------------------------------===//

#include "CUDADeviceQueries.h"
#include "CUDADriver.h"
#include "Guarded.h"
#include "IndirectCallInstall.h"
#include "PluginDevice.h"
#include "PluginEntryPoints.h"
#include "PluginInterface.h"
#include "gpu/AllocationReport.h"
#include "gpu/DeviceLimits.h"
#include "gpu/DeviceMemoryPool.h"
#include "gpu/DeviceRuntimeDebug.h"
#include "gpu/GPUPlugin.h"
#include "gpu/HostServiceDevice.h"
#include "gpu/KernelGrid.h"
#include "gpu/KernelTimeout.h"
#include "gpu/LaunchKnobs.h"
#include "gpu/PinnedHostMemory.h"
#include "gpu/ZeroCopyMaps.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

using namespace offload::plugin;
using namespace offload::plugin::cuda;
using offload::Guarded;

namespace {

/// ELF machine number of NVIDIA cubins.
constexpr uint16_t EM_CUDA_MACHINE = 190;

struct CUDAImage : LoadedImage {
  CUmodule Module = nullptr;
  std::string Description;
};

struct CUDAKernel {
  std::string Name;
  CUfunction Function = nullptr;
  KernelConfiguration Config{};
  uint32_t MaxThreads = 0;
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

class CUDADevice final : public PluginDevice {
public:
  CUDADevice(const CUDADriver &Driver, int32_t Id, int32_t NumDevices)
      : Driver(Driver), API(Driver.api()), Id(Id), NumDevices(NumDevices),
        GlobalId(Id), NumGlobalDevices(NumDevices) {}

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

  Status initialize() {
    for (const std::string *Error : {&Timeout.Error, &Knobs.Error})
      if (!Error->empty())
        return Status::error("%s: %s", deviceText().c_str(), Error->c_str());
    if (CUresult R = API.cuDeviceGet(&Device, Id))
      return failure("cuDeviceGet", R);
    // The name and compute capability first, so that every later error
    // names the device fully.
    char NameBuffer[256] = {0};
    if (CUresult R =
            API.cuDeviceGetName(NameBuffer, sizeof(NameBuffer) - 1, Device))
      return failure("cuDeviceGetName", R);
    struct {
      int *Value;
      int Attribute;
      const char *Call;
    } const Attributes[] = {
        {&Major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
         "cuDeviceGetAttribute(COMPUTE_CAPABILITY_MAJOR)"},
        {&Minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
         "cuDeviceGetAttribute(COMPUTE_CAPABILITY_MINOR)"},
        {&Multiprocessors, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
         "cuDeviceGetAttribute(MULTIPROCESSOR_COUNT)"},
        {&MaxThreadsPerBlock, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
         "cuDeviceGetAttribute(MAX_THREADS_PER_BLOCK)"},
        {&MaxGridX, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X,
         "cuDeviceGetAttribute(MAX_GRID_DIM_X)"},
        {&ClockKHz, CU_DEVICE_ATTRIBUTE_CLOCK_RATE,
         "cuDeviceGetAttribute(CLOCK_RATE)"},
    };
    for (const auto &A : Attributes)
      if (CUresult R = API.cuDeviceGetAttribute(A.Value, A.Attribute, Device))
        return failure(A.Call, R);
    Name = NameBuffer;
    // Asked once: omp_target_is_accessible and the plugin's answer to
    // `requires unified_shared_memory` use it.
    UnifiedMemory = missingForUnifiedMemory(Driver, Device).empty();
    if (CUresult R = API.cuDevicePrimaryCtxRetain(&Context, Device))
      return failure("cuDevicePrimaryCtxRetain", R);
    if (Status S = makeCurrent())
      return S;
    if (Status S = applyLimits())
      return S;
    if (CUresult R = API.cuStreamCreate(&OwnStream.lock()->Stream,
                                        CU_STREAM_NON_BLOCKING))
      return failure("cuStreamCreate", R);
    return createMemoryPool();
  }

  CUcontext context() const { return Context; }

  Status loadDeviceImage(const DeviceImageRef &Image,
                         LoadedImage *&Out) override {
    if (Status S = makeCurrent())
      return S;
    auto Loaded = std::make_unique<CUDAImage>();
    Loaded->Description = Image.Description;
    if (CUresult R = API.cuModuleLoadDataEx(&Loaded->Module, Image.Start, 0,
                                            nullptr, nullptr))
      return Status::error("%s cannot load %s: cuModuleLoadDataEx failed: "
                           "%s%s",
                           deviceText().c_str(), Image.Description,
                           Driver.describe(R).c_str(),
                           R == CUDA_ERROR_NO_BINARY_FOR_GPU
                               ? "; rebuild with --offload-arch for this device"
                               : "");
    Status S = writeDeviceEnvironment(*Loaded);
    if (!S)
      S = attachHostService(*Loaded);
    if (S) {
      if (CUresult R = API.cuModuleUnload(Loaded->Module))
        return Status::error("%s (and cuModuleUnload failed too: %s)",
                             S.message().c_str(), Driver.describe(R).c_str());
      return S;
    }
    Out = Loaded.release();
    return Status::ok();
  }

  Status unloadDeviceImage(LoadedImage *Image) override {
    auto *Loaded = static_cast<CUDAImage *>(Image);
    if (Status S = makeCurrent())
      return S;
    CUresult R = API.cuModuleUnload(Loaded->Module);
    std::string Description = Loaded->Description;
    delete Loaded;
    return R ? failure("cuModuleUnload", R, "for " + Description)
             : Status::ok();
  }

  Status getKernel(LoadedImage *Image, const char *KernelName,
                   KernelHandle &Out) override {
    auto *Loaded = static_cast<CUDAImage *>(Image);
    if (Status S = makeCurrent())
      return S;
    auto Kernel = std::make_unique<CUDAKernel>();
    Kernel->Name = KernelName;
    if (CUresult R = API.cuModuleGetFunction(&Kernel->Function, Loaded->Module,
                                             KernelName))
      return Status::error("%s: kernel '%s' not found in %s: "
                           "cuModuleGetFunction failed: %s",
                           deviceText().c_str(), KernelName,
                           Loaded->Description.c_str(),
                           Driver.describe(R).c_str());
    // The kernel environment says how the compiler expects it to run; an
    // image without one (not OpenMP) is launched with the defaults.
    std::string EnvName = std::string(KernelName) + "_kernel_environment";
    CUdeviceptr EnvAddress = 0;
    size_t EnvSize = 0;
    CUresult Found = API.cuModuleGetGlobal(&EnvAddress, &EnvSize,
                                           Loaded->Module, EnvName.c_str());
    if (Found != CUDA_SUCCESS && Found != CUDA_ERROR_NOT_FOUND)
      return failure("cuModuleGetGlobal", Found,
                     "looking up '" + EnvName + "'");
    if (Found == CUDA_SUCCESS && EnvSize >= sizeof(KernelEnvironmentLayout)) {
      KernelEnvironmentLayout Env;
      std::string What =
          "reading the kernel environment of kernel '" + Kernel->Name + "'";
      if (Status S = onStream(nullptr, "cuMemcpyDtoHAsync", What.c_str(),
                              [&](CUstream Stream) {
                                return API.cuMemcpyDtoHAsync(
                                    &Env, EnvAddress, sizeof(Env), Stream);
                              }))
        return S;
      Kernel->Config = Env.Configuration;
    }
    int MaxThreads = 0;
    if (CUresult R = API.cuFuncGetAttribute(
            &MaxThreads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
            Kernel->Function))
      return failure("cuFuncGetAttribute(MAX_THREADS_PER_BLOCK)", R,
                     "for kernel '" + Kernel->Name + "'");
    Kernel->MaxThreads = MaxThreads > 0 ? uint32_t(MaxThreads) : 0;
    Out = Kernel.get();
    Kernels.lock()->push_back(std::move(Kernel));
    return Status::ok();
  }

  Status getGlobal(LoadedImage *Image, const char *GlobalName, uint64_t Size,
                   void *&DeviceAddress) override {
    auto *Loaded = static_cast<CUDAImage *>(Image);
    if (Status S = makeCurrent())
      return S;
    CUdeviceptr Address = 0;
    size_t Bytes = 0;
    if (CUresult R =
            API.cuModuleGetGlobal(&Address, &Bytes, Loaded->Module, GlobalName))
      return Status::error("%s: global '%s' not found in %s: "
                           "cuModuleGetGlobal failed: %s",
                           deviceText().c_str(), GlobalName,
                           Loaded->Description.c_str(),
                           Driver.describe(R).c_str());
    if (Size && Bytes != Size)
      return Status::error("global '%s' in %s has %zu bytes on the device "
                           "but %llu on the host",
                           GlobalName, Loaded->Description.c_str(), Bytes,
                           static_cast<unsigned long long>(Size));
    DeviceAddress = reinterpret_cast<void *>(Address);
    return Status::ok();
  }

  void *allocate(uint64_t Size, AllocKind Kind) override {
    if (Size == 0)
      return nullptr;
    if (Status S = makeCurrent()) {
      reportAllocationFailure(S);
      return nullptr;
    }
    const char *Call = "cuMemAlloc";
    void *Ptr = nullptr;
    CUresult R = CUDA_SUCCESS;
    switch (Kind) {
    case AllocKind::Device: {
      Status Error;
      if (void *Block = Pool->allocate(Size, Error))
        return Block;
      reportAllocationFailure(Error);
      return nullptr;
    }
    case AllocKind::Host:
      // Pinned host memory: the device reads it directly, and copies from
      // it run at full speed.
      Call = "cuMemAllocHost";
      R = API.cuMemAllocHost(&Ptr, Size);
      break;
    case AllocKind::Shared: {
      Call = "cuMemAllocManaged";
      CUdeviceptr Address = 0;
      R = API.cuMemAllocManaged(&Address, Size, CU_MEM_ATTACH_GLOBAL);
      Ptr = reinterpret_cast<void *>(Address);
      break;
    }
    }
    if (R == CUDA_SUCCESS)
      return Ptr;
    reportAllocationFailure(
        failure(Call, R, "for " + std::to_string(Size) + " bytes"));
    return nullptr;
  }

  Status free(void *Ptr, AllocKind Kind) override {
    if (Status S = makeCurrent())
      return S;
    if (Kind == AllocKind::Device)
      return Pool->free(Ptr);
    bool Host = Kind == AllocKind::Host;
    CUresult R = Host ? API.cuMemFreeHost(Ptr)
                      : API.cuMemFree(reinterpret_cast<CUdeviceptr>(Ptr));
    return R ? failure(Host ? "cuMemFreeHost" : "cuMemFree", R) : Status::ok();
  }

  Status lockHostMemory(void *HostPtr, uint64_t Size, void *&Locked) override {
    return Pinned.lock(HostPtr, Size, Locked);
  }
  Status unlockHostMemory(void *HostPtr) override {
    return Pinned.unlock(HostPtr);
  }

  // Every copy is queued with cuMemcpy*Async on a stream (the async info's,
  // or the device's own, waited for). From pageable memory the driver
  // copies through a staging buffer before the call returns; from memory
  // locked with lockHostMemory the copy engine reads it directly and the
  // call returns at once, so nowait copies overlap with other work.
  Status dataSubmit(void *DevicePtr, const void *HostPtr, int64_t Size,
                    __tgt_async_info *Async) override {
    std::string What =
        "copying " + std::to_string(Size) + " bytes to the device";
    return onStream(
        Async, "cuMemcpyHtoDAsync", What.c_str(), [&](CUstream Stream) {
          return API.cuMemcpyHtoDAsync(reinterpret_cast<CUdeviceptr>(DevicePtr),
                                       HostPtr, size_t(Size), Stream);
        });
  }

  Status dataRetrieve(void *HostPtr, const void *DevicePtr, int64_t Size,
                      __tgt_async_info *Async) override {
    std::string What =
        "copying " + std::to_string(Size) + " bytes from the device";
    return onStream(
        Async, "cuMemcpyDtoHAsync", What.c_str(), [&](CUstream Stream) {
          return API.cuMemcpyDtoHAsync(HostPtr,
                                       reinterpret_cast<CUdeviceptr>(DevicePtr),
                                       size_t(Size), Stream);
        });
  }

  Status dataExchange(const void *SrcDevicePtr, GenericDevice &Dst,
                      void *DstDevicePtr, int64_t Size,
                      __tgt_async_info *Async) override {
    auto &Other = static_cast<CUDADevice &>(Dst);
    CUdeviceptr Src = reinterpret_cast<CUdeviceptr>(SrcDevicePtr);
    CUdeviceptr To = reinterpret_cast<CUdeviceptr>(DstDevicePtr);
    bool Same = &Other == this;
    std::string What =
        "copying " + std::to_string(Size) + " bytes to " + Other.deviceText();
    return onStream(
        Async, Same ? "cuMemcpyDtoDAsync" : "cuMemcpyPeerAsync", What.c_str(),
        [&](CUstream Stream) {
          if (Same)
            return API.cuMemcpyDtoDAsync(To, Src, size_t(Size), Stream);
          return API.cuMemcpyPeerAsync(To, Other.context(), Src, Context,
                                       size_t(Size), Stream);
        });
  }

  Status dataFill(void *DevicePtr, int Value, int64_t Size,
                  __tgt_async_info *Async) override {
    std::string What = "filling " + std::to_string(Size) + " bytes";
    return onStream(
        Async, "cuMemsetD8Async", What.c_str(), [&](CUstream Stream) {
          return API.cuMemsetD8Async(reinterpret_cast<CUdeviceptr>(DevicePtr),
                                     static_cast<unsigned char>(Value),
                                     size_t(Size), Stream);
        });
  }

  Status launchKernel(KernelHandle Handle, void **Args, uint32_t NumArgs,
                      const KernelLaunchParams &Params,
                      __tgt_async_info *Async) override {
    auto *Kernel = static_cast<CUDAKernel *>(Handle);
    if (Status S = makeCurrent())
      return S;
    Grid TheGrid{0, 0};
    if (Status S = gridFor(*Kernel, Params, TheGrid))
      return S;
    // LIBOMPTARGET_SHARED_MEMORY_SIZE adds to every launch's dynamic
    // shared memory, as upstream's plugins add it.
    uint32_t Shared = Params.DynCGroupMem + Knobs.SharedMemoryBytes;
    return withStream(Async, [&](StreamRecord &Record) -> Status {
      if (Status S =
              queueLaunch(*Kernel, Args, NumArgs, TheGrid, Shared, Record))
        return S;
      if (!Async)
        return waitAndRecycle(Record, "running kernel '" + Kernel->Name + "'");
      return Status::ok();
    });
  }

  Status synchronize(__tgt_async_info *Async) override {
    if (!Async || !Async->Queue)
      return Status::ok();
    if (Status S = makeCurrent())
      return S;
    auto *Record = static_cast<StreamRecord *>(Async->Queue);
    Async->Queue = nullptr;
    return waitAndRecycle(*Record, "waiting for asynchronous work");
  }

  Status queryAsync(__tgt_async_info *Async, bool &Done) override {
    Done = true;
    if (!Async || !Async->Queue)
      return Status::ok();
    if (Status S = makeCurrent())
      return S;
    auto *Record = static_cast<StreamRecord *>(Async->Queue);
    CUresult R = API.cuStreamQuery(Record->Stream);
    if (R == CUDA_ERROR_NOT_READY) {
      Done = false;
      return Status::ok();
    }
    if (R) {
      // As in waitAndRecycle: a STOP or exit is why the kernel failed.
      HostService.kernelsCompleted(Record->KernelsSinceWait, true);
      return streamError(*Record, "querying asynchronous work", "cuStreamQuery",
                         R);
    }
    return synchronize(Async);
  }

  /// Whether kernels can read pageable host memory (HMM, coherent links).
  bool supportsUnifiedMemory() const override { return UnifiedMemory; }
  bool useZeroCopyMaps() const override {
    return UnifiedMemory && ZeroCopyMapsRequested;
  }

  /// LIBOMPTARGET_INFO's line: the grid launchKernel gives the driver.
  std::string describeLaunch(KernelHandle Handle,
                             const KernelLaunchParams &Params) override {
    auto *Kernel = static_cast<CUDAKernel *>(Handle);
    Grid TheGrid{0, 0};
    if (Status S = gridFor(*Kernel, Params, TheGrid))
      return S.message();
    return describeLaunchGrid(TheGrid, Kernel->Config);
  }

  /// For `requires unified_shared_memory` (GPUPlugin::checkRequiresFlags).
  Status checkUnifiedMemory() const {
    std::string Missing = missingForUnifiedMemory(Driver, Device);
    if (Missing.empty())
      return Status::ok();
    return Status::error("'#pragma omp requires unified_shared_memory' "
                         "cannot be honoured on %s: %s",
                         deviceText().c_str(), Missing.c_str());
  }

  DeviceProperties getProperties() override {
    return queryDeviceProperties(Driver, Device);
  }

  /// Interop objects speak CUDA's driver API: the device is a CUdevice, the
  /// context the primary context the plugin runs in, and a `targetsync`
  /// object gets a stream of its own (OpenMP's own work does not go on it).
  InteropProperties getInteropProperties() override {
    InteropProperties P;
    P.ForeignRuntimeId = 2; // omp_ifr_cuda_driver
    P.ForeignRuntimeName = "cuda_driver";
    P.VendorId = 11; // nvidia
    P.VendorName = "nvidia";
    P.HasDeviceHandle = true;
    P.DeviceHandle = Device;
    P.DeviceContext = Context;
    P.DeviceHandleType = "CUdevice";
    P.DeviceContextType = "CUcontext";
    P.SyncType = "CUstream";
    return P;
  }
  Status createInteropSync(void *&Sync) override {
    Sync = nullptr;
    if (Status S = makeCurrent())
      return S;
    CUstream Stream = nullptr;
    if (CUresult R = API.cuStreamCreate(&Stream, CU_STREAM_NON_BLOCKING))
      return failure("cuStreamCreate", R, "for an interop object");
    Sync = Stream;
    return Status::ok();
  }
  Status waitInteropSync(void *Sync) override {
    if (Status S = makeCurrent())
      return S;
    if (CUresult R = API.cuStreamSynchronize(static_cast<CUstream>(Sync)))
      return failure("cuStreamSynchronize", R, "of an interop object's stream");
    return Status::ok();
  }
  Status destroyInteropSync(void *Sync) override {
    if (Status S = waitInteropSync(Sync))
      return S;
    if (CUresult R = API.cuStreamDestroy(static_cast<CUstream>(Sync)))
      return failure("cuStreamDestroy", R, "of an interop object's stream");
    return Status::ok();
  }

  void setDeviceNumbering(int32_t GlobalDeviceId,
                          int32_t NumAllDevices) override {
    GlobalId = GlobalDeviceId;
    NumGlobalDevices = NumAllDevices;
  }

  void printInfo(FILE *Out) override {
    fprintf(Out,
            "    Device %d of %d: %s (CUDA, sm_%d%d, %d multiprocessors, "
            "driver %d)\n",
            Id, NumDevices, Name.c_str(), Major, Minor, Multiprocessors,
            Driver.driverVersion());
  }

private:
  /// "CUDA device 0 (NVIDIA H100 80GB HBM3, sm_90)"; only the number until
  /// initialize() has asked the driver for the rest.
  std::string deviceText() const {
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
                     const char *Call, CUresult R) const {
    if (Record.KernelsSinceWait == 0)
      return Status::error("%s: %s failed: %s returned %s",
                           deviceText().c_str(), What.c_str(), Call,
                           Driver.describe(R).c_str());
    std::string Which = "kernel '" + Record.LastKernel + "'";
    if (Record.KernelsSinceWait > 1)
      Which += " (the last of " + std::to_string(Record.KernelsSinceWait) +
               " kernels queued on its stream)";
    return Status::error("%s: %s failed: %s returned %s", deviceText().c_str(),
                         Which.c_str(), Call, Driver.describe(R).c_str());
  }

  /// Sets the per-thread stack and the device heap (DeviceLimits.h) before
  /// anything runs in the context: the driver may refuse to change them
  /// later.
  Status applyLimits() {
    RequestedSize Stack =
        requestedSizeFromEnvironment("LIBOMPTARGET_STACK_SIZE");
    RequestedSize Heap = requestedSizeFromEnvironment("LIBOMPTARGET_HEAP_SIZE");
    for (const RequestedSize *Request : {&Stack, &Heap})
      if (!Request->Error.empty())
        return Status::error("%s: %s", deviceText().c_str(),
                             Request->Error.c_str());
    size_t CurrentStack = 0;
    if (CUresult R = API.cuCtxGetLimit(&CurrentStack, CU_LIMIT_STACK_SIZE))
      return failure("cuCtxGetLimit(CU_LIMIT_STACK_SIZE)", R);
    if (size_t Bytes = stackBytesToSet(Stack, CurrentStack))
      if (CUresult R = API.cuCtxSetLimit(CU_LIMIT_STACK_SIZE, Bytes))
        return failure("cuCtxSetLimit(CU_LIMIT_STACK_SIZE)", R,
                       "setting the per-thread stack to " +
                           std::to_string(Bytes) +
                           " bytes (LIBOMPTARGET_STACK_SIZE)");
    if (Heap.Present)
      if (CUresult R = API.cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, Heap.Bytes))
        return failure("cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE)", R,
                       "setting the device heap to " +
                           std::to_string(Heap.Bytes) +
                           " bytes (LIBOMPTARGET_HEAP_SIZE)");
    return Status::ok();
  }

  /// The pool of device allocations (gpu/DeviceMemoryPool.h) over
  /// cuMemAlloc and cuMemFree.
  Status createMemoryPool() {
    MemoryPoolThreshold Threshold = memoryPoolThresholdFromEnvironment();
    if (!Threshold.Error.empty())
      return Status::error("%s: %s", deviceText().c_str(),
                           Threshold.Error.c_str());
    auto Allocate = [this](uint64_t Bytes, uint64_t Requested,
                           Status &Error) -> void * {
      CUdeviceptr Address = 0;
      if (CUresult R = API.cuMemAlloc(&Address, Bytes)) {
        std::string For = "for " + std::to_string(Requested) + " bytes";
        if (Bytes != Requested)
          For += " (a " + std::to_string(Bytes) +
                 "-byte block of the device memory pool)";
        Error = failure("cuMemAlloc", R, For);
        return nullptr;
      }
      return reinterpret_cast<void *>(Address);
    };
    // Also called at exit, from whatever thread and context: make the
    // device's context current first.
    auto Free = [this](void *Ptr) -> Status {
      if (Status S = makeCurrent())
        return S;
      if (CUresult R = API.cuMemFree(reinterpret_cast<CUdeviceptr>(Ptr)))
        return failure("cuMemFree", R);
      return Status::ok();
    };
    Pool = std::make_unique<DeviceMemoryPool>(Threshold.Bytes, Allocate, Free);
    return Status::ok();
  }

  /// Page-locks host memory with cuMemHostRegister (an optional entry
  /// point: drivers without it refuse with a message naming it).
  Status lockWithDriver(void *Ptr, uint64_t Size, void *&DevicePtr) {
    if (!API.cuMemHostRegister || !API.cuMemHostUnregister)
      return Status::error("%s: cannot lock host memory: the CUDA driver has "
                           "no cuMemHostRegister_v2/cuMemHostUnregister",
                           deviceText().c_str());
    if (Status S = makeCurrent())
      return S;
    // Portable: the memory is pinned for every context, as upstream's
    // plugin registers it.
    if (CUresult R = API.cuMemHostRegister(Ptr, size_t(Size),
                                           CU_MEMHOSTREGISTER_PORTABLE))
      return failure("cuMemHostRegister", R,
                     "locking " + std::to_string(Size) +
                         " bytes of host memory");
    DevicePtr = Ptr;
    return Status::ok();
  }
  Status unlockWithDriver(void *Ptr) {
    if (Status S = makeCurrent())
      return S;
    if (CUresult R = API.cuMemHostUnregister(Ptr))
      return failure("cuMemHostUnregister", R);
    return Status::ok();
  }

  Status makeCurrent() const {
    if (CUresult R = API.cuCtxSetCurrent(Context))
      return failure("cuCtxSetCurrent", R);
    return Status::ok();
  }

  /// Fills in what the device runtime reads from the image's device
  /// environment, when the image has one (see docs/GPU.md).
  Status writeDeviceEnvironment(CUDAImage &Image) {
    CUdeviceptr Address = 0;
    size_t Bytes = 0;
    CUresult Found = API.cuModuleGetGlobal(&Address, &Bytes, Image.Module,
                                           DeviceEnvironmentSymbol);
    // Not linked with our device runtime: nothing to fill in.
    if (Found == CUDA_ERROR_NOT_FOUND ||
        (Found == CUDA_SUCCESS && Bytes != sizeof(DeviceEnvironmentLayout)))
      return Status::ok();
    std::string What = std::string("writing ") + DeviceEnvironmentSymbol +
                       " of " + Image.Description;
    if (Found != CUDA_SUCCESS)
      return failure("cuModuleGetGlobal", Found, What);
    DeviceEnvironmentLayout Env{};
    // The program's numbering, for omp_get_device_num/omp_get_num_devices
    // (upstream writes the plugin's own, wrong beside another plugin).
    Env.NumDevices = uint32_t(NumGlobalDevices);
    Env.DeviceNum = uint32_t(GlobalId);
    Env.ClockFrequency = uint64_t(ClockKHz) * 1000;
    Env.HardwareParallelism = uint64_t(Multiprocessors);
    Env.DeviceDebugKind = deviceRuntimeDebugKind();
    Env.DynamicMemSize = Knobs.SharedMemoryBytes;
    return onStream(
        nullptr, "cuMemcpyHtoDAsync", What.c_str(), [&](CUstream Stream) {
          return API.cuMemcpyHtoDAsync(Address, &Env, sizeof(Env), Stream);
        });
  }

  /// Points the image's host-service global (gpu/HostServiceDevice.h) at
  /// the device's ring, in page-locked host memory, when the image has one.
  Status attachHostService(CUDAImage &Image) {
    CUdeviceptr Address = 0;
    size_t Bytes = 0;
    CUresult Found = API.cuModuleGetGlobal(&Address, &Bytes, Image.Module,
                                           OMPX_HOST_SERVICE_SYMBOL);
    if (Found == CUDA_ERROR_NOT_FOUND ||
        (Found == CUDA_SUCCESS && Bytes != sizeof(void *)))
      return Status::ok();
    std::string What =
        "writing " OMPX_HOST_SERVICE_SYMBOL " of " + Image.Description;
    if (Found != CUDA_SUCCESS)
      return failure("cuModuleGetGlobal", Found, What);
    void *Ring = nullptr;
    if (Status S = HostService.ring(
            deviceText(),
            [&](size_t Size, Status &Error) -> void * {
              void *Ptr = nullptr;
              if (CUresult R = API.cuMemAllocHost(&Ptr, Size))
                Error = failure("cuMemAllocHost", R);
              return Ptr;
            },
            Ring))
      return S;
    return onStream(
        nullptr, "cuMemcpyHtoDAsync", What.c_str(), [&](CUstream Stream) {
          return API.cuMemcpyHtoDAsync(Address, &Ring, sizeof(Ring), Stream);
        });
  }

  /// The launch's grid: what the kernel's environment and \p Params ask
  /// for, within the device's and the kernel's limits.
  Status gridFor(const CUDAKernel &Kernel, const KernelLaunchParams &Params,
                 Grid &Out) {
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
    Limits.MaxBareThreadsPerBlock =
        Kernel.MaxThreads ? Kernel.MaxThreads : 1024;
    applyLaunchKnobs(Knobs, Limits);
    std::string Refused =
        chooseLaunchGrid(Kernel.Config, gridRequestOf(Params), Limits, Out);
    if (!Refused.empty())
      return Status::error("%s: cannot launch kernel '%s': %s",
                           deviceText().c_str(), Kernel.Name.c_str(),
                           Refused.c_str());
    return Status::ok();
  }

  /// A buffer a launch on \p Record's stream needs until the stream is
  /// waited for (its launch environment, its teams-reduction buffer): from
  /// the memory pool, as small launches are frequent and cuMemAlloc and
  /// cuMemFree synchronise the device. \p What names it for errors.
  Status allocateLaunchBuffer(uint64_t Bytes, const std::string &What,
                              StreamRecord &Record, CUdeviceptr &Out) {
    Status Error;
    void *Ptr = Pool->allocate(Bytes, Error);
    if (!Ptr)
      return Status::error("%s (allocating %s)", Error.message().c_str(),
                           What.c_str());
    Out = reinterpret_cast<CUdeviceptr>(Ptr);
    Record.DeferredFrees.push_back(Out);
    return Status::ok();
  }

  /// The launch environment of \p Kernel, queued on \p Record's stream
  /// with its teams-reduction buffer, or null (\p LaunchEnv = 0) for a
  /// kernel without a teams reduction: the device runtime reads it only
  /// there, and a launch that needs none saves an allocation and a copy
  /// ahead of the kernel, as upstream's plugins do.
  Status writeLaunchEnvironment(const CUDAKernel &Kernel, StreamRecord &Record,
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
    if (Status S = allocateLaunchBuffer(Bytes,
                                        "the " + std::to_string(Bytes) +
                                            "-byte teams-reduction buffer " +
                                            ForKernel,
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

  /// Queues \p Kernel on \p Record's stream, after the copy of its launch
  /// environment where it has one.
  Status queueLaunch(const CUDAKernel &Kernel, void **Args, uint32_t NumArgs,
                     const Grid &TheGrid, uint32_t DynCGroupMem,
                     StreamRecord &Record) {
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
    if (CUresult R = API.cuLaunchKernel(
            Kernel.Function, TheGrid.blocks(0), TheGrid.blocks(1),
            TheGrid.blocks(2), TheGrid.threads(0), TheGrid.threads(1),
            TheGrid.threads(2), DynCGroupMem, Record.Stream, Pointers.data(),
            nullptr))
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
  Status waitAndRecycle(StreamRecord &Record, const std::string &What) {
    const char *Call = "cuStreamSynchronize";
    CUresult R = CUDA_SUCCESS;
    if (Timeout.enabled()) {
      Call = "cuStreamQuery";
      bool TimedOut = false;
      R = pollUntilDone(Record.Stream, TimedOut);
      if (TimedOut)
        return timeoutError(Record, What);
    } else {
      R = API.cuStreamSynchronize(Record.Stream);
    }
    // The kernels' output is out, and a STOP ends the program, before
    // their completion or failure is reported.
    HostService.kernelsCompleted(Record.KernelsSinceWait, R != CUDA_SUCCESS);
    Status Result = R ? streamError(Record, What, Call, R) : Status::ok();
    Record.LastKernel.clear();
    Record.KernelsSinceWait = 0;
    // After a fault the context is unusable and these fail as well; the
    // fault is the error to report.
    for (CUdeviceptr Ptr : Record.DeferredFrees)
      if (Status F = Pool->free(reinterpret_cast<void *>(Ptr)))
        if (!Result)
          Result = Status::error("%s (releasing a launch environment)",
                                 F.message().c_str());
    Record.DeferredFrees.clear();
    Record.HostCopies.clear();
    if (Record.Pooled)
      FreeStreams.lock()->push_back(&Record);
    return Result;
  }

  /// Waits for \p Stream by polling, up to the configured timeout. Returns
  /// the stream's final status, or sets \p TimedOut.
  CUresult pollUntilDone(CUstream Stream, bool &TimedOut) {
    WaitDeadline Deadline(Timeout);
    // Sleeping between polls leaves the host's cores to the program; the
    // pause grows to 1 ms, which is all it adds to a kernel's completion.
    auto Pause = std::chrono::microseconds(20);
    for (;;) {
      CUresult R = API.cuStreamQuery(Stream);
      if (R != CUDA_ERROR_NOT_READY)
        return R;
      if (Deadline.passed()) {
        TimedOut = true;
        return CUDA_SUCCESS;
      }
      std::this_thread::sleep_for(Pause);
      Pause = std::min(Pause * 2, std::chrono::microseconds(1000));
    }
  }

  /// The work of \p Record did not finish in time. Its launch environments
  /// and host copies stay allocated (the kernel may still be using them)
  /// and a pooled stream is not reused.
  Status timeoutError(const StreamRecord &Record, const std::string &What) {
    std::string Which = What;
    if (Record.KernelsSinceWait)
      Which = "kernel '" + Record.LastKernel + "'";
    return Status::error(
        "%s: %s did not complete within %llu ms (%s): it is still running "
        "or hung; giving up",
        deviceText().c_str(), Which.c_str(),
        static_cast<unsigned long long>(Timeout.Milliseconds),
        KernelTimeoutVariable);
  }

  const CUDADriver &Driver;
  const CUDADriverAPI &API;
  int32_t Id;
  int32_t NumDevices;
  /// The device's number among all devices of the process, and their count.
  int32_t GlobalId, NumGlobalDevices;
  const KernelTimeout Timeout = kernelTimeoutFromEnvironment();
  const LaunchKnobs Knobs = launchKnobsFromEnvironment();
  CUdevice Device = 0;
  CUcontext Context = nullptr;
  std::string Name;
  bool UnifiedMemory = false;
  const bool ZeroCopyMapsRequested = zeroCopyMapsRequested();
  int Major = 0, Minor = 0, Multiprocessors = 0, MaxThreadsPerBlock = 0,
      MaxGridX = 0, ClockKHz = 0;
  /// The stream of synchronous work (see withStream).
  Guarded<StreamRecord> OwnStream;
  /// Pooled streams not given to an async info now.
  Guarded<std::vector<StreamRecord *>> FreeStreams;
  using LockedStreams = Guarded<std::vector<StreamRecord *>>::Access;
  Guarded<std::vector<std::unique_ptr<CUDAKernel>>> Kernels;
  DeviceHostService HostService;
  /// Device allocations (AllocKind::Device); set by initialize().
  std::unique_ptr<DeviceMemoryPool> Pool;
  /// Host memory locked through lockHostMemory.
  PinnedHostMemory Pinned{[this](void *Ptr, uint64_t Size, void *&DevicePtr) {
                            return lockWithDriver(Ptr, Size, DevicePtr);
                          },
                          [this](void *Ptr) { return unlockWithDriver(Ptr); }};
};

/// The plugin object: GPUPlugin with the CUDA driver and CUDADevice.
class CUDAPlugin final : public GPUPlugin<CUDADriver, CUDADevice> {
public:
  CUDAPlugin() : GPUPlugin({"cuda", "nvptx64", EM_CUDA_MACHINE}) {}
};

} // namespace

// __offload_plugin_create (a CUDAPlugin that is never destroyed: no device
// or driver teardown runs during exit()) and __tgt_rtl_set_function_ptr_map.
OFFLOAD_PLUGIN_ENTRY_POINTS(CUDAPlugin)
