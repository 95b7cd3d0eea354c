//===- GPUDeviceLinkers.h - NVIDIA and AMD device links ---------*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef CLANG_LINKER_WRAPPER_GPUDEVICELINKERS_H
#define CLANG_LINKER_WRAPPER_GPUDEVICELINKERS_H

#include "DeviceLinker.h"

namespace wrapper {

/// nvptx64-nvidia-cuda: LTO + ptxas + nvlink (NVPTXDeviceLinker.cpp).
std::unique_ptr<DeviceLinker>
createNVPTXDeviceLinker(const ToolchainPaths &Paths);

/// amdgcn-amd-amdhsa: LTO + ld.lld (AMDGPUDeviceLinker.cpp).
std::unique_ptr<DeviceLinker>
createAMDGPUDeviceLinker(const ToolchainPaths &Paths);

} // namespace wrapper

#endif // CLANG_LINKER_WRAPPER_GPUDEVICELINKERS_H
