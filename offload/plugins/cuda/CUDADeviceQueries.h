//===- CUDADeviceQueries.h - What a CUDA device can do ----------*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Questions the CUDA plugin asks the driver about a device beyond what it
// needs to run kernels: its properties for llvm-offload-device-info, and
// whether it can honour `requires unified_shared_memory`. None needs a
// context, so they can be asked before the device is set up.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_PLUGINS_CUDA_CUDADEVICEQUERIES_H
#define OFFLOAD_PLUGINS_CUDA_CUDADEVICEQUERIES_H

#include "CUDADriver.h"
#include "PluginInterface.h"

#include <string>

namespace offload {
namespace plugin {
namespace cuda {

/// What `requires unified_shared_memory` needs and \p Device lacks: empty
/// when it can use the host's pageable memory (HMM or a coherent
/// interconnect: CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS, with
/// concurrent managed access), else a sentence saying what the driver
/// reported.
std::string missingForUnifiedMemory(const CUDADriver &Driver, CUdevice Device);

/// Everything the driver tells about \p Device; attributes it does not
/// know stay 0.
DeviceProperties queryDeviceProperties(const CUDADriver &Driver,
                                       CUdevice Device);

} // namespace cuda
} // namespace plugin
} // namespace offload

#endif // OFFLOAD_PLUGINS_CUDA_CUDADEVICEQUERIES_H
