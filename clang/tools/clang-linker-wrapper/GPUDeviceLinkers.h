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

/// The CUDA toolkit's tools an NVPTX link runs: from --cuda-path,
/// $CUDA_PATH, PATH, then /usr/local/cuda (GPUTools.cpp). The error names
/// \p Purpose.
struct NVPTXTools {
  std::string Ptxas;
  std::string Nvlink;
};
llvm::Expected<NVPTXTools> findNVPTXTools(const ToolchainPaths &Paths,
                                          llvm::StringRef Purpose);

/// The ld.lld an AMDGPU link runs: LLVM's own, then PATH.
llvm::Expected<std::string> findAMDGPULinker(const ToolchainPaths &Paths,
                                             llvm::StringRef Purpose);

/// What a GPU link of \p Job reads besides its inputs (the archives and
/// files its linker arguments name, resolved as the link resolves them) and
/// the \p Tools it runs: DeviceLinker::dependencies() of both GPU links.
llvm::Expected<DeviceLinkDependencies>
gpuLinkDependencies(const DeviceLinkJob &Job, const ToolchainPaths &Paths,
                    std::vector<std::string> Tools);

} // namespace wrapper

#endif // CLANG_LINKER_WRAPPER_GPUDEVICELINKERS_H
