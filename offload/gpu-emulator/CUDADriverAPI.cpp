//===- CUDADriverAPI.cpp - The emulated libcuda.so.1 ----------------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The CUDA driver entry points our CUDA plugin calls (offload/plugins/cuda/
// CUDADriver.h), with the public API's signatures, exported names and
// values (offload/plugins/gpu/CUDAABI.h, shared with the plugin). One
// device, reported as an sm_90 GPU; its modules are emulated images, its
// launches run on the SIMT executor and its streams are host threads.
//
//===----------------------------------------------------------------------===//

#include "DeviceMemory.h"
#include "MemoryShadow.h"
#include "ModuleLoader.h"
#include "gpu/CUDAABI.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

using namespace gpuemu;
using namespace offload::cuda_abi;

namespace {

// Values of the CUDA driver API the plugins do not use (gpu/CUDAABI.h has
// theirs).
enum : int {
  FuncAttributeSharedSizeBytes = 1,
  FuncAttributeMaxDynamicSharedSizeBytes = 8,
  DeviceAttributeMaxSharedMemoryPerBlockOptin = 97,
};

struct Context {
  size_t StackLimit = 1024;
  size_t HeapLimit = size_t(8) << 20;
  bool Initialized = false;
};

Context &context() {
  static Context *C = new Context(); // never destroyed: used at exit
  return *C;
}

} // namespace

#define CUDA_API extern "C" __attribute__((visibility("default"))) CUresult

CUDA_API cuInit(unsigned) {
  context().Initialized = DeviceMemory::get().capacity() != 0;
  return context().Initialized ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

CUDA_API cuDriverGetVersion(int *Version) {
  *Version = 13000;
  return CUDA_SUCCESS;
}

CUDA_API cuGetErrorName(CUresult R, const char **Name) {
  const CUresultInfo *Info = findResultInfo(R);
  *Name = Info ? Info->Name : nullptr;
  return Info ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUDA_API cuGetErrorString(CUresult R, const char **Text) {
  const CUresultInfo *Info = findResultInfo(R);
  *Text = Info ? Info->Description : nullptr;
  return Info ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUDA_API cuDeviceGetCount(int *Count) {
  *Count = context().Initialized ? 1 : 0;
  return context().Initialized ? CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED;
}

CUDA_API cuDeviceGet(int *Device, int Ordinal) {
  if (Ordinal != 0)
    return CUDA_ERROR_INVALID_DEVICE;
  *Device = 0;
  return CUDA_SUCCESS;
}

CUDA_API cuDeviceGetName(char *Name, int Length, int) {
  snprintf(Name, size_t(Length), "GPU emulator (sm_90)");
  return CUDA_SUCCESS;
}

CUDA_API cuDeviceGetAttribute(int *Value, int Attribute, int) {
  switch (Attribute) {
  case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
    *Value = 1024;
    return CUDA_SUCCESS;
  case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X:
    *Value = 2147483647;
    return CUDA_SUCCESS;
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK:
    *Value = int(CUDASharedPerBlock);
    return CUDA_SUCCESS;
  case DeviceAttributeMaxSharedMemoryPerBlockOptin:
    *Value = int(CUDASharedPerBlockOptIn);
    return CUDA_SUCCESS;
  case CU_DEVICE_ATTRIBUTE_WARP_SIZE:
    *Value = 32;
    return CUDA_SUCCESS;
  case CU_DEVICE_ATTRIBUTE_CLOCK_RATE:
    *Value = 1000000; // kHz
    return CUDA_SUCCESS;
  case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT:
    *Value = 4;
    return CUDA_SUCCESS;
  case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR:
    *Value = 2048;
    return CUDA_SUCCESS;
  // An sm_90 multiprocessor's published limits, for the plugin's
  // occupancy figures.
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR:
    *Value = 228 * 1024;
    return CUDA_SUCCESS;
  case CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR:
    *Value = 65536;
    return CUDA_SUCCESS;
  case CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR:
    *Value = 32;
    return CUDA_SUCCESS;
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR:
    *Value = 9;
    return CUDA_SUCCESS;
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR:
    *Value = 0;
    return CUDA_SUCCESS;
  // Kernels run on the CPU and read any host memory while the host uses it:
  // managed memory, pageable memory access and concurrent managed access,
  // as HMM or a coherent link gives a real GPU, so `requires
  // unified_shared_memory` programs run (HSA's answer is the same).
  case CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY:
  case CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS:
  case CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS:
    *Value = 1;
    return CUDA_SUCCESS;
  default:
    return CUDA_ERROR_INVALID_VALUE;
  }
}

CUDA_API cuDeviceTotalMem_v2(size_t *Bytes, int) {
  *Bytes = DeviceMemory::get().capacity();
  return CUDA_SUCCESS;
}

CUDA_API cuDevicePrimaryCtxRetain(void **Ctx, int) {
  *Ctx = &context();
  return CUDA_SUCCESS;
}
CUDA_API cuDevicePrimaryCtxRelease_v2(int) { return CUDA_SUCCESS; }
CUDA_API cuCtxSetCurrent(void *) { return CUDA_SUCCESS; }

CUDA_API cuCtxGetLimit(size_t *Value, int Limit) {
  if (Limit != CU_LIMIT_STACK_SIZE && Limit != CU_LIMIT_MALLOC_HEAP_SIZE)
    return CUDA_ERROR_INVALID_VALUE;
  *Value =
      Limit == CU_LIMIT_STACK_SIZE ? context().StackLimit : context().HeapLimit;
  return CUDA_SUCCESS;
}

CUDA_API cuCtxSetLimit(int Limit, size_t Value) {
  if (Limit != CU_LIMIT_STACK_SIZE && Limit != CU_LIMIT_MALLOC_HEAP_SIZE)
    return CUDA_ERROR_INVALID_VALUE;
  (Limit == CU_LIMIT_STACK_SIZE ? context().StackLimit : context().HeapLimit) =
      Value;
  return CUDA_SUCCESS;
}

CUDA_API cuModuleLoadDataEx(void **Module, const void *Image, unsigned, int *,
                            void **) {
  LoadedModule *Loaded = nullptr;
  if (CUresult R = loadModule(Image, Loaded))
    return R;
  *Module = Loaded;
  return CUDA_SUCCESS;
}

CUDA_API cuModuleUnload(void *Module) {
  unloadModule(static_cast<LoadedModule *>(Module));
  return CUDA_SUCCESS;
}

CUDA_API cuModuleGetFunction(void **Function, void *Module, const char *Name) {
  KernelFunction *Kernel = nullptr;
  if (CUresult R =
          findKernel(static_cast<LoadedModule *>(Module), Name, Kernel))
    return R;
  *Function = Kernel;
  return CUDA_SUCCESS;
}

CUDA_API cuModuleGetGlobal_v2(CUdeviceptr *Address, size_t *Bytes, void *Module,
                              const char *Name) {
  void *Found = nullptr;
  size_t Size = 0;
  if (CUresult R =
          findGlobal(static_cast<LoadedModule *>(Module), Name, Found, Size))
    return R;
  if (Address)
    *Address = reinterpret_cast<CUdeviceptr>(Found);
  if (Bytes)
    *Bytes = Size;
  return CUDA_SUCCESS;
}

// As a GPU's driver: a kernel's block-size bound (.maxntid), which the
// plugins use to cap their launches, else the device's limit; its static
// shared memory and the most dynamic shared memory a launch may ask for.
CUDA_API cuFuncGetAttribute(int *Value, int Attribute, void *Function) {
  auto *Kernel = static_cast<KernelFunction *>(Function);
  if (!Kernel)
    return CUDA_ERROR_INVALID_VALUE;
  switch (Attribute) {
  case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
    *Value = int(Kernel->MaxThreadsPerBlock);
    return CUDA_SUCCESS;
  case FuncAttributeSharedSizeBytes:
    *Value = int(Kernel->StaticSharedBytes);
    return CUDA_SUCCESS;
  case FuncAttributeMaxDynamicSharedSizeBytes:
    *Value = int(Kernel->MaxDynamicSharedBytes);
    return CUDA_SUCCESS;
  default:
    return CUDA_ERROR_INVALID_VALUE;
  }
}

// The opt-in to more than 48 KiB of shared memory per block: up to what
// the device has per block, less the kernel's static shared memory.
CUDA_API cuFuncSetAttribute(void *Function, int Attribute, int Value) {
  auto *Kernel = static_cast<KernelFunction *>(Function);
  if (!Kernel || Attribute != FuncAttributeMaxDynamicSharedSizeBytes ||
      Value < 0 ||
      uint64_t(Value) + Kernel->StaticSharedBytes > CUDASharedPerBlockOptIn)
    return CUDA_ERROR_INVALID_VALUE;
  Kernel->MaxDynamicSharedBytes = uint64_t(Value);
  return CUDA_SUCCESS;
}

CUDA_API cuMemAlloc_v2(CUdeviceptr *Ptr, size_t Bytes) {
  void *P = DeviceMemory::get().allocate(Bytes);
  *Ptr = reinterpret_cast<CUdeviceptr>(P);
  return P ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

CUDA_API cuMemFree_v2(CUdeviceptr Ptr) {
  return DeviceMemory::get().free(reinterpret_cast<void *>(Ptr))
             ? CUDA_SUCCESS
             : CUDA_ERROR_INVALID_VALUE;
}

// Pinned host memory is host memory a kernel may also use: on the emulator
// all host memory is.
CUDA_API cuMemAllocHost_v2(void **Ptr, size_t Bytes) {
  *Ptr = std::aligned_alloc(256, (Bytes + 255) / 256 * 256);
  return *Ptr ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

CUDA_API cuMemFreeHost(void *Ptr) {
  std::free(Ptr);
  return CUDA_SUCCESS;
}

CUDA_API cuMemAllocManaged(CUdeviceptr *Ptr, size_t Bytes, unsigned) {
  CUresult Result = cuMemAlloc_v2(Ptr, Bytes);
  // The host writes managed memory directly, where initcheck cannot see
  // it: take it as written.
  if (Result == CUDA_SUCCESS)
    if (MemoryShadow *Shadow = MemoryShadow::get())
      Shadow->written(reinterpret_cast<void *>(*Ptr), Bytes);
  return Result;
}
