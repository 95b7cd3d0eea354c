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

#include "CUDADevice.h"
#include "PluginEntryPoints.h"
#include "gpu/GPUPlugin.h"

using namespace offload::plugin;
using namespace offload::plugin::cuda;

namespace {

/// The plugin object: GPUPlugin with the CUDA driver and CUDADevice.
class CUDAPlugin final : public GPUPlugin<CUDADriver, CUDADevice> {
public:
  CUDAPlugin() : GPUPlugin({"cuda", "nvptx64", EM_CUDA_MACHINE}) {}
};

} // namespace

// __offload_plugin_create (a CUDAPlugin that is never destroyed: no device
// or driver teardown runs during exit()) and __tgt_rtl_set_function_ptr_map.
OFFLOAD_PLUGIN_ENTRY_POINTS(CUDAPlugin)
