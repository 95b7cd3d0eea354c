//===- ModuleLoader.h - Loading emulated GPU images -------------*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// An emulated image (llvm/lib/GPUEmulation) is a host shared object; it is
// written to an anonymous file (memfd) and loaded with dlopen. Its
// references to the emulator's __gpuemu_* functions bind to this library
// (libgpuemu.so.1, the executor both drivers share), which therefore makes
// itself globally visible first (the plugins load the drivers with
// RTLD_LOCAL). Its writable data counts as device memory.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_GPU_EMULATOR_MODULELOADER_H
#define OFFLOAD_GPU_EMULATOR_MODULELOADER_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gpuemu {

struct LoadedModule {
  void *Handle = nullptr;
  /// The anonymous file it was loaded from, open while it is loaded.
  int Fd = -1;
  uint64_t StaticSharedBytes = 0;
  std::vector<const void *> DataRanges;
};

struct KernelFunction {
  LoadedModule *Module = nullptr;
  std::string Name;
  void (*Entry)(void **) = nullptr;
  /// Number of parameters, then each one's size.
  const uint64_t *Params = nullptr;
  /// The most threads a block may have: the kernel's compiled bound (PTX
  /// .maxntid), else the device's limit.
  uint32_t MaxThreadsPerBlock = 1024;
  /// The static shared memory (LDS) the kernel uses, as a GPU counts it:
  /// the shared variables it can reach (the image's segment holds all).
  uint64_t StaticSharedBytes = 0;
  /// CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES: the most dynamic
  /// shared memory a launch may ask for, 48 KiB in all unless raised.
  uint64_t MaxDynamicSharedBytes = 0;
};

/// Shared memory a block may have: on sm_90 48 KiB, or up to 227 KiB once
/// cuFuncSetAttribute has raised the kernel's dynamic limit; on gfx90a
/// 64 KiB of LDS.
constexpr uint64_t CUDASharedPerBlock = 48 * 1024;
constexpr uint64_t CUDASharedPerBlockOptIn = 227 * 1024;
constexpr uint64_t AMDGPUGroupPerWorkGroup = 64 * 1024;

/// ELF machine numbers the wrapper marks emulated images with: that of a
/// cubin (the CUDA driver's images) or of an AMDGPU code object (HSA's).
constexpr uint16_t CUDAMachine = 190, AMDGPUMachine = 224;

/// Loads the image at \p Image, which must be marked with \p Machine.
/// Returns a CUDA error code: 0, CUDA_ERROR_INVALID_IMAGE for something
/// that is not a shared object, CUDA_ERROR_NO_BINARY_FOR_GPU for one that
/// is not an emulated image (a cubin or code object, or an older
/// emulator's); the reason is printed to stderr.
int loadModule(const void *Image, LoadedModule *&Out,
               uint16_t Machine = CUDAMachine);
void unloadModule(LoadedModule *Module);

/// CUDA_ERROR_NOT_FOUND (500) when \p Name is not a kernel of \p Module.
int findKernel(LoadedModule *Module, const char *Name, KernelFunction *&Out);
int findGlobal(LoadedModule *Module, const char *Name, void *&Address,
               size_t &Bytes);

} // namespace gpuemu

#endif // OFFLOAD_GPU_EMULATOR_MODULELOADER_H
