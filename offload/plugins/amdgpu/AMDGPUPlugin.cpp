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

#include "AMDGPUDevice.h"
#include "PluginEntryPoints.h"
#include "gpu/GPUPlugin.h"

using namespace offload::plugin;
using namespace offload::plugin::hsa;

namespace {

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
