//===- EmulatedGPULink.h - GPU images for the GPU emulator ------*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `--offload-emulate` among a GPU link's device-linker options (from
// `-Xoffload-linker-nvptx64-nvidia-cuda --offload-emulate` or
// `-Xoffload-linker-amdgcn-amd-amdhsa --offload-emulate`) makes the link
// produce, in place of a cubin or code object, a host shared object that
// the GPU emulator's libcuda.so.1 or libhsa-runtime64.so.1
// (offload/gpu-emulator) loads: the same LTO of the device
// bitcode and the device runtime, then the retargeting pass of
// llvm/lib/GPUEmulation, host code generation and `ld.lld -shared`.
//
//===----------------------------------------------------------------------===//

#ifndef CLANG_LINKER_WRAPPER_EMULATEDGPULINK_H
#define CLANG_LINKER_WRAPPER_EMULATEDGPULINK_H

#include "CommandRunner.h"
#include "DeviceLinker.h"
#include "GPUBitcodeLinker.h"

namespace wrapper {

/// The device-linker option that asks for an emulated image.
constexpr const char *EmulateOption = "--offload-emulate";

/// Removes EmulateOption from \p Options' pass-through options; true when it
/// was there.
bool takeEmulateOption(GPULinkOptions &Options);

/// Links \p Job into a host shared object for the GPU emulator (job output).
/// Every input must be bitcode: a cubin cannot run on the host.
/// The image is marked with the GPU's ELF machine (EM_CUDA, EM_AMDGPU).
llvm::Error linkEmulatedGPUImage(const DeviceLinkJob &Job,
                                 const GPULinkOptions &Options,
                                 const ToolchainPaths &Paths,
                                 CommandRunner &Runner);

} // namespace wrapper

#endif // CLANG_LINKER_WRAPPER_EMULATEDGPULINK_H
