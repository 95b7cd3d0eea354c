//===- AMDGPUDeviceQueries.h - What an AMD GPU can do -----------*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Questions the AMDGPU plugin asks HSA about a GPU agent beyond what it needs
// to run kernels: its properties for llvm-offload-device-info, and whether
// it can honour `requires unified_shared_memory`.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_PLUGINS_AMDGPU_AMDGPUDEVICEQUERIES_H
#define OFFLOAD_PLUGINS_AMDGPU_AMDGPUDEVICEQUERIES_H

#include "HSARuntime.h"
#include "PluginInterface.h"

#include <string>

namespace offload {
namespace plugin {
namespace hsa {

/// What `requires unified_shared_memory` needs and the system lacks: empty
/// when GPUs can use the host's pageable memory, which takes the kernel's
/// HMM support (HSA's SVM) and XNACK enabled (page faults retried, so a
/// kernel may touch pages the GPU has not mapped yet; HSA_XNACK=1 on
/// GPUs where it is optional); else a sentence saying what HSA reported.
std::string missingForUnifiedMemory(const HSARuntime &Runtime);

/// Everything HSA tells about \p Agent, whose device memory is \p Pool;
/// what it does not answer stays 0.
DeviceProperties queryDeviceProperties(const HSARuntime &Runtime,
                                       hsa_agent_t Agent,
                                       hsa_amd_memory_pool_t Pool);

} // namespace hsa
} // namespace plugin
} // namespace offload

#endif // OFFLOAD_PLUGINS_AMDGPU_AMDGPUDEVICEQUERIES_H
