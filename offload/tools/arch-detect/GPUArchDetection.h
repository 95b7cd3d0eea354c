//===- GPUArchDetection.h - Which GPUs does this machine have ---*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// clang's driver asks `nvptx-arch` / `amdgpu-arch` which GPUs to compile for
// when the user names an offload triple but no architecture. The answers come
// from the same driver-loading code the CUDA and AMDGPU plugins use
// (offload/plugins/{cuda/CUDADriver,amdgpu/HSARuntime}), so a machine the
// plugins can use is detected exactly as they see it, and the plugins'
// library overrides (LIBOMPTARGET_CUDA_DRIVER, LIBOMPTARGET_HSA_RUNTIME) apply
// to detection as well.
//
// A build machine usually has no GPU. Then the tools answer with a default
// architecture (build-time OFFLOAD_DEFAULT_<VENDOR>_ARCH, overridable by the
// environment variable of the same name) instead of failing the build.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_TOOLS_ARCHDETECT_GPUARCHDETECTION_H
#define OFFLOAD_TOOLS_ARCHDETECT_GPUARCHDETECTION_H

#include <string>
#include <vector>

namespace offload {
namespace archdetect {

enum class GPUVendor { NVIDIA, AMD };

/// What one detection found: an architecture per GPU, in the driver's device
/// order, or (when there is none) why not.
struct DetectedArchs {
  std::vector<std::string> Archs;
  std::string NoGPUReason;
};

/// Asks the CUDA driver in \p DriverLibrary (e.g. libcuda.so.1) for each
/// device's compute capability.
DetectedArchs detectNVPTXArchs(const std::string &DriverLibrary);

/// Asks the HSA runtime in \p RuntimeLibrary (e.g. libhsa-runtime64.so.1) for
/// the name of each GPU agent.
DetectedArchs detectAMDGPUArchs(const std::string &RuntimeLibrary);

/// Detects with the library the vendor's plugin would load.
DetectedArchs detectArchs(GPUVendor Vendor);

/// "sm_86" for compute capability 8.6, "sm_100" for 10.0.
std::string nvptxArchForComputeCapability(int Major, int Minor);

/// The architecture to build for when no GPU is found.
struct DefaultArch {
  std::string Arch;
  /// The environment variable that chose it; empty for the built-in default.
  std::string FromVariable;
  /// Set (and Arch empty) when the environment names no usable architecture.
  std::string Error;
};

/// The default chosen when the toolchain was built (the CMake cache variable
/// OFFLOAD_DEFAULT_NVPTX_ARCH or OFFLOAD_DEFAULT_AMDGPU_ARCH).
const char *builtInDefaultArch(GPUVendor Vendor);

/// The built-in default of \p Vendor (OFFLOAD_DEFAULT_NVPTX_ARCH or
/// OFFLOAD_DEFAULT_AMDGPU_ARCH at configure time), unless the environment
/// variable of that name is set and not empty.
DefaultArch chooseDefaultArch(GPUVendor Vendor);

/// The name of the environment (and CMake) variable holding \p Vendor's
/// default.
const char *defaultArchVariable(GPUVendor Vendor);

/// Whether \p Name looks like one of \p Vendor's architectures ("sm_<digits>"
/// with an optional "a"/"f" suffix, or "gfx<alphanumerics>", with an optional
/// ":feature+" tail for AMD). Catches typos and stray whitespace before they
/// reach the driver as several architectures.
bool isArchName(GPUVendor Vendor, const std::string &Name);

} // namespace archdetect
} // namespace offload

#endif // OFFLOAD_TOOLS_ARCHDETECT_GPUARCHDETECTION_H
