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
//===----------------------------------------------------------------------===//

#include "CUDADriver.h"
#include "IndirectCallInstall.h"
#include "PluginDevice.h"
#include "PluginEntryPoints.h"
#include "PluginInterface.h"
#include "gpu/DeviceLimits.h"
#include "gpu/GPUPlugin.h"
#include "gpu/KernelGrid.h"

#include <memory>
#include <mutex>
#include <string>
#include <vector>

using namespace offload::plugin;
using namespace offload::plugin::cuda;

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
};

class CUDADevice final : public PluginDevice {
public:
  CUDADevice(const CUDADriver &Driver, int32_t Id, int32_t NumDevices)
      : Driver(Driver), API(Driver.api()), Id(Id), NumDevices(NumDevices) {}

  ~CUDADevice() override {
    if (!Context)
      return;
    API.cuCtxSetCurrent(Context);
    for (StreamRecord *Record : FreeStreams) {
      API.cuStreamDestroy(Record->Stream);
      delete Record;
    }
    if (OwnStream.Stream)
      API.cuStreamDestroy(OwnStream.Stream);
    API.cuDevicePrimaryCtxRelease(Device);
  }

  Status initialize() {
    if (CUresult R = API.cuDeviceGet(&Device, Id))
      return failure("cuDeviceGet", R);
    if (CUresult R = API.cuDevicePrimaryCtxRetain(&Context, Device))
      return failure("cuDevicePrimaryCtxRetain", R);
    if (Status S = makeCurrent())
      return S;
    if (Status S = applyLimits())
      return S;
    if (CUresult R =
            API.cuStreamCreate(&OwnStream.Stream, CU_STREAM_NON_BLOCKING))
      return failure("cuStreamCreate", R);
    char NameBuffer[256] = {0};
    API.cuDeviceGetName(NameBuffer, sizeof(NameBuffer) - 1, Device);
    Name = NameBuffer;
    API.cuDeviceGetAttribute(
        &Major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, Device);
    API.cuDeviceGetAttribute(
        &Minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, Device);
    API.cuDeviceGetAttribute(&Multiprocessors,
                             CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, Device);
    API.cuDeviceGetAttribute(&MaxThreadsPerBlock,
                             CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, Device);
    API.cuDeviceGetAttribute(&MaxGridX, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X,
                             Device);
    API.cuDeviceGetAttribute(&ClockKHz, CU_DEVICE_ATTRIBUTE_CLOCK_RATE, Device);
    return Status::ok();
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
      return Status::error("CUDA device %d (%s, sm_%d%d) cannot load %s: %s%s",
                           Id, Name.c_str(), Major, Minor, Image.Description,
                           Driver.errorName(R).c_str(),
                           R == CUDA_ERROR_NO_BINARY_FOR_GPU
                               ? "; rebuild with --offload-arch for this device"
                               : "");
    if (Status S = writeDeviceEnvironment(*Loaded)) {
      API.cuModuleUnload(Loaded->Module);
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
    delete Loaded;
    return R ? failure("cuModuleUnload", R) : Status::ok();
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
      return Status::error("kernel '%s' not found in %s: %s", KernelName,
                           Loaded->Description.c_str(),
                           Driver.errorName(R).c_str());
    // The kernel environment says how the compiler expects it to run; an
    // image without one (not OpenMP) is launched with the defaults.
    std::string EnvName = std::string(KernelName) + "_kernel_environment";
    CUdeviceptr EnvAddress = 0;
    size_t EnvSize = 0;
    if (API.cuModuleGetGlobal(&EnvAddress, &EnvSize, Loaded->Module,
                              EnvName.c_str()) == CUDA_SUCCESS &&
        EnvSize >= sizeof(KernelEnvironmentLayout)) {
      KernelEnvironmentLayout Env;
      if (CUresult R = API.cuMemcpyDtoHAsync(&Env, EnvAddress, sizeof(Env),
                                             OwnStream.Stream))
        return failure("reading the kernel environment of a kernel", R);
      if (CUresult R = API.cuStreamSynchronize(OwnStream.Stream))
        return failure("reading the kernel environment of a kernel", R);
      Kernel->Config = Env.Configuration;
    }
    int MaxThreads = 0;
    API.cuFuncGetAttribute(&MaxThreads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                           Kernel->Function);
    Kernel->MaxThreads = MaxThreads > 0 ? uint32_t(MaxThreads) : 0;
    std::lock_guard<std::mutex> Guard(Lock);
    Kernels.push_back(std::move(Kernel));
    Out = Kernels.back().get();
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
      return Status::error("global '%s' not found in %s: %s", GlobalName,
                           Loaded->Description.c_str(),
                           Driver.errorName(R).c_str());
    if (Size && Bytes != Size)
      return Status::error("global '%s' in %s has %zu bytes on the device "
                           "but %llu on the host",
                           GlobalName, Loaded->Description.c_str(), Bytes,
                           static_cast<unsigned long long>(Size));
    DeviceAddress = reinterpret_cast<void *>(Address);
    return Status::ok();
  }

  void *allocate(uint64_t Size, AllocKind Kind) override {
    if (makeCurrent() || Size == 0)
      return nullptr;
    switch (Kind) {
    case AllocKind::Device: {
      CUdeviceptr Ptr = 0;
      return API.cuMemAlloc(&Ptr, Size) ? nullptr
                                        : reinterpret_cast<void *>(Ptr);
    }
    case AllocKind::Host: {
      // Pinned host memory: the device reads it directly, and copies from
      // it run at full speed.
      void *Ptr = nullptr;
      return API.cuMemAllocHost(&Ptr, Size) ? nullptr : Ptr;
    }
    case AllocKind::Shared: {
      CUdeviceptr Ptr = 0;
      return API.cuMemAllocManaged(&Ptr, Size, CU_MEM_ATTACH_GLOBAL)
                 ? nullptr
                 : reinterpret_cast<void *>(Ptr);
    }
    }
    return nullptr;
  }

  Status free(void *Ptr, AllocKind Kind) override {
    if (Status S = makeCurrent())
      return S;
    CUresult R = Kind == AllocKind::Host
                     ? API.cuMemFreeHost(Ptr)
                     : API.cuMemFree(reinterpret_cast<CUdeviceptr>(Ptr));
    return R ? failure("freeing device memory", R) : Status::ok();
  }

  Status dataSubmit(void *DevicePtr, const void *HostPtr, int64_t Size,
                    __tgt_async_info *Async) override {
    return onStream(Async, "copy to the device", [&](CUstream Stream) {
      return API.cuMemcpyHtoDAsync(reinterpret_cast<CUdeviceptr>(DevicePtr),
                                   HostPtr, size_t(Size), Stream);
    });
  }

  Status dataRetrieve(void *HostPtr, const void *DevicePtr, int64_t Size,
                      __tgt_async_info *Async) override {
    return onStream(Async, "copy from the device", [&](CUstream Stream) {
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
    return onStream(Async, "device-to-device copy", [&](CUstream Stream) {
      if (&Other == this)
        return API.cuMemcpyDtoDAsync(To, Src, size_t(Size), Stream);
      return API.cuMemcpyPeerAsync(To, Other.context(), Src, Context,
                                   size_t(Size), Stream);
    });
  }

  Status dataFill(void *DevicePtr, int Value, int64_t Size,
                  __tgt_async_info *Async) override {
    return onStream(Async, "memory fill", [&](CUstream Stream) {
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
    GridLimits Limits;
    Limits.MaxThreadsPerBlock = 256;
    if (MaxThreadsPerBlock > 0 && uint32_t(MaxThreadsPerBlock) < 256)
      Limits.MaxThreadsPerBlock = uint32_t(MaxThreadsPerBlock);
    if (Kernel->MaxThreads && Kernel->MaxThreads < Limits.MaxThreadsPerBlock)
      Limits.MaxThreadsPerBlock = Kernel->MaxThreads;
    Limits.DefaultThreadsPerBlock = 128;
    Limits.MaxBlocks = MaxGridX > 0 ? uint32_t(MaxGridX) : 65535;
    Limits.DefaultBlocks =
        uint32_t(Multiprocessors > 0 ? Multiprocessors : 1) * 4;
    GridRequest Request;
    Request.NumTeams = Params.NumTeams;
    Request.ThreadLimit = Params.ThreadLimit;
    Request.Tripcount = Params.Tripcount;
    Grid TheGrid = chooseGrid(Kernel->Config, Request, Limits);

    // Synchronous work shares the device's own stream: one host thread at
    // a time, so nobody frees what another thread's launch still needs.
    std::unique_lock<std::mutex> SyncGuard(SyncLock, std::defer_lock);
    if (!Async)
      SyncGuard.lock();
    StreamRecord *Record = nullptr;
    if (Status S = streamFor(Async, Record))
      return S;

    // The launch environment (and the teams-reduction buffer) live until
    // the stream is waited for.
    CUdeviceptr LaunchEnv = 0;
    if (CUresult R =
            API.cuMemAlloc(&LaunchEnv, sizeof(LaunchEnvironmentLayout)))
      return failure("allocating the launch environment", R);
    Record->DeferredFrees.push_back(LaunchEnv);
    LaunchEnvironmentLayout Env{};
    if (uint64_t Bytes = reductionBufferBytes(Kernel->Config)) {
      CUdeviceptr Buffer = 0;
      if (CUresult R = API.cuMemAlloc(&Buffer, Bytes))
        return failure("allocating the teams-reduction buffer", R);
      Record->DeferredFrees.push_back(Buffer);
      Env.ReductionBuffer = Buffer;
    }
    // The copy is queued before the launch on the same stream, and its
    // source must stay valid until it runs: keep it in the record too.
    Record->HostCopies.push_back(
        std::make_unique<LaunchEnvironmentLayout>(Env));
    LaunchEnvironmentLayout *EnvCopy = Record->HostCopies.back().get();
    if (CUresult R = API.cuMemcpyHtoDAsync(LaunchEnv, EnvCopy, sizeof(*EnvCopy),
                                           Record->Stream))
      return failure("writing the launch environment", R);

    std::vector<void *> Values(NumArgs + 1);
    std::vector<void *> Pointers(NumArgs + 1);
    Values[0] = reinterpret_cast<void *>(LaunchEnv);
    for (uint32_t I = 0; I < NumArgs; ++I)
      Values[I + 1] = Args[I];
    for (uint32_t I = 0; I <= NumArgs; ++I)
      Pointers[I] = &Values[I];
    if (CUresult R = API.cuLaunchKernel(
            Kernel->Function, TheGrid.Blocks, 1, 1, TheGrid.ThreadsPerBlock, 1,
            1, Params.DynCGroupMem, Record->Stream, Pointers.data(), nullptr))
      return Status::error("CUDA device %d: launching kernel '%s' with %u "
                           "blocks of %u threads failed: %s",
                           Id, Kernel->Name.c_str(), TheGrid.Blocks,
                           TheGrid.ThreadsPerBlock,
                           Driver.errorName(R).c_str());
    if (!Async)
      return waitAndRecycle(Record, "kernel '" + Kernel->Name + "'");
    return Status::ok();
  }

  Status synchronize(__tgt_async_info *Async) override {
    if (!Async || !Async->Queue)
      return Status::ok();
    auto *Record = static_cast<StreamRecord *>(Async->Queue);
    Async->Queue = nullptr;
    return waitAndRecycle(Record, "asynchronous work");
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
    if (R)
      return failure("cuStreamQuery", R);
    return synchronize(Async);
  }

  bool supportsUnifiedMemory() const override { return false; }

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
      return failure("cuStreamCreate (for an interop object)", R);
    Sync = Stream;
    return Status::ok();
  }
  Status waitInteropSync(void *Sync) override {
    if (Status S = makeCurrent())
      return S;
    if (CUresult R = API.cuStreamSynchronize(static_cast<CUstream>(Sync)))
      return failure("cuStreamSynchronize (an interop object's stream)", R);
    return Status::ok();
  }
  Status destroyInteropSync(void *Sync) override {
    if (Status S = waitInteropSync(Sync))
      return S;
    if (CUresult R = API.cuStreamDestroy(static_cast<CUstream>(Sync)))
      return failure("cuStreamDestroy (an interop object's stream)", R);
    return Status::ok();
  }

  void printInfo(FILE *Out) override {
    fprintf(Out,
            "    Device %d of %d: %s (CUDA, sm_%d%d, %d multiprocessors, "
            "driver %d)\n",
            Id, NumDevices, Name.c_str(), Major, Minor, Multiprocessors,
            Driver.driverVersion());
  }

private:
  Status failure(const char *What, CUresult R) const {
    return Status::error("CUDA device %d: %s failed: %s", Id, What,
                         Driver.errorName(R).c_str());
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
        return Status::error("CUDA device %d: %s", Id, Request->Error.c_str());
    size_t CurrentStack = 0;
    if (CUresult R = API.cuCtxGetLimit(&CurrentStack, CU_LIMIT_STACK_SIZE))
      return failure("cuCtxGetLimit(CU_LIMIT_STACK_SIZE)", R);
    if (size_t Bytes = stackBytesToSet(Stack, CurrentStack))
      if (CUresult R = API.cuCtxSetLimit(CU_LIMIT_STACK_SIZE, Bytes))
        return Status::error("CUDA device %d: setting the per-thread stack to "
                             "%zu bytes (LIBOMPTARGET_STACK_SIZE) failed: %s",
                             Id, Bytes, Driver.errorName(R).c_str());
    if (Heap.Present)
      if (CUresult R = API.cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, Heap.Bytes))
        return Status::error("CUDA device %d: setting the device heap to %zu "
                             "bytes (LIBOMPTARGET_HEAP_SIZE) failed: %s",
                             Id, Heap.Bytes, Driver.errorName(R).c_str());
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
    if (API.cuModuleGetGlobal(&Address, &Bytes, Image.Module,
                              DeviceEnvironmentSymbol) != CUDA_SUCCESS ||
        Bytes != sizeof(DeviceEnvironmentLayout))
      return Status::ok();
    DeviceEnvironmentLayout Env{};
    Env.NumDevices = uint32_t(NumDevices);
    Env.DeviceNum = uint32_t(Id);
    Env.ClockFrequency = uint64_t(ClockKHz) * 1000;
    Env.HardwareParallelism = uint64_t(Multiprocessors);
    if (CUresult R =
            API.cuMemcpyHtoDAsync(Address, &Env, sizeof(Env), OwnStream.Stream))
      return failure("writing the device environment", R);
    if (CUresult R = API.cuStreamSynchronize(OwnStream.Stream))
      return failure("writing the device environment", R);
    return Status::ok();
  }

  /// The stream of \p Async (taken from the pool on first use), or the
  /// device's own stream for synchronous work.
  Status streamFor(__tgt_async_info *Async, StreamRecord *&Record) {
    if (!Async) {
      Record = &OwnStream;
      return Status::ok();
    }
    if (Async->Queue) {
      Record = static_cast<StreamRecord *>(Async->Queue);
      return Status::ok();
    }
    {
      std::lock_guard<std::mutex> Guard(Lock);
      if (!FreeStreams.empty()) {
        Record = FreeStreams.back();
        FreeStreams.pop_back();
      }
    }
    if (!Record) {
      auto Fresh = std::make_unique<StreamRecord>();
      if (CUresult R =
              API.cuStreamCreate(&Fresh->Stream, CU_STREAM_NON_BLOCKING))
        return failure("cuStreamCreate", R);
      Record = Fresh.release();
    }
    Async->Queue = Record;
    return Status::ok();
  }

  template <typename Fn>
  Status onStream(__tgt_async_info *Async, const char *What, Fn Enqueue) {
    if (Status S = makeCurrent())
      return S;
    std::unique_lock<std::mutex> SyncGuard(SyncLock, std::defer_lock);
    if (!Async)
      SyncGuard.lock();
    StreamRecord *Record = nullptr;
    if (Status S = streamFor(Async, Record))
      return S;
    if (CUresult R = Enqueue(Record->Stream))
      return failure(What, R);
    if (!Async)
      return waitAndRecycle(Record, What);
    return Status::ok();
  }

  /// Waits for \p Record's stream, frees what its launches needed and, for
  /// a pooled stream, returns it to the pool.
  Status waitAndRecycle(StreamRecord *Record, const std::string &What) {
    if (Status S = makeCurrent())
      return S;
    CUresult R = API.cuStreamSynchronize(Record->Stream);
    for (CUdeviceptr Ptr : Record->DeferredFrees)
      API.cuMemFree(Ptr);
    Record->DeferredFrees.clear();
    Record->HostCopies.clear();
    {
      std::lock_guard<std::mutex> Guard(Lock);
      if (Record != &OwnStream)
        FreeStreams.push_back(Record);
    }
    if (R)
      return Status::error("CUDA device %d: %s failed: %s", Id, What.c_str(),
                           Driver.errorName(R).c_str());
    return Status::ok();
  }

  const CUDADriver &Driver;
  const CUDADriverAPI &API;
  int32_t Id;
  int32_t NumDevices;
  CUdevice Device = 0;
  CUcontext Context = nullptr;
  std::string Name;
  int Major = 0, Minor = 0, Multiprocessors = 0, MaxThreadsPerBlock = 0,
      MaxGridX = 0, ClockKHz = 0;
  std::mutex Lock;
  std::mutex SyncLock;
  StreamRecord OwnStream;
  std::vector<StreamRecord *> FreeStreams;
  std::vector<std::unique_ptr<CUDAKernel>> Kernels;
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
