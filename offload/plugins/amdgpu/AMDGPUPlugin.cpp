//===- AMDGPUPlugin.cpp - AMD GPUs through the HSA runtime ----------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// libomptarget.rtl.amdgpu: one device per HSA GPU agent. Images are code
// objects (our wrapper's AMDGPU link), loaded into an HSA executable per
// device. Memory comes from the agent's coarse-grained global pool (device)
// and the host's fine-grained pool (pinned host memory, kernel arguments
// from its kernarg pool). A kernel is launched by writing an AQL dispatch
// packet to the device's queue with a completion signal.
//
// All operations complete before they return, `nowait` ones included: that
// keeps OpenMP's semantics (work is done when the task completes) without
// overlapping transfers and kernels. Making them asynchronous (signal chains
// per __tgt_async_info) is future work.
//
// The runtime is loaded with dlopen (HSARuntime.h): without it, or without
// a GPU agent, the plugin has zero devices and says why when that matters.
//
// Every HSA call is checked; a failure becomes a Status naming the device,
// the call and hsa_status_string's text. A kernel that faults (a memory
// violation, a trap) stops the queue: HSA then never signals the dispatch's
// completion and reports the error only to the queue's error callback. So
// the device keeps what the callback reported, and every wait (kernels and
// copies) wakes up regularly to look at it, and at the deadline set by
// LIBOMPTARGET_KERNEL_TIMEOUT_MS (gpu/KernelTimeout.h), instead of waiting
// forever.
//
//===----------------------------------------------------------------------===//

#include "AMDGPUDeviceHeap.h"
#include "AMDGPUDeviceQueries.h"
#include "Guarded.h"
#include "HSARuntime.h"
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
#include "gpu/ZeroCopyMaps.h"
#include "gpu/PinnedHostMemory.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

using namespace offload::plugin;
using namespace offload::plugin::hsa;
using offload::Guarded;

namespace {

/// ELF machine number of AMD GPU code objects.
constexpr uint16_t EM_AMDGPU_MACHINE = 224;

/// Bytes of the hidden (implicit) kernel arguments of code object v5, which
/// follow the explicit ones.
constexpr uint32_t ImplicitArgBytes = 256;

struct AMDGPUImage : LoadedImage {
  hsa_executable_t Executable{};
  hsa_code_object_reader_t Reader{};
  std::string Description;
};

struct AMDGPUKernel {
  std::string Name;
  uint64_t KernelObject = 0;
  uint32_t KernargSize = 0;
  uint32_t GroupSize = 0;
  uint32_t PrivateSize = 0;
  KernelConfiguration Config{};
};

/// Finds the pools of an agent: the first global pool the runtime may
/// allocate from with the requested flag.
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

class AMDGPUDevice final : public SynchronousPluginDevice {
public:
  AMDGPUDevice(const HSARuntime &Runtime, int32_t Id, int32_t NumDevices)
      : Runtime(Runtime), API(Runtime.api()), Id(Id), NumDevices(NumDevices),
        Agent(Runtime.gpuAgents()[size_t(Id)]) {}

  ~AMDGPUDevice() override {
    // A device is destroyed only when its initialize() failed (the plugin
    // object lives until the process ends), and that failure is what the
    // user hears about: an error of this cleanup has nowhere to go.
    if (hsa_queue_t *Q = *Queue.lock())
      (void)API.hsa_queue_destroy(Q);
  }

  Status initialize() {
    for (const std::string *Error : {&Timeout.Error, &Knobs.Error})
      if (!Error->empty())
        return Status::error("%s: %s", deviceText().c_str(), Error->c_str());
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
    uint32_t QueueSize = 0;
    if (hsa_status_t S = API.hsa_agent_get_info(
            Agent, HSA_AGENT_INFO_QUEUE_MAX_SIZE, &QueueSize))
      return failure("hsa_agent_get_info(QUEUE_MAX_SIZE)", S);
    if (QueueSize == 0 || QueueSize > 4096)
      QueueSize = 4096;
    if (hsa_status_t S = API.hsa_queue_create(
            Agent, QueueSize, HSA_QUEUE_TYPE_MULTIPLE, queueErrorCallback, this,
            UINT32_MAX, UINT32_MAX, &*Queue.lock()))
      return failure("hsa_queue_create", S);
    return createMemoryPool();
  }

  Status loadDeviceImage(const DeviceImageRef &Image,
                         LoadedImage *&Out) override {
    auto Loaded = std::make_unique<AMDGPUImage>();
    Loaded->Description = Image.Description;
    auto Fail = [&](const char *Call, hsa_status_t S, const char *Hint) {
      return Status::error("%s cannot load %s: %s failed: %s%s",
                           deviceText().c_str(), Image.Description, Call,
                           Runtime.statusString(S).c_str(), Hint);
    };
    // On a failed load, the cleanup's own errors are not reported: the
    // load's error says what went wrong, and the half-built executable is
    // never used.
    if (hsa_status_t S = API.hsa_code_object_reader_create_from_memory(
            Image.Start, Image.Size, &Loaded->Reader))
      return Fail("hsa_code_object_reader_create_from_memory", S, "");
    if (hsa_status_t S = API.hsa_executable_create_alt(
            HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, "",
            &Loaded->Executable)) {
      (void)API.hsa_code_object_reader_destroy(Loaded->Reader);
      return Fail("hsa_executable_create_alt", S, "");
    }
    const char *Call = "hsa_executable_load_agent_code_object";
    hsa_status_t S = API.hsa_executable_load_agent_code_object(
        Loaded->Executable, Agent, Loaded->Reader, "", nullptr);
    if (!S) {
      Call = "hsa_executable_freeze";
      S = API.hsa_executable_freeze(Loaded->Executable, "");
    }
    if (S) {
      (void)API.hsa_executable_destroy(Loaded->Executable);
      (void)API.hsa_code_object_reader_destroy(Loaded->Reader);
      return Fail(Call, S, " (is the image built for this GPU's gfx target?)");
    }
    LoadedImage *Raw = Loaded.release();
    Status St = writeDeviceEnvironment(Raw);
    if (!St)
      St = Heap.install(*this, Raw, deviceText());
    if (!St)
      St = HostService.attach(*this, Raw, deviceText());
    if (St) {
      (void)unloadDeviceImage(Raw);
      return St;
    }
    Out = Raw;
    return Status::ok();
  }

  Status unloadDeviceImage(LoadedImage *Image) override {
    auto *Loaded = static_cast<AMDGPUImage *>(Image);
    std::string For = "for " + Loaded->Description;
    hsa_status_t S = API.hsa_executable_destroy(Loaded->Executable);
    hsa_status_t R = API.hsa_code_object_reader_destroy(Loaded->Reader);
    delete Loaded;
    if (S)
      return failure("hsa_executable_destroy", S, For);
    return R ? failure("hsa_code_object_reader_destroy", R, For) : Status::ok();
  }

  Status getKernel(LoadedImage *Image, const char *KernelName,
                   KernelHandle &Out) override {
    auto *Loaded = static_cast<AMDGPUImage *>(Image);
    auto Kernel = std::make_unique<AMDGPUKernel>();
    Kernel->Name = KernelName;
    // Code objects v3 and later name a kernel's descriptor `<kernel>.kd`.
    std::string Descriptor = std::string(KernelName) + ".kd";
    hsa_executable_symbol_t Symbol;
    if (hsa_status_t S = API.hsa_executable_get_symbol_by_name(
            Loaded->Executable, Descriptor.c_str(), &Agent, &Symbol))
      return Status::error("%s: kernel '%s' not found in %s: "
                           "hsa_executable_get_symbol_by_name failed: %s",
                           deviceText().c_str(), KernelName,
                           Loaded->Description.c_str(),
                           Runtime.statusString(S).c_str());
    struct {
      int Attribute;
      void *Value;
      const char *Call;
    } const Queries[] = {
        {HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, &Kernel->KernelObject,
         "hsa_executable_symbol_get_info(KERNEL_OBJECT)"},
        {HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE,
         &Kernel->KernargSize,
         "hsa_executable_symbol_get_info(KERNEL_KERNARG_SEGMENT_SIZE)"},
        {HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE,
         &Kernel->GroupSize,
         "hsa_executable_symbol_get_info(KERNEL_GROUP_SEGMENT_SIZE)"},
        {HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE,
         &Kernel->PrivateSize,
         "hsa_executable_symbol_get_info(KERNEL_PRIVATE_SEGMENT_SIZE)"},
    };
    for (const auto &Q : Queries)
      if (hsa_status_t S =
              API.hsa_executable_symbol_get_info(Symbol, Q.Attribute, Q.Value))
        return failure(Q.Call, S, "for kernel '" + Kernel->Name + "'");
    // The kernel environment says how the compiler expects it to run; an
    // image without one (not OpenMP) is launched with the defaults.
    void *EnvAddress = nullptr;
    std::string EnvName = std::string(KernelName) + "_kernel_environment";
    bool Absent = false;
    Status Found =
        findGlobal(Image, EnvName.c_str(), sizeof(KernelEnvironmentLayout),
                   EnvAddress, Absent);
    if (Found && !Absent)
      return Found;
    if (!Found) {
      KernelEnvironmentLayout Env;
      if (Status S = dataRetrieve(&Env, EnvAddress, sizeof(Env), nullptr))
        return S;
      Kernel->Config = Env.Configuration;
    }
    Out = Kernel.get();
    Kernels.lock()->push_back(std::move(Kernel));
    return Status::ok();
  }

  Status getGlobal(LoadedImage *Image, const char *GlobalName, uint64_t Size,
                   void *&DeviceAddress) override {
    bool Absent = false;
    return findGlobal(Image, GlobalName, Size, DeviceAddress, Absent);
  }

  /// getGlobal that also tells an image without the global (\p Absent: no
  /// such symbol, or one of another size) from a failing runtime.
  Status findGlobal(LoadedImage *Image, const char *GlobalName, uint64_t Size,
                    void *&DeviceAddress, bool &Absent) {
    auto *Loaded = static_cast<AMDGPUImage *>(Image);
    hsa_executable_symbol_t Symbol;
    if (hsa_status_t S = API.hsa_executable_get_symbol_by_name(
            Loaded->Executable, GlobalName, &Agent, &Symbol)) {
      Absent = S == HSA_STATUS_ERROR_INVALID_SYMBOL_NAME;
      return Status::error("%s: global '%s' not found in %s: "
                           "hsa_executable_get_symbol_by_name failed: %s",
                           deviceText().c_str(), GlobalName,
                           Loaded->Description.c_str(),
                           Runtime.statusString(S).c_str());
    }
    uint64_t Address = 0;
    uint32_t Bytes = 0;
    std::string For = std::string("for global '") + GlobalName + "'";
    if (hsa_status_t S = API.hsa_executable_symbol_get_info(
            Symbol, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS, &Address))
      return failure("hsa_executable_symbol_get_info(VARIABLE_ADDRESS)", S,
                     For);
    if (hsa_status_t S = API.hsa_executable_symbol_get_info(
            Symbol, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SIZE, &Bytes))
      return failure("hsa_executable_symbol_get_info(VARIABLE_SIZE)", S, For);
    if (Size && Bytes != Size) {
      Absent = true;
      return Status::error("%s: global '%s' in %s has %u bytes on the device "
                           "but %llu on the host",
                           deviceText().c_str(), GlobalName,
                           Loaded->Description.c_str(), Bytes,
                           static_cast<unsigned long long>(Size));
    }
    DeviceAddress = reinterpret_cast<void *>(Address);
    return Status::ok();
  }

  void *allocate(uint64_t Size, AllocKind Kind) override {
    if (Size == 0)
      return nullptr;
    Status Error;
    void *Ptr = Kind == AllocKind::Device
                    ? Pool->allocate(Size, Error)
                    : allocateOrExplain(Size, Kind, Error);
    if (!Ptr)
      reportAllocationFailure(Error);
    return Ptr;
  }

  Status free(void *Ptr, AllocKind Kind) override {
    if (Kind == AllocKind::Device)
      return Pool->free(Ptr);
    if (hsa_status_t S = API.hsa_amd_memory_pool_free(Ptr))
      return failure("hsa_amd_memory_pool_free", S);
    return Status::ok();
  }

  Status lockHostMemory(void *HostPtr, uint64_t Size, void *&Locked) override {
    return Pinned.lock(HostPtr, Size, Locked);
  }
  Status unlockHostMemory(void *HostPtr) override {
    return Pinned.unlock(HostPtr);
  }

  Status dataSubmit(void *DevicePtr, const void *HostPtr, int64_t Size,
                    __tgt_async_info *) override {
    std::string What =
        "copying " + std::to_string(Size) + " bytes to the device";
    // Locked memory is the copy engine's to read: no staging buffer.
    void *Locked = nullptr;
    if (Size > 0 && Pinned.isLocked(HostPtr, uint64_t(Size), Locked)) {
      bool Abandoned = false;
      return copy(DevicePtr, Agent, Locked, HostAgent, size_t(Size), What,
                  Abandoned);
    }
    return throughStaging(Size, What, [&](void *Staging, bool &Abandoned) {
      std::memcpy(Staging, HostPtr, size_t(Size));
      return copy(DevicePtr, Agent, Staging, HostAgent, size_t(Size), What,
                  Abandoned);
    });
  }

  Status dataRetrieve(void *HostPtr, const void *DevicePtr, int64_t Size,
                      __tgt_async_info *) override {
    std::string What =
        "copying " + std::to_string(Size) + " bytes from the device";
    void *Locked = nullptr;
    if (Size > 0 && Pinned.isLocked(HostPtr, uint64_t(Size), Locked)) {
      bool Abandoned = false;
      return copy(Locked, HostAgent, DevicePtr, Agent, size_t(Size), What,
                  Abandoned);
    }
    return throughStaging(Size, What, [&](void *Staging, bool &Abandoned) {
      if (Status S = copy(Staging, HostAgent, DevicePtr, Agent, size_t(Size),
                          What, Abandoned))
        return S;
      std::memcpy(HostPtr, Staging, size_t(Size));
      return Status::ok();
    });
  }

  Status dataExchange(const void *SrcDevicePtr, GenericDevice &Dst,
                      void *DstDevicePtr, int64_t Size,
                      __tgt_async_info *) override {
    auto &Other = static_cast<AMDGPUDevice &>(Dst);
    bool Abandoned = false;
    return copy(DstDevicePtr, Other.Agent, SrcDevicePtr, Agent, size_t(Size),
                "copying " + std::to_string(Size) + " bytes to " +
                    Other.deviceText(),
                Abandoned);
  }

  Status dataFill(void *DevicePtr, int Value, int64_t Size,
                  __tgt_async_info *) override {
    uint8_t Byte = uint8_t(Value);
    std::string What = "filling " + std::to_string(Size) + " bytes";
    if (reinterpret_cast<uintptr_t>(DevicePtr) % 4 == 0 && Size % 4 == 0) {
      uint32_t Word = 0x01010101u * Byte;
      if (hsa_status_t S =
              API.hsa_amd_memory_fill(DevicePtr, Word, size_t(Size) / 4))
        return failure("hsa_amd_memory_fill", S, What);
      return Status::ok();
    }
    return throughStaging(Size, What, [&](void *Staging, bool &Abandoned) {
      std::memset(Staging, Byte, size_t(Size));
      return copy(DevicePtr, Agent, Staging, HostAgent, size_t(Size), What,
                  Abandoned);
    });
  }

  Status launchKernel(KernelHandle Handle, void **Args, uint32_t NumArgs,
                      const KernelLaunchParams &Params,
                      __tgt_async_info *) override {
    auto *Kernel = static_cast<AMDGPUKernel *>(Handle);
    Grid TheGrid{0, 0};
    if (Status S = gridFor(*Kernel, Params, TheGrid))
      return S;
    // The queue stops for good at a kernel's fault: say so rather than
    // queue work that will never run.
    if (hsa_status_t Failed = QueueError.load())
      return Status::error("%s: cannot launch kernel '%s': the HSA queue "
                           "stopped earlier, after kernel '%s': %s",
                           deviceText().c_str(), Kernel->Name.c_str(),
                           lastKernel().c_str(),
                           Runtime.statusString(Failed).c_str());
    LaunchResources Resources{*this, {}, {}};
    void *Kernargs = nullptr;
    if (Status S =
            writeKernargs(*Kernel, Args, NumArgs, TheGrid, Resources, Kernargs))
      return S;
    if (hsa_status_t S =
            API.hsa_signal_create(1, 0, nullptr, &Resources.Signal))
      return failure("hsa_signal_create", S,
                     "for the completion of kernel '" + Kernel->Name + "'");
    std::string What = "kernel '" + Kernel->Name + "'";
    WaitDeadline Deadline(Timeout);
    // LIBOMPTARGET_SHARED_MEMORY_SIZE adds to every launch's dynamic
    // shared memory, as upstream's plugins add it.
    uint32_t Shared = Params.DynCGroupMem + Knobs.SharedMemoryBytes;
    if (Status S = dispatch(*Kernel, TheGrid, Shared, Kernargs,
                            Resources.Signal, Deadline)) {
      Resources.abandon();
      return S;
    }
    HostService.kernelQueued();
    Status Waited = waitForCompletion(Resources.Signal, What,
                                      /*AboutKernel=*/true, Deadline);
    // The kernel's output is out, and a STOP or exit ends the program,
    // before its completion or failure is reported.
    HostService.kernelsCompleted(1, bool(Waited));
    if (Status S = std::move(Waited)) {
      Resources.abandon();
      return Heap.explain(S);
    }
    return Resources.release();
  }

  /// Whether kernels can read pageable host memory (HMM and XNACK).
  bool supportsUnifiedMemory() const override { return UnifiedMemory; }
  bool useZeroCopyMaps() const override {
    return UnifiedMemory && ZeroCopyMapsRequested;
  }

  /// LIBOMPTARGET_INFO's line: the grid launchKernel gives the queue.
  std::string describeLaunch(KernelHandle Handle,
                             const KernelLaunchParams &Params) override {
    auto *Kernel = static_cast<AMDGPUKernel *>(Handle);
    Grid TheGrid{0, 0};
    if (Status S = gridFor(*Kernel, Params, TheGrid))
      return S.message();
    return describeLaunchGrid(TheGrid, Kernel->Config);
  }

  /// For `requires unified_shared_memory` (GPUPlugin::checkRequiresFlags).
  Status checkUnifiedMemory() const {
    std::string Missing = missingForUnifiedMemory(Runtime);
    if (Missing.empty())
      return Status::ok();
    return Status::error("'#pragma omp requires unified_shared_memory' "
                         "cannot be honoured on %s: %s",
                         deviceText().c_str(), Missing.c_str());
  }

  DeviceProperties getProperties() override {
    return queryDeviceProperties(Runtime, Agent, DevicePool);
  }

  void printInfo(FILE *Out) override {
    fprintf(Out, "    Device %d of %d: %s (HSA, %u compute units)\n", Id,
            NumDevices, Name.c_str(), ComputeUnits);
  }

private:
  /// Memory and the completion signal a launch needs until it completes.
  /// When the launch is given up (a queue error, the timeout) the kernel
  /// may still be using them, so they are then left allocated.
  struct LaunchResources {
    AMDGPUDevice &Self;
    std::vector<void *> Allocations;
    hsa_signal_t Signal{};
    /// Frees everything; the first failure is returned.
    Status release() {
      Status First;
      for (void *Ptr : Allocations)
        if (hsa_status_t S = Self.API.hsa_amd_memory_pool_free(Ptr))
          if (!First)
            First = Self.failure("hsa_amd_memory_pool_free", S,
                                 "releasing a kernel's arguments");
      Allocations.clear();
      if (Signal.handle)
        if (hsa_status_t S = Self.API.hsa_signal_destroy(Signal))
          if (!First)
            First = Self.failure("hsa_signal_destroy", S);
      Signal.handle = 0;
      return First;
    }
    void abandon() {
      Allocations.clear();
      Signal.handle = 0;
    }
    // On an early return the launch never started; its own error is the
    // one to report.
    ~LaunchResources() { (void)release(); }
  };

  /// LIBOMPTARGET_STACK_SIZE, as upstream's AMDGPU plugin reads it: the
  /// private segment each work-item gets at least. A kernel's code object
  /// states its own (fixed) size; this only matters for kernels whose stack
  /// the compiler cannot bound (recursion, calls through pointers).
  Status readStackSize() {
    RequestedSize Stack =
        requestedSizeFromEnvironment("LIBOMPTARGET_STACK_SIZE");
    if (!Stack.Error.empty())
      return Status::error("%s: %s", deviceText().c_str(), Stack.Error.c_str());
    if (Stack.Bytes > UINT32_MAX)
      return Status::error("%s: LIBOMPTARGET_STACK_SIZE=%zu is more than a "
                           "dispatch packet can ask for",
                           deviceText().c_str(), Stack.Bytes);
    StackBytes = uint32_t(Stack.Bytes);
    return Status::ok();
  }

  /// The launch's grid: what the kernel's environment and \p Params ask
  /// for, within the agent's limits.
  Status gridFor(const AMDGPUKernel &Kernel, const KernelLaunchParams &Params,
                 Grid &Out) {
    GridLimits Limits;
    Limits.MaxThreadsPerBlock = 256;
    if (MaxWorkgroupSize && MaxWorkgroupSize < 256)
      Limits.MaxThreadsPerBlock = MaxWorkgroupSize;
    Limits.DefaultThreadsPerBlock = 256;
    Limits.MaxBlocks = UINT32_MAX / Limits.MaxThreadsPerBlock;
    Limits.DefaultBlocks = (ComputeUnits ? ComputeUnits : 1) * 4;
    Limits.WarpSize = WavefrontSize ? WavefrontSize : 64;
    Limits.MaxBareThreadsPerBlock = MaxWorkgroupSize ? MaxWorkgroupSize : 1024;
    applyLaunchKnobs(Knobs, Limits);
    std::string Refused =
        chooseLaunchGrid(Kernel.Config, gridRequestOf(Params), Limits, Out);
    if (!Refused.empty())
      return Status::error("%s: cannot launch kernel '%s': %s",
                           deviceText().c_str(), Kernel.Name.c_str(),
                           Refused.c_str());
    return Status::ok();
  }

  /// Allocates and fills the kernel arguments: the launch environment (and
  /// its teams-reduction buffer), the region's arguments, then the implicit
  /// arguments of code object v5 (grid shape). What it allocates goes to
  /// \p Resources.
  Status writeKernargs(const AMDGPUKernel &Kernel, void **Args,
                       uint32_t NumArgs, const Grid &TheGrid,
                       LaunchResources &Resources, void *&Kernargs) {
    std::string ForKernel = "for kernel '" + Kernel.Name + "'";
    LaunchEnvironmentLayout Env{};
    if (uint64_t Bytes = reductionBufferBytes(Kernel.Config)) {
      Status Error;
      void *Buffer = allocateOrExplain(Bytes, AllocKind::Device, Error);
      if (!Buffer)
        return Status::error("%s (the teams-reduction buffer %s)",
                             Error.message().c_str(), ForKernel.c_str());
      Resources.Allocations.push_back(Buffer);
      Env.ReductionBuffer = reinterpret_cast<uint64_t>(Buffer);
    }
    Status Error;
    void *LaunchEnv = allocateOrExplain(sizeof(Env), AllocKind::Device, Error);
    if (!LaunchEnv)
      return Status::error("%s (the launch environment %s)",
                           Error.message().c_str(), ForKernel.c_str());
    Resources.Allocations.push_back(LaunchEnv);
    if (Status S = dataSubmit(LaunchEnv, &Env, sizeof(Env), nullptr))
      return S;
    uint32_t Explicit = (NumArgs + 1) * 8;
    uint32_t KernargBytes = Kernel.KernargSize;
    if (KernargBytes < Explicit + ImplicitArgBytes)
      KernargBytes = Explicit + ImplicitArgBytes;
    if (hsa_status_t S = API.hsa_amd_memory_pool_allocate(
            KernargPool, KernargBytes, 0, &Kernargs))
      return failure("hsa_amd_memory_pool_allocate", S,
                     "allocating the arguments " + ForKernel);
    Resources.Allocations.push_back(Kernargs);
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

  /// Writes the dispatch packet of \p Kernel to the queue and rings its
  /// doorbell; waits (until \p Deadline) while the queue is full.
  Status dispatch(const AMDGPUKernel &Kernel, const Grid &TheGrid,
                  uint32_t DynCGroupMem, void *Kernargs, hsa_signal_t Signal,
                  const WaitDeadline &Deadline) {
    std::string What = "kernel '" + Kernel.Name + "'";
    LockedQueue Locked = Queue.lock();
    hsa_queue_t *Q = *Locked;
    setLastKernel(Kernel.Name);
    uint64_t Index = API.hsa_queue_add_write_index_relaxed(Q, 1);
    // The queue is full: wait for the GPU to consume a packet, unless it
    // has stopped.
    while (Index - API.hsa_queue_load_read_index_scacquire(Q) >= Q->size) {
      if (Status S = queueStopped(What, /*AboutKernel=*/true))
        return S;
      if (Deadline.passed())
        return timeoutError("queueing " + What);
    }
    auto *Packet =
        static_cast<hsa_kernel_dispatch_packet_t *>(Q->base_address) +
        (Index % Q->size);
    // HSA counts the grid in work-items, not work-groups.
    Packet->workgroup_size_x = uint16_t(TheGrid.threads(0));
    Packet->workgroup_size_y = uint16_t(TheGrid.threads(1));
    Packet->workgroup_size_z = uint16_t(TheGrid.threads(2));
    Packet->reserved0 = 0;
    Packet->grid_size_x = TheGrid.blocks(0) * TheGrid.threads(0);
    Packet->grid_size_y = TheGrid.blocks(1) * TheGrid.threads(1);
    Packet->grid_size_z = TheGrid.blocks(2) * TheGrid.threads(2);
    Packet->private_segment_size = std::max(Kernel.PrivateSize, StackBytes);
    Packet->group_segment_size = Kernel.GroupSize + DynCGroupMem;
    Packet->kernel_object = Kernel.KernelObject;
    Packet->kernarg_address = Kernargs;
    Packet->reserved2 = 0;
    Packet->completion_signal = Signal;
    uint16_t Header =
        uint16_t(HSA_PACKET_TYPE_KERNEL_DISPATCH << HSA_PACKET_HEADER_TYPE) |
        uint16_t(1 << HSA_PACKET_HEADER_BARRIER) |
        uint16_t(HSA_FENCE_SCOPE_SYSTEM
                 << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE) |
        uint16_t(HSA_FENCE_SCOPE_SYSTEM
                 << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE);
    uint16_t Setup = TheGrid.dimensions()
                     << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS;
    // The packet becomes valid when its header is written, last and
    // atomically with the setup field.
    __atomic_store_n(reinterpret_cast<uint32_t *>(Packet),
                     uint32_t(Header) | (uint32_t(Setup) << 16),
                     __ATOMIC_RELEASE);
    API.hsa_signal_store_screlease(Q->doorbell_signal,
                                   hsa_signal_value_t(Index));
    return Status::ok();
  }

  /// "AMDGPU device 0 (gfx90a)"; only the number until initialize() has
  /// the agent's name.
  std::string deviceText() const {
    std::string Text = "AMDGPU device " + std::to_string(Id);
    if (!Name.empty())
      Text += " (" + Name + ")";
    return Text;
  }

  /// "<device>: <Call> failed[ <Context>]: <hsa_status_string's text>".
  Status failure(const char *Call, hsa_status_t S,
                 const std::string &Context = std::string()) const {
    return Status::error("%s: %s failed%s%s: %s", deviceText().c_str(), Call,
                         Context.empty() ? "" : " ", Context.c_str(),
                         Runtime.statusString(S).c_str());
  }

  /// Called by HSA, on a thread of its own, when the queue stops on an
  /// error: a kernel's memory fault, trap or illegal instruction, or a bad
  /// packet. The first error is kept for the waits to report.
  static void queueErrorCallback(hsa_status_t Status, hsa_queue_t *,
                                 void *Data) {
    auto *Self = static_cast<AMDGPUDevice *>(Data);
    hsa_status_t Expected = HSA_STATUS_SUCCESS;
    Self->QueueError.compare_exchange_strong(Expected, Status);
  }

  void setLastKernel(const std::string &Kernel) { *LastKernel.lock() = Kernel; }
  std::string lastKernel() const { return *LastKernel.lock(); }

  /// The error of a wait for \p What when the queue has stopped: about the
  /// kernel being waited for (\p AboutKernel), or about other work (a
  /// copy) that the stopped device will not finish either.
  Status queueStopped(const std::string &What, bool AboutKernel) const {
    hsa_status_t Failed = QueueError.load();
    if (!Failed)
      return Status::ok();
    if (AboutKernel)
      return Status::error("%s: %s failed: the HSA queue reported %s",
                           deviceText().c_str(), What.c_str(),
                           Runtime.statusString(Failed).c_str());
    return Status::error("%s: %s failed: the HSA queue stopped after kernel "
                         "'%s': %s",
                         deviceText().c_str(), What.c_str(),
                         lastKernel().c_str(),
                         Runtime.statusString(Failed).c_str());
  }

  Status timeoutError(const std::string &What) const {
    return Status::error(
        "%s: %s did not complete within %llu ms (%s): it is still running "
        "or hung; giving up",
        deviceText().c_str(), What.c_str(),
        static_cast<unsigned long long>(Timeout.Milliseconds),
        KernelTimeoutVariable);
  }

  /// Waits until \p Signal drops below 1 (the completion of \p What), the
  /// queue stops, or \p Deadline passes.
  Status waitForCompletion(hsa_signal_t Signal, const std::string &What,
                           bool AboutKernel, const WaitDeadline &Deadline) {
    // Blocking waits of at most 10 ms: a change of the signal ends a wait
    // at once, and between them the queue's state and the deadline are
    // looked at, so neither is noticed more than 10 ms late.
    uint64_t Slice = TimestampFrequency / 100;
    for (;;) {
      if (API.hsa_signal_wait_scacquire(Signal, HSA_SIGNAL_CONDITION_LT, 1,
                                        Slice, HSA_WAIT_STATE_BLOCKED) < 1)
        return Status::ok();
      if (Status S = queueStopped(What, AboutKernel))
        return S;
      if (Deadline.passed())
        return timeoutError(What);
    }
  }

  /// The pool of device allocations (gpu/DeviceMemoryPool.h) over the
  /// agent's coarse-grained memory pool.
  Status createMemoryPool() {
    MemoryPoolThreshold Threshold = memoryPoolThresholdFromEnvironment();
    if (!Threshold.Error.empty())
      return Status::error("%s: %s", deviceText().c_str(),
                           Threshold.Error.c_str());
    auto Allocate = [this](uint64_t Bytes, uint64_t Requested,
                           Status &Error) -> void * {
      void *Ptr = nullptr;
      if (hsa_status_t S =
              API.hsa_amd_memory_pool_allocate(DevicePool, Bytes, 0, &Ptr)) {
        std::string For =
            "for " + std::to_string(Requested) + " bytes of device memory";
        if (Bytes != Requested)
          For += " (a " + std::to_string(Bytes) +
                 "-byte block of the device memory pool)";
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
    Pool = std::make_unique<DeviceMemoryPool>(Threshold.Bytes, Allocate, Free);
    return Status::ok();
  }

  /// Page-locks host memory with hsa_amd_memory_lock for this device's
  /// agent (an optional entry point: runtimes without it refuse with a
  /// message naming it).
  Status lockWithRuntime(void *Ptr, uint64_t Size, void *&AgentPtr) {
    if (!API.hsa_amd_memory_lock || !API.hsa_amd_memory_unlock)
      return Status::error("%s: cannot lock host memory: the HSA runtime has "
                           "no hsa_amd_memory_lock/hsa_amd_memory_unlock",
                           deviceText().c_str());
    if (hsa_status_t S =
            API.hsa_amd_memory_lock(Ptr, size_t(Size), &Agent, 1, &AgentPtr))
      return failure("hsa_amd_memory_lock", S,
                     "locking " + std::to_string(Size) +
                         " bytes of host memory");
    return Status::ok();
  }
  Status unlockWithRuntime(void *Ptr) {
    if (hsa_status_t S = API.hsa_amd_memory_unlock(Ptr))
      return failure("hsa_amd_memory_unlock", S);
    return Status::ok();
  }

  /// allocate() with the reason for a failure in \p Error.
  void *allocateOrExplain(uint64_t Size, AllocKind Kind, Status &Error) {
    std::string For = "for " + std::to_string(Size) + " bytes";
    void *Ptr = nullptr;
    if (Kind == AllocKind::Device) {
      if (hsa_status_t S =
              API.hsa_amd_memory_pool_allocate(DevicePool, Size, 0, &Ptr)) {
        Error = failure("hsa_amd_memory_pool_allocate", S,
                        For + " of device memory");
        return nullptr;
      }
      return Ptr;
    }
    // Host and shared memory: fine-grained host memory the GPU may access.
    if (hsa_status_t S =
            API.hsa_amd_memory_pool_allocate(HostPool, Size, 0, &Ptr)) {
      Error =
          failure("hsa_amd_memory_pool_allocate", S, For + " of host memory");
      return nullptr;
    }
    if (hsa_status_t S =
            API.hsa_amd_agents_allow_access(1, &Agent, nullptr, Ptr)) {
      Error =
          failure("hsa_amd_agents_allow_access", S, For + " of host memory");
      if (hsa_status_t F = API.hsa_amd_memory_pool_free(Ptr))
        Error = Status::error("%s (and hsa_amd_memory_pool_free failed too: "
                              "%s)",
                              Error.message().c_str(),
                              Runtime.statusString(F).c_str());
      return nullptr;
    }
    return Ptr;
  }

  Status pool(hsa_agent_t Owner, uint32_t Flag, hsa_amd_memory_pool_t &Out,
              const char *What) {
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

  /// Copies with the agents' DMA engines and waits for completion. When the
  /// wait is given up, \p Abandoned is set: the copy may still run, so its
  /// buffers must stay allocated.
  Status copy(void *Dst, hsa_agent_t DstAgent, const void *Src,
              hsa_agent_t SrcAgent, size_t Size, const std::string &What,
              bool &Abandoned) {
    if (Size == 0)
      return Status::ok();
    hsa_signal_t Signal;
    if (hsa_status_t S = API.hsa_signal_create(1, 0, nullptr, &Signal))
      return failure("hsa_signal_create", S, What);
    Status Result;
    if (hsa_status_t S = API.hsa_amd_memory_async_copy(
            Dst, DstAgent, Src, SrcAgent, Size, 0, nullptr, Signal))
      Result = failure("hsa_amd_memory_async_copy", S, What);
    else if ((Result = waitForCompletion(Signal, What, /*AboutKernel=*/false,
                                         WaitDeadline(Timeout)))) {
      Abandoned = true;
      return Result;
    }
    if (hsa_status_t S = API.hsa_signal_destroy(Signal))
      if (!Result)
        Result = failure("hsa_signal_destroy", S, What);
    return Result;
  }

  /// Runs \p Body with a pinned host buffer of \p Size bytes the GPU can
  /// reach (user memory may be pageable).
  template <typename Fn>
  Status throughStaging(int64_t Size, const std::string &What, Fn Body) {
    if (Size <= 0)
      return Status::ok();
    Status Error;
    void *Staging = allocateOrExplain(uint64_t(Size), AllocKind::Host, Error);
    if (!Staging)
      return Status::error("%s (a staging buffer for %s)",
                           Error.message().c_str(), What.c_str());
    bool Abandoned = false;
    Status Result = Body(Staging, Abandoned);
    if (Abandoned)
      return Result;
    if (hsa_status_t S = API.hsa_amd_memory_pool_free(Staging))
      if (!Result)
        Result = failure("hsa_amd_memory_pool_free", S,
                         "releasing the staging buffer for " + What);
    return Result;
  }

  Status writeDeviceEnvironment(LoadedImage *Image) {
    void *Address = nullptr;
    bool Absent = false;
    if (Status S = findGlobal(Image, DeviceEnvironmentSymbol,
                              sizeof(DeviceEnvironmentLayout), Address, Absent))
      return Absent ? Status::ok() : S; // Absent: not our device runtime
    DeviceEnvironmentLayout Env{};
    Env.NumDevices = uint32_t(NumDevices);
    Env.DeviceNum = uint32_t(Id);
    Env.HardwareParallelism = ComputeUnits;
    Env.DeviceDebugKind = deviceRuntimeDebugKind();
    Env.DynamicMemSize = Knobs.SharedMemoryBytes;
    return dataSubmit(Address, &Env, sizeof(Env), nullptr);
  }

  const HSARuntime &Runtime;
  const HSAAPI &API;
  int32_t Id;
  int32_t NumDevices;
  hsa_agent_t Agent;
  hsa_agent_t HostAgent{};
  std::string Name;
  uint32_t MaxWorkgroupSize = 0;
  uint32_t ComputeUnits = 0;
  uint32_t WavefrontSize = 0;
  hsa_amd_memory_pool_t DevicePool{}, HostPool{}, KernargPool{};
  /// The device's queue: packets are written to it with the lock held.
  Guarded<hsa_queue_t *> Queue{nullptr};
  using LockedQueue = Guarded<hsa_queue_t *>::Access;
  /// What queueErrorCallback reported; success while the queue runs.
  std::atomic<hsa_status_t> QueueError{HSA_STATUS_SUCCESS};
  /// The kernel last written to the queue, for errors about it.
  mutable Guarded<std::string> LastKernel;
  uint64_t TimestampFrequency = 0;
  bool UnifiedMemory = false;
  const bool ZeroCopyMapsRequested = zeroCopyMapsRequested();
  const KernelTimeout Timeout = kernelTimeoutFromEnvironment();
  const LaunchKnobs Knobs = launchKnobsFromEnvironment();
  /// LIBOMPTARGET_STACK_SIZE: the private segment (stack) of every
  /// work-item at least this large; 0 leaves each kernel's own size.
  uint32_t StackBytes = 0;
  Guarded<std::vector<std::unique_ptr<AMDGPUKernel>>> Kernels;
  /// Requests from the device (gpu/HostServiceDevice.h).
  DeviceHostService HostService;
  /// The heap behind malloc/new in kernels, reserved at the first image
  /// load that needs it.
  AMDGPUDeviceHeap Heap;
  /// Device allocations (AllocKind::Device); set by initialize().
  std::unique_ptr<DeviceMemoryPool> Pool;
  /// Host memory locked through lockHostMemory.
  PinnedHostMemory Pinned{[this](void *Ptr, uint64_t Size, void *&AgentPtr) {
                            return lockWithRuntime(Ptr, Size, AgentPtr);
                          },
                          [this](void *Ptr) { return unlockWithRuntime(Ptr); }};
};

/// The plugin object: GPUPlugin with the HSA runtime and AMDGPUDevice.
class AMDGPUPlugin final : public GPUPlugin<HSARuntime, AMDGPUDevice> {
public:
  AMDGPUPlugin() : GPUPlugin({"amdgpu", "amdgcn", EM_AMDGPU_MACHINE}) {}
};

} // namespace

// __offload_plugin_create (an AMDGPUPlugin that is never destroyed: no
// queue destruction or hsa_shut_down runs during exit()) and
// __tgt_rtl_set_function_ptr_map.
OFFLOAD_PLUGIN_ENTRY_POINTS(AMDGPUPlugin)
