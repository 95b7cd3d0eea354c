//===- CUDADriver.h - The CUDA driver API, loaded at run time ---*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The part of the CUDA driver API (cuda.h) the plugin uses, declared here so
// the plugin builds without the CUDA toolkit and loads libcuda.so.1 with
// dlopen. Types, constants and signatures are those of the public API
// (versioned entry points, e.g. cuMemAlloc_v2, are named explicitly because
// the library exports them under those names).
//
// CUDADriver::load never fails hard: whatever goes wrong (no library, a
// symbol missing, cuInit refusing, e.g. the toolkit's stub library, or no
// device) leaves a driver with zero devices and a reason that names it.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_PLUGINS_CUDA_CUDADRIVER_H
#define OFFLOAD_PLUGINS_CUDA_CUDADRIVER_H

#include "gpu/DriverLibrary.h"

#include <cstdint>
#include <memory>
#include <string>

namespace offload {
namespace plugin {
namespace cuda {

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef int CUjit_option;

enum : CUresult {
  CUDA_SUCCESS = 0,
  CUDA_ERROR_INVALID_VALUE = 1,
  CUDA_ERROR_OUT_OF_MEMORY = 2,
  CUDA_ERROR_NOT_INITIALIZED = 3,
  CUDA_ERROR_STUB_LIBRARY = 34,
  CUDA_ERROR_INSUFFICIENT_DRIVER = 35,
  CUDA_ERROR_NO_DEVICE = 100,
  CUDA_ERROR_INVALID_IMAGE = 200,
  CUDA_ERROR_NO_BINARY_FOR_GPU = 209,
  CUDA_ERROR_INVALID_PTX = 218,
  CUDA_ERROR_NOT_FOUND = 500,
  CUDA_ERROR_NOT_READY = 600,
  CUDA_ERROR_ILLEGAL_ADDRESS = 700,
  CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES = 701,
  CUDA_ERROR_LAUNCH_TIMEOUT = 702,
  CUDA_ERROR_ASSERT = 710,
  CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED = 712,
  CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED = 713,
  CUDA_ERROR_ILLEGAL_INSTRUCTION = 715,
  CUDA_ERROR_LAUNCH_FAILED = 719,
  CUDA_ERROR_NOT_SUPPORTED = 801,
  CUDA_ERROR_UNKNOWN = 999,
};

/// CUdevice_attribute values.
enum : int {
  CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1,
  CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X = 2,
  CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y = 3,
  CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z = 4,
  CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X = 5,
  CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y = 6,
  CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z = 7,
  CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK = 8,
  CU_DEVICE_ATTRIBUTE_WARP_SIZE = 10,
  CU_DEVICE_ATTRIBUTE_CLOCK_RATE = 13,
  CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
  CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE = 36,
  CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR = 39,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
  CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY = 83,
  CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS = 88,
  CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS = 89,
};

/// CUlimit values.
enum : int { CU_LIMIT_STACK_SIZE = 0, CU_LIMIT_MALLOC_HEAP_SIZE = 2 };

/// CUfunction_attribute values.
enum : int { CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0 };

/// Flags.
enum : unsigned {
  CU_STREAM_NON_BLOCKING = 1,
  CU_MEM_ATTACH_GLOBAL = 1,
  CU_MEMHOSTREGISTER_PORTABLE = 1,
};

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
// them): page-locking host memory (llvm_omp_target_lock_mem).
#define OFFLOAD_CUDA_OPTIONAL_FUNCTIONS(F)                                     \
  F(cuMemHostRegister, "cuMemHostRegister_v2", (void *, size_t, unsigned))     \
  F(cuMemHostUnregister, "cuMemHostUnregister", (void *))

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
