//===- CUDADriver.h - The CUDA driver API, loaded at run time ---*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The entry points of the CUDA driver API (cuda.h) the plugin uses, declared
// here so the plugin builds without the CUDA toolkit and loads libcuda.so.1
// with dlopen. Signatures are those of the public API, its types and values
// come from gpu/CUDAABI.h (versioned entry points, e.g. cuMemAlloc_v2, are
// named explicitly because the library exports them under those names).
//
// CUDADriver::load never fails hard: whatever goes wrong (no library, a
// symbol missing, cuInit refusing, e.g. the toolkit's stub library, or no
// device) leaves a driver with zero devices and a reason that names it.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_PLUGINS_CUDA_CUDADRIVER_H
#define OFFLOAD_PLUGINS_CUDA_CUDADRIVER_H

#include "gpu/CUDAABI.h"
#include "gpu/DriverLibrary.h"

#include <cstdint>
#include <memory>
#include <string>

namespace offload {
namespace plugin {
namespace cuda {

// The types and values of the public API, shared with the GPU emulator's
// driver.
using namespace cuda_abi;

// Every entry point the plugin calls: member, exported symbol, signature.
#define OFFLOAD_CUDA_DRIVER_FUNCTIONS(F)                                       \
  F(cuInit, "cuInit", (unsigned))                                              \
  F(cuDriverGetVersion, "cuDriverGetVersion", (int *))                         \
  F(cuGetErrorName, "cuGetErrorName", (CUresult, const char **))               \
  F(cuGetErrorString, "cuGetErrorString", (CUresult, const char **))           \
  F(cuDeviceGetCount, "cuDeviceGetCount", (int *))                             \
  F(cuDeviceGet, "cuDeviceGet", (CUdevice *, int))                             \
  F(cuDeviceGetName, "cuDeviceGetName", (char *, int, CUdevice))               \
  F(cuDeviceGetAttribute, "cuDeviceGetAttribute", (int *, int, CUdevice))      \
  F(cuDeviceTotalMem, "cuDeviceTotalMem_v2", (size_t *, CUdevice))             \
  F(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain",                      \
    (CUcontext *, CUdevice))                                                   \
  F(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2", (CUdevice))     \
  F(cuCtxSetCurrent, "cuCtxSetCurrent", (CUcontext))                           \
  F(cuCtxGetLimit, "cuCtxGetLimit", (size_t *, int))                           \
  F(cuCtxSetLimit, "cuCtxSetLimit", (int, size_t))                             \
  F(cuModuleLoadDataEx, "cuModuleLoadDataEx",                                  \
    (CUmodule *, const void *, unsigned, CUjit_option *, void **))             \
  F(cuModuleUnload, "cuModuleUnload", (CUmodule))                              \
  F(cuModuleGetFunction, "cuModuleGetFunction",                                \
    (CUfunction *, CUmodule, const char *))                                    \
  F(cuModuleGetGlobal, "cuModuleGetGlobal_v2",                                 \
    (CUdeviceptr *, size_t *, CUmodule, const char *))                         \
  F(cuFuncGetAttribute, "cuFuncGetAttribute", (int *, int, CUfunction))        \
  F(cuMemAlloc, "cuMemAlloc_v2", (CUdeviceptr *, size_t))                      \
  F(cuMemFree, "cuMemFree_v2", (CUdeviceptr))                                  \
  F(cuMemAllocHost, "cuMemAllocHost_v2", (void **, size_t))                    \
  F(cuMemFreeHost, "cuMemFreeHost", (void *))                                  \
  F(cuMemAllocManaged, "cuMemAllocManaged", (CUdeviceptr *, size_t, unsigned)) \
  F(cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2",                                 \
    (CUdeviceptr, const void *, size_t, CUstream))                             \
  F(cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2",                                 \
    (void *, CUdeviceptr, size_t, CUstream))                                   \
  F(cuMemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2",                                 \
    (CUdeviceptr, CUdeviceptr, size_t, CUstream))                              \
  F(cuMemcpyPeerAsync, "cuMemcpyPeerAsync",                                    \
    (CUdeviceptr, CUcontext, CUdeviceptr, CUcontext, size_t, CUstream))        \
  F(cuMemsetD8Async, "cuMemsetD8Async",                                        \
    (CUdeviceptr, unsigned char, size_t, CUstream))                            \
  F(cuLaunchKernel, "cuLaunchKernel",                                          \
    (CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,   \
     unsigned, CUstream, void **, void **))                                    \
  F(cuStreamCreate, "cuStreamCreate", (CUstream *, unsigned))                  \
  F(cuStreamDestroy, "cuStreamDestroy_v2", (CUstream))                         \
  F(cuStreamSynchronize, "cuStreamSynchronize", (CUstream))                    \
  F(cuStreamQuery, "cuStreamQuery", (CUstream))

// Entry points the plugin works without (null when the library lacks
// them): page-locking host memory (llvm_omp_target_lock_mem), and the
// opt-in of a kernel to more than the default shared memory per block.
#define OFFLOAD_CUDA_OPTIONAL_FUNCTIONS(F)                                     \
  F(cuMemHostRegister, "cuMemHostRegister_v2", (void *, size_t, unsigned))     \
  F(cuMemHostUnregister, "cuMemHostUnregister", (void *))                      \
  F(cuFuncSetAttribute, "cuFuncSetAttribute", (CUfunction, int, int))

/// The resolved entry points.
struct CUDADriverAPI {
#define OFFLOAD_CUDA_DECLARE(Member, Symbol, Params)                           \
  CUresult(*Member) Params = nullptr;
  OFFLOAD_CUDA_DRIVER_FUNCTIONS(OFFLOAD_CUDA_DECLARE)
  OFFLOAD_CUDA_OPTIONAL_FUNCTIONS(OFFLOAD_CUDA_DECLARE)
#undef OFFLOAD_CUDA_DECLARE
};

class CUDADriver : public LoadedDriver<CUDADriverAPI> {
public:
  /// The library the plugin loads: $LIBOMPTARGET_CUDA_DRIVER when set
  /// (e.g. to try another driver), else libcuda.so.1.
  static std::string defaultLibrary();

  /// Loads \p Library and initializes the driver. Always returns a driver;
  /// check numDevices() and unavailableReason().
  static std::unique_ptr<CUDADriver> load(const std::string &Library);

  int32_t numDevices() const { return NumDevices; }
  /// Driver version as the library reports it (e.g. 13000), or 0.
  int driverVersion() const { return Version; }

  /// "CUDA_ERROR_OUT_OF_MEMORY (2)": the driver's name for \p Result when it
  /// has one, else a built-in name, else the number.
  std::string errorName(CUresult Result) const;

  /// errorName followed by the driver's own description when it has one:
  /// "CUDA_ERROR_ILLEGAL_ADDRESS (700): an illegal memory access was
  /// encountered". What plugin errors quote.
  std::string describe(CUresult Result) const;

private:
  CUDADriver() = default;
  int32_t NumDevices = 0;
  int Version = 0;
};

} // namespace cuda
} // namespace plugin
} // namespace offload

#endif // OFFLOAD_PLUGINS_CUDA_CUDADRIVER_H
