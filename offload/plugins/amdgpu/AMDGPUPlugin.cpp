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
//===----------------------------------------------------------------------===//

#include "HSARuntime.h"
#include "IndirectCallInstall.h"
#include "PluginDevice.h"
#include "PluginEntryPoints.h"
#include "PluginInterface.h"
#include "gpu/GPUPlugin.h"
#include "gpu/KernelGrid.h"

#include <atomic>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

using namespace offload::plugin;
using namespace offload::plugin::hsa;

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
};

hsa_status_t findPool(hsa_amd_memory_pool_t Pool, void *Data) {
  auto *Search = static_cast<PoolSearch *>(Data);
  int Segment = -1;
  uint32_t Flags = 0;
  bool Allowed = false;
  if (Search->API->hsa_amd_memory_pool_get_info(
          Pool, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &Segment) ||
      Segment != HSA_AMD_SEGMENT_GLOBAL)
    return HSA_STATUS_SUCCESS;
  if (Search->API->hsa_amd_memory_pool_get_info(
          Pool, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED, &Allowed) ||
      !Allowed)
    return HSA_STATUS_SUCCESS;
  if (Search->API->hsa_amd_memory_pool_get_info(
          Pool, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &Flags) ||
      !(Flags & Search->WantedFlag))
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
    if (Queue)
      API.hsa_queue_destroy(Queue);
  }

  Status initialize() {
    char AgentName[64] = {0};
    API.hsa_agent_get_info(Agent, HSA_AGENT_INFO_NAME, AgentName);
    Name = AgentName;
    API.hsa_agent_get_info(Agent, HSA_AGENT_INFO_WORKGROUP_MAX_SIZE,
                           &MaxWorkgroupSize);
    API.hsa_agent_get_info(Agent, HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT,
                           &ComputeUnits);
    API.hsa_agent_get_info(Agent, HSA_AGENT_INFO_WAVEFRONT_SIZE,
                           &WavefrontSize);
    if (Runtime.cpuAgents().empty())
      return Status::error("AMDGPU device %d (%s): HSA reports no CPU agent "
                           "to allocate host memory from",
                           Id, Name.c_str());
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
    API.hsa_agent_get_info(Agent, HSA_AGENT_INFO_QUEUE_MAX_SIZE, &QueueSize);
    if (QueueSize == 0 || QueueSize > 4096)
      QueueSize = 4096;
    if (hsa_status_t S = API.hsa_queue_create(
            Agent, QueueSize, HSA_QUEUE_TYPE_MULTIPLE, nullptr, nullptr,
            UINT32_MAX, UINT32_MAX, &Queue))
      return failure("hsa_queue_create", S);
    return Status::ok();
  }

  Status loadDeviceImage(const DeviceImageRef &Image,
                         LoadedImage *&Out) override {
    auto Loaded = std::make_unique<AMDGPUImage>();
    Loaded->Description = Image.Description;
    auto Fail = [&](const char *What, hsa_status_t S) {
      return Status::error("AMDGPU device %d (%s) cannot load %s: %s failed: "
                           "%s",
                           Id, Name.c_str(), Image.Description, What,
                           Runtime.statusString(S).c_str());
    };
    if (hsa_status_t S = API.hsa_code_object_reader_create_from_memory(
            Image.Start, Image.Size, &Loaded->Reader))
      return Fail("reading the code object", S);
    if (hsa_status_t S = API.hsa_executable_create_alt(
            HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, "",
            &Loaded->Executable)) {
      API.hsa_code_object_reader_destroy(Loaded->Reader);
      return Fail("creating an executable", S);
    }
    hsa_status_t S = API.hsa_executable_load_agent_code_object(
        Loaded->Executable, Agent, Loaded->Reader, "", nullptr);
    if (!S)
      S = API.hsa_executable_freeze(Loaded->Executable, "");
    if (S) {
      API.hsa_executable_destroy(Loaded->Executable);
      API.hsa_code_object_reader_destroy(Loaded->Reader);
      return Fail("loading the code object for this GPU (is the image built "
                  "for its gfx target?)",
                  S);
    }
    LoadedImage *Raw = Loaded.release();
    if (Status St = writeDeviceEnvironment(Raw)) {
      (void)unloadDeviceImage(Raw);
      return St;
    }
    Out = Raw;
    return Status::ok();
  }

  Status unloadDeviceImage(LoadedImage *Image) override {
    auto *Loaded = static_cast<AMDGPUImage *>(Image);
    hsa_status_t S = API.hsa_executable_destroy(Loaded->Executable);
    API.hsa_code_object_reader_destroy(Loaded->Reader);
    delete Loaded;
    return S ? failure("hsa_executable_destroy", S) : Status::ok();
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
      return Status::error("kernel '%s' not found in %s: %s", KernelName,
                           Loaded->Description.c_str(),
                           Runtime.statusString(S).c_str());
    API.hsa_executable_symbol_get_info(Symbol,
                                       HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT,
                                       &Kernel->KernelObject);
    API.hsa_executable_symbol_get_info(
        Symbol, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE,
        &Kernel->KernargSize);
    API.hsa_executable_symbol_get_info(
        Symbol, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE,
        &Kernel->GroupSize);
    API.hsa_executable_symbol_get_info(
        Symbol, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE,
        &Kernel->PrivateSize);
    void *EnvAddress = nullptr;
    std::string EnvName = std::string(KernelName) + "_kernel_environment";
    if (!getGlobal(Image, EnvName.c_str(), sizeof(KernelEnvironmentLayout),
                   EnvAddress)) {
      KernelEnvironmentLayout Env;
      if (Status S = dataRetrieve(&Env, EnvAddress, sizeof(Env), nullptr))
        return S;
      Kernel->Config = Env.Configuration;
    }
    std::lock_guard<std::mutex> Guard(Lock);
    Kernels.push_back(std::move(Kernel));
    Out = Kernels.back().get();
    return Status::ok();
  }

  Status getGlobal(LoadedImage *Image, const char *GlobalName, uint64_t Size,
                   void *&DeviceAddress) override {
    auto *Loaded = static_cast<AMDGPUImage *>(Image);
    hsa_executable_symbol_t Symbol;
    if (hsa_status_t S = API.hsa_executable_get_symbol_by_name(
            Loaded->Executable, GlobalName, &Agent, &Symbol))
      return Status::error("global '%s' not found in %s: %s", GlobalName,
                           Loaded->Description.c_str(),
                           Runtime.statusString(S).c_str());
    uint64_t Address = 0;
    uint32_t Bytes = 0;
    API.hsa_executable_symbol_get_info(
        Symbol, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS, &Address);
    API.hsa_executable_symbol_get_info(
        Symbol, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SIZE, &Bytes);
    if (Size && Bytes != Size)
      return Status::error("global '%s' in %s has %u bytes on the device but "
                           "%llu on the host",
                           GlobalName, Loaded->Description.c_str(), Bytes,
                           static_cast<unsigned long long>(Size));
    DeviceAddress = reinterpret_cast<void *>(Address);
    return Status::ok();
  }

  void *allocate(uint64_t Size, AllocKind Kind) override {
    if (Size == 0)
      return nullptr;
    void *Ptr = nullptr;
    if (Kind == AllocKind::Device)
      return API.hsa_amd_memory_pool_allocate(DevicePool, Size, 0, &Ptr)
                 ? nullptr
                 : Ptr;
    // Host and shared memory: fine-grained host memory the GPU may access.
    if (API.hsa_amd_memory_pool_allocate(HostPool, Size, 0, &Ptr))
      return nullptr;
    if (API.hsa_amd_agents_allow_access(1, &Agent, nullptr, Ptr)) {
      API.hsa_amd_memory_pool_free(Ptr);
      return nullptr;
    }
    return Ptr;
  }

  Status free(void *Ptr, AllocKind) override {
    if (hsa_status_t S = API.hsa_amd_memory_pool_free(Ptr))
      return failure("hsa_amd_memory_pool_free", S);
    return Status::ok();
  }

  Status dataSubmit(void *DevicePtr, const void *HostPtr, int64_t Size,
                    __tgt_async_info *) override {
    return throughStaging(Size, [&](void *Staging) -> Status {
      std::memcpy(Staging, HostPtr, size_t(Size));
      return copy(DevicePtr, Agent, Staging, HostAgent, size_t(Size));
    });
  }

  Status dataRetrieve(void *HostPtr, const void *DevicePtr, int64_t Size,
                      __tgt_async_info *) override {
    return throughStaging(Size, [&](void *Staging) -> Status {
      if (Status S = copy(Staging, HostAgent, DevicePtr, Agent, size_t(Size)))
        return S;
      std::memcpy(HostPtr, Staging, size_t(Size));
      return Status::ok();
    });
  }

  Status dataExchange(const void *SrcDevicePtr, GenericDevice &Dst,
                      void *DstDevicePtr, int64_t Size,
                      __tgt_async_info *) override {
    auto &Other = static_cast<AMDGPUDevice &>(Dst);
    return copy(DstDevicePtr, Other.Agent, SrcDevicePtr, Agent, size_t(Size));
  }

  Status dataFill(void *DevicePtr, int Value, int64_t Size,
                  __tgt_async_info *) override {
    uint8_t Byte = uint8_t(Value);
    if (reinterpret_cast<uintptr_t>(DevicePtr) % 4 == 0 && Size % 4 == 0) {
      uint32_t Word = 0x01010101u * Byte;
      if (hsa_status_t S =
              API.hsa_amd_memory_fill(DevicePtr, Word, size_t(Size) / 4))
        return failure("hsa_amd_memory_fill", S);
      return Status::ok();
    }
    return throughStaging(Size, [&](void *Staging) -> Status {
      std::memset(Staging, Byte, size_t(Size));
      return copy(DevicePtr, Agent, Staging, HostAgent, size_t(Size));
    });
  }

  Status launchKernel(KernelHandle Handle, void **Args, uint32_t NumArgs,
                      const KernelLaunchParams &Params,
                      __tgt_async_info *) override {
    auto *Kernel = static_cast<AMDGPUKernel *>(Handle);
    GridLimits Limits;
    Limits.MaxThreadsPerBlock = 256;
    if (MaxWorkgroupSize && MaxWorkgroupSize < 256)
      Limits.MaxThreadsPerBlock = MaxWorkgroupSize;
    Limits.DefaultThreadsPerBlock = 256;
    Limits.MaxBlocks = UINT32_MAX / Limits.MaxThreadsPerBlock;
    Limits.DefaultBlocks = (ComputeUnits ? ComputeUnits : 1) * 4;
    Limits.WarpSize = WavefrontSize ? WavefrontSize : 64;
    GridRequest Request;
    Request.NumTeams = Params.NumTeams;
    Request.ThreadLimit = Params.ThreadLimit;
    Request.Tripcount = Params.Tripcount;
    Grid TheGrid = chooseGrid(Kernel->Config, Request, Limits);

    // Memory the launch needs until it completes.
    struct Scoped {
      AMDGPUDevice &Self;
      std::vector<void *> Allocations;
      hsa_signal_t Signal{};
      ~Scoped() {
        for (void *Ptr : Allocations)
          Self.API.hsa_amd_memory_pool_free(Ptr);
        if (Signal.handle)
          Self.API.hsa_signal_destroy(Signal);
      }
    } Resources{*this, {}, {}};

    LaunchEnvironmentLayout Env{};
    if (uint64_t Bytes = reductionBufferBytes(Kernel->Config)) {
      void *Buffer = allocate(Bytes, AllocKind::Device);
      if (!Buffer)
        return Status::error("AMDGPU device %d: cannot allocate the %llu-byte "
                             "teams-reduction buffer of kernel '%s'",
                             Id, static_cast<unsigned long long>(Bytes),
                             Kernel->Name.c_str());
      Resources.Allocations.push_back(Buffer);
      Env.ReductionBuffer = reinterpret_cast<uint64_t>(Buffer);
    }
    void *LaunchEnv = allocate(sizeof(Env), AllocKind::Device);
    if (!LaunchEnv)
      return Status::error("AMDGPU device %d: cannot allocate the launch "
                           "environment of kernel '%s'",
                           Id, Kernel->Name.c_str());
    Resources.Allocations.push_back(LaunchEnv);
    if (Status S = dataSubmit(LaunchEnv, &Env, sizeof(Env), nullptr))
      return S;

    // Kernel arguments: the launch environment, the region's arguments, then
    // the implicit arguments of code object v5 (grid shape).
    uint32_t Explicit = (NumArgs + 1) * 8;
    uint32_t KernargBytes = Kernel->KernargSize;
    if (KernargBytes < Explicit + ImplicitArgBytes)
      KernargBytes = Explicit + ImplicitArgBytes;
    void *Kernargs = nullptr;
    if (hsa_status_t S = API.hsa_amd_memory_pool_allocate(
            KernargPool, KernargBytes, 0, &Kernargs))
      return failure("allocating kernel arguments", S);
    Resources.Allocations.push_back(Kernargs);
    API.hsa_amd_agents_allow_access(1, &Agent, nullptr, Kernargs);
    std::memset(Kernargs, 0, KernargBytes);
    auto *Words = static_cast<uint64_t *>(Kernargs);
    Words[0] = reinterpret_cast<uint64_t>(LaunchEnv);
    for (uint32_t I = 0; I < NumArgs; ++I)
      Words[I + 1] = reinterpret_cast<uint64_t>(Args[I]);
    auto *Implicit = static_cast<uint8_t *>(Kernargs) + Explicit;
    uint32_t BlockCount[3] = {TheGrid.Blocks, 1, 1};
    uint16_t GroupSize[3] = {uint16_t(TheGrid.ThreadsPerBlock), 1, 1};
    uint16_t GridDims = 1;
    std::memcpy(Implicit + 0, BlockCount, sizeof(BlockCount));
    std::memcpy(Implicit + 12, GroupSize, sizeof(GroupSize));
    std::memcpy(Implicit + 64, &GridDims, sizeof(GridDims));

    if (hsa_status_t S =
            API.hsa_signal_create(1, 0, nullptr, &Resources.Signal))
      return failure("hsa_signal_create", S);

    {
      std::lock_guard<std::mutex> Guard(QueueLock);
      uint64_t Index = API.hsa_queue_add_write_index_relaxed(Queue, 1);
      while (Index - API.hsa_queue_load_read_index_scacquire(Queue) >=
             Queue->size)
        ; // the queue is full: wait for the GPU to consume a packet
      auto *Packet =
          static_cast<hsa_kernel_dispatch_packet_t *>(Queue->base_address) +
          (Index % Queue->size);
      Packet->workgroup_size_x = uint16_t(TheGrid.ThreadsPerBlock);
      Packet->workgroup_size_y = 1;
      Packet->workgroup_size_z = 1;
      Packet->reserved0 = 0;
      Packet->grid_size_x = TheGrid.Blocks * TheGrid.ThreadsPerBlock;
      Packet->grid_size_y = 1;
      Packet->grid_size_z = 1;
      Packet->private_segment_size = Kernel->PrivateSize;
      Packet->group_segment_size = Kernel->GroupSize + Params.DynCGroupMem;
      Packet->kernel_object = Kernel->KernelObject;
      Packet->kernarg_address = Kernargs;
      Packet->reserved2 = 0;
      Packet->completion_signal = Resources.Signal;
      uint16_t Header =
          uint16_t(HSA_PACKET_TYPE_KERNEL_DISPATCH << HSA_PACKET_HEADER_TYPE) |
          uint16_t(1 << HSA_PACKET_HEADER_BARRIER) |
          uint16_t(HSA_FENCE_SCOPE_SYSTEM
                   << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE) |
          uint16_t(HSA_FENCE_SCOPE_SYSTEM
                   << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE);
      uint16_t Setup = 1 << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS;
      // The packet becomes valid when its header is written, last and
      // atomically with the setup field.
      __atomic_store_n(reinterpret_cast<uint32_t *>(Packet),
                       uint32_t(Header) | (uint32_t(Setup) << 16),
                       __ATOMIC_RELEASE);
      API.hsa_signal_store_screlease(Queue->doorbell_signal,
                                     hsa_signal_value_t(Index));
    }
    while (API.hsa_signal_wait_scacquire(Resources.Signal,
                                         HSA_SIGNAL_CONDITION_LT, 1, UINT64_MAX,
                                         HSA_WAIT_STATE_BLOCKED) != 0)
      ;
    return Status::ok();
  }

  bool supportsUnifiedMemory() const override { return false; }

  void printInfo(FILE *Out) override {
    fprintf(Out, "    Device %d of %d: %s (HSA, %u compute units)\n", Id,
            NumDevices, Name.c_str(), ComputeUnits);
  }

private:
  Status failure(const char *What, hsa_status_t S) const {
    return Status::error("AMDGPU device %d (%s): %s failed: %s", Id,
                         Name.c_str(), What, Runtime.statusString(S).c_str());
  }

  Status pool(hsa_agent_t Owner, uint32_t Flag, hsa_amd_memory_pool_t &Out,
              const char *What) {
    PoolSearch Search{&API, Flag};
    API.hsa_amd_agent_iterate_memory_pools(Owner, findPool, &Search);
    if (!Search.Ok)
      return Status::error("AMDGPU device %d (%s): HSA offers no memory pool "
                           "for %s",
                           Id, Name.c_str(), What);
    Out = Search.Found;
    return Status::ok();
  }

  /// Copies with the agents' DMA engines and waits for completion.
  Status copy(void *Dst, hsa_agent_t DstAgent, const void *Src,
              hsa_agent_t SrcAgent, size_t Size) {
    if (Size == 0)
      return Status::ok();
    hsa_signal_t Signal;
    if (hsa_status_t S = API.hsa_signal_create(1, 0, nullptr, &Signal))
      return failure("hsa_signal_create", S);
    hsa_status_t S = API.hsa_amd_memory_async_copy(Dst, DstAgent, Src, SrcAgent,
                                                   Size, 0, nullptr, Signal);
    if (!S)
      while (API.hsa_signal_wait_scacquire(Signal, HSA_SIGNAL_CONDITION_LT, 1,
                                           UINT64_MAX,
                                           HSA_WAIT_STATE_BLOCKED) != 0)
        ;
    API.hsa_signal_destroy(Signal);
    return S ? failure("hsa_amd_memory_async_copy", S) : Status::ok();
  }

  /// Runs \p Body with a pinned host buffer of \p Size bytes the GPU can
  /// reach (user memory may be pageable).
  template <typename Fn> Status throughStaging(int64_t Size, Fn Body) {
    if (Size <= 0)
      return Status::ok();
    void *Staging = allocate(uint64_t(Size), AllocKind::Host);
    if (!Staging)
      return Status::error("AMDGPU device %d: cannot allocate %lld bytes of "
                           "pinned host memory for a copy",
                           Id, static_cast<long long>(Size));
    Status Result = Body(Staging);
    API.hsa_amd_memory_pool_free(Staging);
    return Result;
  }

  Status writeDeviceEnvironment(LoadedImage *Image) {
    void *Address = nullptr;
    if (getGlobal(Image, DeviceEnvironmentSymbol,
                  sizeof(DeviceEnvironmentLayout), Address))
      return Status::ok(); // not linked with our device runtime
    DeviceEnvironmentLayout Env{};
    Env.NumDevices = uint32_t(NumDevices);
    Env.DeviceNum = uint32_t(Id);
    Env.HardwareParallelism = ComputeUnits;
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
  hsa_queue_t *Queue = nullptr;
  std::mutex Lock, QueueLock;
  std::vector<std::unique_ptr<AMDGPUKernel>> Kernels;
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
