//===- AMDGPUDevice.h - One AMD GPU agent -----------------------*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The device of libomptarget.rtl.amdgpu (AMDGPUPlugin.cpp says what the
// plugin does). Its members are defined by what happens there: agent setup
// and properties (AMDGPUDeviceSetup.cpp), memory and copies
// (AMDGPUMemory.cpp), code objects and symbols (AMDGPUImages.cpp), kernels
// and launch (AMDGPULaunch.cpp), the work chains of queues and signals and
// the waits on them (AMDGPUChains.cpp). What it does as the CUDA device does
// (numbering, locking, the memory pool, the grid and the launch line) is
// gpu/GPUDevice.h's.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_PLUGINS_AMDGPU_AMDGPUDEVICE_H
#define OFFLOAD_PLUGINS_AMDGPU_AMDGPUDEVICE_H

#include "AMDGPUCodeObjectMetadata.h"
#include "AMDGPUDeviceHeap.h"
#include "AMDGPUDeviceQueries.h"
#include "AMDGPUKernelTrace.h"
#include "AMDGPUKnobs.h"
#include "AMDGPUQueues.h"
#include "AMDGPUWorkChain.h"
#include "Guarded.h"
#include "HSARuntime.h"
#include "IndirectCallInstall.h"
#include "PluginEntryPoints.h"
#include "PluginInterface.h"
#include "gpu/AllocationReport.h"
#include "gpu/DeviceLimits.h"
#include "gpu/DeviceRuntimeDebug.h"
#include "gpu/GPUDevice.h"
#include "gpu/KernelGrid.h"
#include "gpu/SharedMemoryLimit.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace offload::plugin::hsa {

/// ELF machine number of AMD GPU code objects.
constexpr uint16_t EM_AMDGPU_MACHINE = 224;

/// LDS a work-group may have on the GPUs the plugin knows (gfx9 to gfx11;
/// HSA gives no per-agent figure). A dispatch asking more stops the queue.
constexpr uint64_t GroupMemoryPerWorkGroup = 64 * 1024;

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

struct AMDGPUKernel : GPUKernel {
  uint64_t KernelObject = 0;
  uint32_t KernargSize = 0;
  uint32_t GroupSize = 0;
  uint32_t PrivateSize = 0;
  /// The largest work-group the kernel was compiled for (its metadata's
  /// .max_flat_workgroup_size); 0 when the code object does not say.
  uint32_t MaxFlatWorkgroupSize = 0;
  /// Its registers, spills and segments from the code object's metadata,
  /// for LIBOMPTARGET_KERNEL_TRACE and LIBOMPTARGET_INFO.
  offload::amdgpu::KernelMetadata Metadata;
};

/// Finds the pools of an agent: the first global pool the runtime may
/// allocate from with the requested flag.
class AMDGPUDevice final : public GPUDevice {
public:
  AMDGPUDevice(const HSARuntime &Runtime, int32_t Id, int32_t NumDevices)
      : GPUDevice(Id, NumDevices), Runtime(Runtime), API(Runtime.api()),
        Agent(Runtime.gpuAgents()[size_t(Id)]) {}

  ~AMDGPUDevice() override {
    // A device is destroyed only when its initialize() failed (the plugin
    // object lives until the process ends), before any work: its queues
    // go with Queues, and no chain holds anything.
    for (AMDGPUWorkChain *Chain : *FreeChains.lock())
      delete Chain;
  }

  Status initialize();

  Status loadDeviceImage(const DeviceImageRef &Image,
                         LoadedImage *&Out) override;

  Status unloadDeviceImage(LoadedImage *Image) override;

  Status getKernel(LoadedImage *Image, const char *KernelName,
                   KernelHandle &Out) override;

  Status getGlobal(LoadedImage *Image, const char *GlobalName, uint64_t Size,
                   void *&DeviceAddress) override;

  /// getGlobal that also tells an image without the global (\p Absent: no
  /// such symbol, or one of another size) from a failing runtime.
  Status findGlobal(LoadedImage *Image, const char *GlobalName, uint64_t Size,
                    void *&DeviceAddress, bool &Absent);

  void *allocate(uint64_t Size, AllocKind Kind) override;

  Status free(void *Ptr, AllocKind Kind) override;

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

  /// HSA's answers, and how the LIBOMPTARGET_AMDGPU_* variables set up
  /// this device.
  DeviceProperties getProperties() override;

  void printInfo(FILE *Out) override;

private:
  /// LIBOMPTARGET_STACK_SIZE, as upstream's AMDGPU plugin reads it: the
  /// private segment each work-item gets at least. A kernel's code object
  /// states its own (fixed) size; this only matters for kernels whose stack
  /// the compiler cannot bound (recursion, calls through pointers).
  Status readStackSize();

  GridLimits gridLimits(const GPUKernel &Kernel) const override;

  /// Checks that \p Kernel's LDS fits and that no queue has stopped, then
  /// dispatches it on the chain of \p Async (or runs it, without one).
  Status launchOnDevice(GPUKernel &Kernel, void **Args, uint32_t NumArgs,
                        const KernelLaunchParams &Params, const Grid &TheGrid,
                        uint32_t DynamicShared,
                        __tgt_async_info *Async) override;

  /// VGPRs, SGPRs, LDS and scratch (AMDGPUKernelTrace.h).
  std::string describeResources(const GPUKernel &Kernel, const Grid &TheGrid,
                                uint64_t DynamicShared) override;

  /// LIBOMPTARGET_KERNEL_TRACE's line for a launch of \p Kernel.
  void traceLaunch(const AMDGPUKernel &Kernel, uint32_t NumArgs,
                   const Grid &TheGrid, const KernelLaunchParams &Params,
                   uint32_t DynCGroupMem);

  /// Queues \p Kernel on \p Chain: the copy of its launch environment to
  /// the device where it has one, then the dispatch, which waits for the
  /// chain's last copy, if that is its tail (a barrier-AND packet), and,
  /// through it, for the chain's earlier work.
  Status queueLaunch(const AMDGPUKernel &Kernel, void **Args, uint32_t NumArgs,
                     const Grid &TheGrid, uint32_t DynCGroupMem,
                     AMDGPUWorkChain &Chain);

  /// What a dispatch waiting for room in a full queue gives up at.
  struct RoomWait {
    AMDGPUDevice *Self;
    WaitDeadline Deadline;
  };
  static Status keepWaitingForRoom(void *Context, const std::string &What);

  /// Allocates the launch environment (and its teams-reduction buffer) and
  /// queues the copy of its content on \p Chain; for a kernel without a
  /// teams reduction \p LaunchEnv is null: the device runtime reads it only
  /// there, and a launch that needs none saves two allocations and a copy
  /// ahead of the kernel, as upstream's plugins do.
  Status writeLaunchEnvironment(const AMDGPUKernel &Kernel,
                                AMDGPUWorkChain &Chain, void *&LaunchEnv);

  /// Allocates and fills the kernel arguments: the launch environment, the
  /// region's arguments, then the implicit arguments of code object v5
  /// (grid shape). They are \p Chain's until it completes.
  Status writeKernargs(const AMDGPUKernel &Kernel, void **Args,
                       uint32_t NumArgs, const Grid &TheGrid, void *LaunchEnv,
                       AMDGPUWorkChain &Chain, void *&Kernargs);

  /// "AMDGPU device 0 (gfx90a)"; only the number until initialize() has
  /// the agent's name.
  std::string deviceText() const override {
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

  Status timeoutError(const std::string &What) const;

  /// What \p Chain is waiting for, for messages: its last kernel, or its
  /// last operation when it queued no kernel.
  static std::string pendingWork(const AMDGPUWorkChain &Chain);

  /// The error of a wait for \p Chain once a queue has stopped: about the
  /// kernel the queue stopped at when the chain's kernels were on that
  /// queue, else about the chain's work, which the stopped device will not
  /// finish either.
  Status chainStopped(const AMDGPUWorkChain &Chain) const;

  /// Waits until \p Chain's last signal drops below 1, a queue stops, or
  /// LIBOMPTARGET_KERNEL_TIMEOUT_MS passes.
  Status waitForChain(const AMDGPUWorkChain &Chain);

  /// Waits for \p Chain, makes its deferred host copies and releases what
  /// its operations used, keeping the chain for more work. A chain whose
  /// wait failed keeps its error (and everything it holds: the device may
  /// still use it) and reports the error again to later calls.
  Status drain(AMDGPUWorkChain &Chain);

  /// Returns what \p Chain's completed operations used; the first failure
  /// is returned, everything else is still released.
  Status release(AMDGPUWorkChain &Chain);

  /// A chain for new work, on the next queue.
  AMDGPUWorkChain *takeChain();

  /// Drains \p Chain and takes it back for reuse; a failed chain is not
  /// reused (what it holds may still be in use) and is forgotten.
  Status finish(AMDGPUWorkChain *Chain);

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
                   const std::string &What);

  /// A staging buffer of \p Size bytes the copy engines reach, \p Chain's
  /// until it completes.
  Status stage(AMDGPUWorkChain &Chain, uint64_t Size, const std::string &What,
               void *&Out);

  /// Whether a copy of [HostPtr, HostPtr+Size) goes to or from that memory
  /// directly: memory the program locked, or pageable memory above
  /// LIBOMPTARGET_AMDGPU_MAX_ASYNC_COPY_BYTES (locked for the copy).
  bool copiesDirectly(const void *HostPtr, uint64_t Size);

  /// For a copy that goes directly (copiesDirectly): takes one more lock
  /// of the range, \p Chain's until it completes (so an unlock by the
  /// program cannot unpin memory a copy still uses), and sets \p AgentPtr
  /// to the address the copy engines use. False: stage the copy instead
  /// (pageable memory of at most the limit, or a range the runtime would
  /// not lock).
  bool lockForTransfer(AMDGPUWorkChain &Chain, const void *HostPtr,
                       uint64_t Size, void *&AgentPtr);

  /// The device's queues (AMDGPUQueues.h), as many and as large as the
  /// LIBOMPTARGET_AMDGPU_* variables say within the agent's limit.
  Status createQueues();

  /// The pool of device allocations (gpu/DeviceMemoryPool.h) over the
  /// agent's coarse-grained memory pool, and the pool of staging buffers
  /// over the host's fine-grained one (buffers of up to
  /// LIBOMPTARGET_AMDGPU_MAX_ASYNC_COPY_BYTES are kept for reuse).
  Status createMemoryPools();

  /// Page-locks host memory with hsa_amd_memory_lock for this device's
  /// agent (an optional entry point: runtimes without it refuse with a
  /// message naming it).
  Status lockWithDriver(void *Ptr, uint64_t Size, void *&AgentPtr) override;
  Status unlockWithDriver(void *Ptr) override;

  /// allocate() with the reason for a failure in \p Error.
  void *allocateOrExplain(uint64_t Size, AllocKind Kind, Status &Error);

  Status pool(hsa_agent_t Owner, uint32_t Flag, hsa_amd_memory_pool_t &Out,
              const char *What);

  Status writeDeviceEnvironment(LoadedImage *Image);

  const HSARuntime &Runtime;
  const HSAAPI &API;
  hsa_agent_t Agent;
  hsa_agent_t HostAgent{};
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
  /// LIBOMPTARGET_STACK_SIZE: the private segment (stack) of every
  /// work-item at least this large; 0 leaves each kernel's own size.
  uint32_t StackBytes = 0;
  Guarded<std::vector<std::unique_ptr<AMDGPUKernel>>> Kernels;
  /// The heap behind malloc/new in kernels, reserved at the first image
  /// load that needs it.
  AMDGPUDeviceHeap Heap;
  /// Staging buffers between pageable host memory and the device.
  std::unique_ptr<DeviceMemoryPool> Staging;
};

} // namespace offload::plugin::hsa

#endif // OFFLOAD_PLUGINS_AMDGPU_AMDGPUDEVICE_H
