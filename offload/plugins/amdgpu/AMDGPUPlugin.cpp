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
// and the host's fine-grained pool (pinned host memory, staging buffers,
// kernel arguments from its kernarg pool).
//
// Work is asynchronous, as upstream's plugin makes it: the operations of one
// __tgt_async_info form an in-order chain (AMDGPUWorkChain.h) whose kernels
// are AQL dispatch packets on one of the device's HSA queues
// (AMDGPUQueues.h) and whose copies are hsa_amd_memory_async_copy calls on
// the agents' copy engines, each operation waiting for the completion
// signal of the one before. synchronize() waits for the chain's last
// signal; queryAsync() looks at it without blocking. Without an async info
// an operation gets a chain of its own that is waited for before it
// returns.
//
// Copies between the device and host memory:
// - memory the program locked (llvm_omp_target_lock_mem) is copied by the
//   copy engines directly: the call returns at once, and the memory must
//   stay alive (and locked) until the work is complete;
// - pageable memory of at most LIBOMPTARGET_AMDGPU_MAX_ASYNC_COPY_BYTES
//   goes through a pinned staging buffer: to the device, the bytes are
//   copied into it before the call returns (the caller may reuse its
//   buffer at once); from the device, the host copies them out of it when
//   the chain is waited for (synchronize, or queryAsync reporting it done),
//   which is when the data is the caller's to read;
// - larger pageable ranges are locked (hsa_amd_memory_lock) for the copy's
//   duration and copied directly, so they too must stay alive until the
//   work is complete; if the runtime cannot lock them they are staged.
// An operation that reads or writes host memory now (a copy to the device,
// a direct copy from it) first completes the chain when an earlier staged
// copy from the device writes that memory later, so the chain's order holds
// for host memory too.
//
// The runtime is loaded with dlopen (HSARuntime.h): without it, or without
// a GPU agent, the plugin has zero devices and says why when that matters.
//
// Every HSA call is checked; a failure becomes a Status naming the device,
// the call and hsa_status_string's text. A kernel that faults (a memory
// violation, a trap) stops its queue and is reported only to the queue's
// error callback (AMDGPUQueues.h); every wait wakes up regularly to look at
// it, and at the deadline set by LIBOMPTARGET_KERNEL_TIMEOUT_MS
// (gpu/KernelTimeout.h), instead of waiting forever. A failed chain's
// buffers and signals are left allocated: the device may still use them.
//
//===----------------------------------------------------------------------===//

#include "AMDGPUCodeObjectMetadata.h"
#include "AMDGPUDeviceHeap.h"
#include "AMDGPUDeviceQueries.h"
#include "AMDGPUKnobs.h"
#include "AMDGPUQueues.h"
#include "AMDGPUWorkChain.h"
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
#include "gpu/PinnedHostMemory.h"
#include "gpu/ZeroCopyMaps.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <thread>
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
  /// Each kernel's limits from the code object's AMDHSA metadata note.
  std::map<std::string, offload::amdgpu::KernelMetadata> KernelLimits;
};

struct AMDGPUKernel {
  std::string Name;
  uint64_t KernelObject = 0;
  uint32_t KernargSize = 0;
  uint32_t GroupSize = 0;
  uint32_t PrivateSize = 0;
  /// The largest work-group the kernel was compiled for (its metadata's
  /// .max_flat_workgroup_size); 0 when the code object does not say.
  uint32_t MaxFlatWorkgroupSize = 0;
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

class AMDGPUDevice final : public PluginDevice {
public:
  AMDGPUDevice(const HSARuntime &Runtime, int32_t Id, int32_t NumDevices)
      : Runtime(Runtime), API(Runtime.api()), Id(Id), NumDevices(NumDevices),
        GlobalId(Id), NumGlobalDevices(NumDevices),
        Agent(Runtime.gpuAgents()[size_t(Id)]) {}

  ~AMDGPUDevice() override {
    // A device is destroyed only when its initialize() failed (the plugin
    // object lives until the process ends), before any work: its queues
    // go with Queues, and no chain holds anything.
    for (AMDGPUWorkChain *Chain : *FreeChains.lock())
      delete Chain;
  }

  Status initialize() {
    for (const std::string *Error :
         {&Timeout.Error, &Knobs.Error, &AMDKnobs.Error})
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
    if (Status S = createQueues())
      return S;
    return createMemoryPools();
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
    // The runtime does not report a kernel's largest work-group; the code
    // object's metadata does.
    std::string BadMetadata = offload::amdgpu::readKernelMetadata(
        Image.Start, Image.Size, Loaded->KernelLimits);
    if (!BadMetadata.empty())
      return Status::error("%s cannot load %s: %s", deviceText().c_str(),
                           Image.Description, BadMetadata.c_str());
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
    auto Limits = Loaded->KernelLimits.find(Kernel->Name);
    if (Limits != Loaded->KernelLimits.end())
      Kernel->MaxFlatWorkgroupSize = Limits->second.MaxFlatWorkgroupSize;
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
                    __tgt_async_info *Async) override {
    if (Size <= 0)
      return Status::ok();
    std::string What =
        "copying " + std::to_string(Size) + " bytes to the device";
    return onChain(Async, [&](AMDGPUWorkChain &Chain) -> Status {
      // The host range is read now: an earlier copy into it comes first.
      if (Chain.pendingHostWrite(HostPtr, size_t(Size)))
        if (Status S = drain(Chain))
          return S;
      void *Source = nullptr;
      if (lockForTransfer(Chain, HostPtr, uint64_t(Size), Source))
        return queueCopy(Chain, DevicePtr, Agent, Source, HostAgent,
                         size_t(Size), What);
      void *Staging = nullptr;
      if (Status S = stage(Chain, uint64_t(Size), What, Staging))
        return S;
      std::memcpy(Staging, HostPtr, size_t(Size));
      return queueCopy(Chain, DevicePtr, Agent, Staging, HostAgent,
                       size_t(Size), What);
    });
  }

  Status dataRetrieve(void *HostPtr, const void *DevicePtr, int64_t Size,
                      __tgt_async_info *Async) override {
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
        return queueCopy(Chain, Target, HostAgent, DevicePtr, Agent,
                         size_t(Size), What);
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

  Status dataExchange(const void *SrcDevicePtr, GenericDevice &Dst,
                      void *DstDevicePtr, int64_t Size,
                      __tgt_async_info *Async) override {
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

  Status dataFill(void *DevicePtr, int Value, int64_t Size,
                  __tgt_async_info *Async) override {
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
      return queueCopy(Chain, DevicePtr, Agent, Staging, HostAgent,
                       size_t(Size), What);
    });
  }

  Status launchKernel(KernelHandle Handle, void **Args, uint32_t NumArgs,
                      const KernelLaunchParams &Params,
                      __tgt_async_info *Async) override {
    auto *Kernel = static_cast<AMDGPUKernel *>(Handle);
    Grid TheGrid{0, 0};
    if (Status S = gridFor(*Kernel, Params, TheGrid))
      return S;
    // A queue stops for good at a kernel's fault: say so rather than queue
    // work that will never run.
    QueueFault Fault;
    if (Queues.fault(Fault))
      return Status::error("%s: cannot launch kernel '%s': the HSA queue "
                           "stopped earlier, after kernel '%s': %s",
                           deviceText().c_str(), Kernel->Name.c_str(),
                           Fault.Kernel.c_str(),
                           Runtime.statusString(Fault.Status).c_str());
    // LIBOMPTARGET_SHARED_MEMORY_SIZE adds to every launch's dynamic
    // shared memory, as upstream's plugins add it.
    uint32_t Shared = Params.DynCGroupMem + Knobs.SharedMemoryBytes;
    return onChain(Async, [&](AMDGPUWorkChain &Chain) {
      return queueLaunch(*Kernel, Args, NumArgs, TheGrid, Shared, Chain);
    });
  }

  Status synchronize(__tgt_async_info *Async) override {
    if (!Async || !Async->Queue)
      return Status::ok();
    auto *Chain = static_cast<AMDGPUWorkChain *>(Async->Queue);
    Async->Queue = nullptr;
    return finish(Chain);
  }

  Status queryAsync(__tgt_async_info *Async, bool &Done) override {
    Done = true;
    if (!Async || !Async->Queue)
      return Status::ok();
    auto *Chain = static_cast<AMDGPUWorkChain *>(Async->Queue);
    // Not complete and no queue stopped: still running. Otherwise
    // synchronize() finishes the chain (its wait sees the stopped queue at
    // once) and reports how it ended.
    if (!Chain->empty() && !Chain->Failure &&
        API.hsa_signal_load_scacquire(Chain->Tail) >= 1 && !Queues.stopped()) {
      Done = false;
      return Status::ok();
    }
    return synchronize(Async);
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

  /// HSA's answers, and how the LIBOMPTARGET_AMDGPU_* variables set up
  /// this device.
  DeviceProperties getProperties() override {
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

  void setDeviceNumbering(int32_t GlobalDeviceId,
                          int32_t NumAllDevices) override {
    GlobalId = GlobalDeviceId;
    NumGlobalDevices = NumAllDevices;
  }

  void printInfo(FILE *Out) override {
    fprintf(Out,
            "    Device %d of %d: %s (HSA, %u compute units, %zu HSA queues "
            "of %u packets)\n",
            Id, NumDevices, Name.c_str(), ComputeUnits, Queues.count(),
            Queues.size());
  }

private:
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
    applyLaunchKnobs(Knobs, Limits);
    std::string Refused =
        chooseLaunchGrid(Kernel.Config, gridRequestOf(Params), Limits, Out);
    if (!Refused.empty())
      return Status::error("%s: cannot launch kernel '%s': %s",
                           deviceText().c_str(), Kernel.Name.c_str(),
                           Refused.c_str());
    return Status::ok();
  }

  /// Queues \p Kernel on \p Chain: the copy of its launch environment to
  /// the device where it has one, then the dispatch, which waits for the
  /// chain's last copy, if that is its tail (a barrier-AND packet), and,
  /// through it, for the chain's earlier work.
  Status queueLaunch(const AMDGPUKernel &Kernel, void **Args, uint32_t NumArgs,
                     const Grid &TheGrid, uint32_t DynCGroupMem,
                     AMDGPUWorkChain &Chain) {
    std::string What = "kernel '" + Kernel.Name + "'";
    DispatchRequest Request;
    void *LaunchEnv = nullptr;
    if (Status S = writeLaunchEnvironment(Kernel, Chain, LaunchEnv))
      return S;
    if (Status S = writeKernargs(Kernel, Args, NumArgs, TheGrid, LaunchEnv,
                                 Chain, Request.Kernargs))
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

  /// What a dispatch waiting for room in a full queue gives up at.
  struct RoomWait {
    AMDGPUDevice *Self;
    WaitDeadline Deadline;
  };
  static Status keepWaitingForRoom(void *Context, const std::string &What) {
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

  /// Allocates the launch environment (and its teams-reduction buffer) and
  /// queues the copy of its content on \p Chain; for a kernel without a
  /// teams reduction \p LaunchEnv is null: the device runtime reads it only
  /// there, and a launch that needs none saves two allocations and a copy
  /// ahead of the kernel, as upstream's plugins do.
  Status writeLaunchEnvironment(const AMDGPUKernel &Kernel,
                                AMDGPUWorkChain &Chain, void *&LaunchEnv) {
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
    if (Status S =
            AllocateForChain(Bytes, "the teams-reduction buffer", Buffer))
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

  /// Allocates and fills the kernel arguments: the launch environment, the
  /// region's arguments, then the implicit arguments of code object v5
  /// (grid shape). They are \p Chain's until it completes.
  Status writeKernargs(const AMDGPUKernel &Kernel, void **Args,
                       uint32_t NumArgs, const Grid &TheGrid, void *LaunchEnv,
                       AMDGPUWorkChain &Chain, void *&Kernargs) {
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

  Status timeoutError(const std::string &What) const {
    return Status::error(
        "%s: %s did not complete within %llu ms (%s): it is still running "
        "or hung; giving up",
        deviceText().c_str(), What.c_str(),
        static_cast<unsigned long long>(Timeout.Milliseconds),
        KernelTimeoutVariable);
  }

  /// What \p Chain is waiting for, for messages: its last kernel, or its
  /// last operation when it queued no kernel.
  static std::string pendingWork(const AMDGPUWorkChain &Chain) {
    if (!Chain.KernelsSinceWait)
      return Chain.LastWork;
    std::string Which = "kernel '" + Chain.LastKernel + "'";
    if (Chain.KernelsSinceWait > 1)
      Which += " (the last of " + std::to_string(Chain.KernelsSinceWait) +
               " kernels queued on its async info)";
    return Which;
  }

  /// The error of a wait for \p Chain once a queue has stopped: about the
  /// kernel the queue stopped at when the chain's kernels were on that
  /// queue, else about the chain's work, which the stopped device will not
  /// finish either.
  Status chainStopped(const AMDGPUWorkChain &Chain) const {
    QueueFault Fault;
    if (!Queues.fault(Fault))
      return Status::ok();
    std::string Reported = Runtime.statusString(Fault.Status);
    if (Chain.KernelsSinceWait && Fault.Queue == Chain.Queue)
      return Status::error("%s: kernel '%s' failed: the HSA queue reported %s",
                           deviceText().c_str(), Fault.Kernel.c_str(),
                           Reported.c_str());
    return Status::error("%s: %s failed: the HSA queue stopped after kernel "
                         "'%s': %s",
                         deviceText().c_str(), pendingWork(Chain).c_str(),
                         Fault.Kernel.c_str(), Reported.c_str());
  }

  /// Waits until \p Chain's last signal drops below 1, a queue stops, or
  /// LIBOMPTARGET_KERNEL_TIMEOUT_MS passes.
  Status waitForChain(const AMDGPUWorkChain &Chain) {
    if (Chain.empty())
      return Status::ok();
    WaitDeadline Deadline(Timeout);
    // Blocking waits of at most 10 ms: a change of the signal ends a wait
    // at once, and between them the queues' state and the deadline are
    // looked at, so neither is noticed more than 10 ms late.
    uint64_t Slice = TimestampFrequency / 100;
    for (;;) {
      if (API.hsa_signal_wait_scacquire(Chain.Tail, HSA_SIGNAL_CONDITION_LT, 1,
                                        Slice, HSA_WAIT_STATE_BLOCKED) < 1)
        return Status::ok();
      if (Status S = chainStopped(Chain))
        return S;
      if (Deadline.passed())
        return timeoutError(pendingWork(Chain));
    }
  }

  /// Waits for \p Chain, makes its deferred host copies and releases what
  /// its operations used, keeping the chain for more work. A chain whose
  /// wait failed keeps its error (and everything it holds: the device may
  /// still use it) and reports the error again to later calls.
  Status drain(AMDGPUWorkChain &Chain) {
    if (Chain.Failure)
      return Chain.Failure;
    Status Waited = waitForChain(Chain);
    // The kernels' output is out, and a STOP or exit ends the program,
    // before their completion or failure is reported.
    if (Chain.KernelsSinceWait)
      HostService.kernelsCompleted(Chain.KernelsSinceWait, bool(Waited));
    if (Waited) {
      Chain.Failure =
          Chain.KernelsSinceWait ? Heap.explain(std::move(Waited)) : Waited;
      return Chain.Failure;
    }
    for (const DeferredHostCopy &Copy : Chain.HostCopies)
      std::memcpy(Copy.Dst, Copy.Src, Copy.Size);
    Status Released = release(Chain);
    Chain.reset();
    return Released;
  }

  /// Returns what \p Chain's completed operations used; the first failure
  /// is returned, everything else is still released.
  Status release(AMDGPUWorkChain &Chain) {
    Status First;
    auto Keep = [&](Status S) {
      if (S && !First)
        First = std::move(S);
    };
    for (void *Ptr : Chain.RuntimeAllocations)
      if (hsa_status_t S = API.hsa_amd_memory_pool_free(Ptr))
        Keep(failure("hsa_amd_memory_pool_free", S,
                     "releasing a kernel's arguments or launch environment"));
    for (void *Ptr : Chain.StagingBuffers)
      Keep(Staging->free(Ptr));
    for (void *Ptr : Chain.TransferLocks)
      Keep(Pinned.unlock(Ptr));
    SignalPool.release(Chain.Signals);
    return First;
  }

  /// A chain for new work, on the next queue.
  AMDGPUWorkChain *takeChain() {
    AMDGPUWorkChain *Chain = nullptr;
    {
      Guarded<std::vector<AMDGPUWorkChain *>>::Access Free = FreeChains.lock();
      if (!Free->empty()) {
        Chain = Free->back();
        Free->pop_back();
      }
    }
    if (!Chain)
      Chain = new AMDGPUWorkChain();
    Chain->Queue = Queues.pick();
    return Chain;
  }

  /// Drains \p Chain and takes it back for reuse; a failed chain is not
  /// reused (what it holds may still be in use) and is forgotten.
  Status finish(AMDGPUWorkChain *Chain) {
    Status Result = drain(*Chain);
    if (Chain->Failure) {
      delete Chain;
      return Result;
    }
    FreeChains.lock()->push_back(Chain);
    return Result;
  }

  /// Runs \p Body with the chain of \p Async (taken on first use); without
  /// an async info, with a chain of its own that is finished before this
  /// returns, so the operation is complete.
  template <typename Fn> Status onChain(__tgt_async_info *Async, Fn Body) {
    if (Async) {
      if (!Async->Queue)
        Async->Queue = takeChain();
      return Body(*static_cast<AMDGPUWorkChain *>(Async->Queue));
    }
    AMDGPUWorkChain *Chain = takeChain();
    Status Queued = Body(*Chain);
    // What was queued before a failure still runs: wait for it too.
    Status Finished = finish(Chain);
    return Queued ? Queued : Finished;
  }

  /// Queues a copy on \p Chain, after its last operation.
  Status queueCopy(AMDGPUWorkChain &Chain, void *Dst, hsa_agent_t DstAgent,
                   const void *Src, hsa_agent_t SrcAgent, size_t Size,
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

  /// A staging buffer of \p Size bytes the copy engines reach, \p Chain's
  /// until it completes.
  Status stage(AMDGPUWorkChain &Chain, uint64_t Size, const std::string &What,
               void *&Out) {
    Status Error;
    Out = Staging->allocate(Size, Error);
    if (!Out)
      return Status::error("%s (a staging buffer for %s)",
                           Error.message().c_str(), What.c_str());
    Chain.StagingBuffers.push_back(Out);
    return Status::ok();
  }

  /// Whether a copy of [HostPtr, HostPtr+Size) goes to or from that memory
  /// directly: memory the program locked, or pageable memory above
  /// LIBOMPTARGET_AMDGPU_MAX_ASYNC_COPY_BYTES (locked for the copy).
  bool copiesDirectly(const void *HostPtr, uint64_t Size) {
    void *Locked = nullptr;
    if (Pinned.isLocked(HostPtr, Size, Locked))
      return true;
    return Size > AMDKnobs.MaxAsyncCopyBytes && API.hsa_amd_memory_lock &&
           API.hsa_amd_memory_unlock;
  }

  /// For a copy that goes directly (copiesDirectly): takes one more lock
  /// of the range, \p Chain's until it completes (so an unlock by the
  /// program cannot unpin memory a copy still uses), and sets \p AgentPtr
  /// to the address the copy engines use. False: stage the copy instead
  /// (pageable memory of at most the limit, or a range the runtime would
  /// not lock).
  bool lockForTransfer(AMDGPUWorkChain &Chain, const void *HostPtr,
                       uint64_t Size, void *&AgentPtr) {
    if (!copiesDirectly(HostPtr, Size))
      return false;
    if (Pinned.lock(const_cast<void *>(HostPtr), Size, AgentPtr))
      return false;
    Chain.TransferLocks.push_back(const_cast<void *>(HostPtr));
    return true;
  }

  /// The device's queues (AMDGPUQueues.h), as many and as large as the
  /// LIBOMPTARGET_AMDGPU_* variables say within the agent's limit.
  Status createQueues() {
    uint32_t MaxSize = 0;
    if (hsa_status_t S = API.hsa_agent_get_info(
            Agent, HSA_AGENT_INFO_QUEUE_MAX_SIZE, &MaxSize))
      return failure("hsa_agent_get_info(QUEUE_MAX_SIZE)", S);
    uint32_t Size = hsaQueueSize(AMDKnobs.QueueSize, MaxSize);
    hsa_status_t Failed = HSA_STATUS_SUCCESS;
    if (!Queues.create(Agent, AMDKnobs.NumQueues, Size, Failed))
      return failure("hsa_queue_create", Failed,
                     "for queue " + std::to_string(Queues.count() + 1) +
                         " of " + std::to_string(AMDKnobs.NumQueues) + " (" +
                         std::to_string(Size) + " packets)");
    return Status::ok();
  }

  /// The pool of device allocations (gpu/DeviceMemoryPool.h) over the
  /// agent's coarse-grained memory pool, and the pool of staging buffers
  /// over the host's fine-grained one (buffers of up to
  /// LIBOMPTARGET_AMDGPU_MAX_ASYNC_COPY_BYTES are kept for reuse).
  Status createMemoryPools() {
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
    auto AllocateStaging = [this](uint64_t Bytes, uint64_t,
                                  Status &Error) -> void * {
      return allocateOrExplain(Bytes, AllocKind::Host, Error);
    };
    uint64_t Kept = std::max<uint64_t>(AMDKnobs.MaxAsyncCopyBytes,
                                       DeviceMemoryPool::MinBlockBytes);
    Staging = std::make_unique<DeviceMemoryPool>(Kept, AllocateStaging, Free);
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

  Status writeDeviceEnvironment(LoadedImage *Image) {
    void *Address = nullptr;
    bool Absent = false;
    if (Status S = findGlobal(Image, DeviceEnvironmentSymbol,
                              sizeof(DeviceEnvironmentLayout), Address, Absent))
      return Absent ? Status::ok() : S; // Absent: not our device runtime
    DeviceEnvironmentLayout Env{};
    // The program's numbering, for omp_get_device_num/omp_get_num_devices
    // (upstream writes the plugin's own, wrong beside another plugin).
    Env.NumDevices = uint32_t(NumGlobalDevices);
    Env.DeviceNum = uint32_t(GlobalId);
    Env.HardwareParallelism = ComputeUnits;
    Env.DeviceDebugKind = deviceRuntimeDebugKind();
    Env.DynamicMemSize = Knobs.SharedMemoryBytes;
    return dataSubmit(Address, &Env, sizeof(Env), nullptr);
  }

  const HSARuntime &Runtime;
  const HSAAPI &API;
  int32_t Id;
  int32_t NumDevices;
  /// The device's number among all devices of the process, and their count.
  int32_t GlobalId, NumGlobalDevices;
  hsa_agent_t Agent;
  hsa_agent_t HostAgent{};
  std::string Name;
  uint32_t MaxWorkgroupSize = 0;
  uint32_t ComputeUnits = 0;
  uint32_t WavefrontSize = 0;
  hsa_amd_memory_pool_t DevicePool{}, HostPool{}, KernargPool{};
  /// LIBOMPTARGET_AMDGPU_* (AMDGPUKnobs.h).
  const AMDGPUKnobs AMDKnobs = amdgpuKnobsFromEnvironment();
  /// The HSA queues kernels are dispatched to; set up by initialize().
  AMDGPUQueues Queues{API};
  /// Completion signals of finished work, for reuse.
  HSASignalPool SignalPool{API};
  /// Chains (one per async info in use) not in use now.
  Guarded<std::vector<AMDGPUWorkChain *>> FreeChains;
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
  /// Staging buffers between pageable host memory and the device.
  std::unique_ptr<DeviceMemoryPool> Staging;
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
