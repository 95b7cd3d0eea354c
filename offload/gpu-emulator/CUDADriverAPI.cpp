//===- CUDADriverAPI.cpp - The emulated libcuda.so.1 ----------------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The CUDA driver entry points our CUDA plugin calls (offload/plugins/cuda/
// CUDADriver.h), with the public API's signatures and exported names. One
// device, reported as an sm_90 GPU; its modules are emulated images, its
// launches run on the SIMT executor and its streams are host threads.
//
//===----------------------------------------------------------------------===//

#include "DeviceMemory.h"
#include "ModuleLoader.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

using namespace gpuemu;

namespace {

typedef int CUresult;
typedef unsigned long long CUdeviceptr;

enum : CUresult {
  Success = 0,
  InvalidValue = 1,
  OutOfMemory = 2,
  NotInitialized = 3,
  InvalidDevice = 101,
  NotFound = 500,
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

const char *const ErrorNames[][3] = {
    {"0", "CUDA_SUCCESS", "no error"},
    {"1", "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
    {"2", "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
    {"3", "CUDA_ERROR_NOT_INITIALIZED", "initialization error"},
    {"101", "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"},
    {"200", "CUDA_ERROR_INVALID_IMAGE", "device kernel image is invalid"},
    {"209", "CUDA_ERROR_NO_BINARY_FOR_GPU",
     "no kernel image is available for execution on the device"},
    {"500", "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
    {"600", "CUDA_ERROR_NOT_READY", "device not ready"},
    {"700", "CUDA_ERROR_ILLEGAL_ADDRESS",
     "an illegal memory access was encountered"},
    {"701", "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES",
     "too many resources requested for launch"},
    {"710", "CUDA_ERROR_ASSERT", "device-side assert triggered"},
    {"715", "CUDA_ERROR_ILLEGAL_INSTRUCTION",
     "an illegal instruction was encountered"},
    {"719", "CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure"},
};

const char *const *errorEntry(CUresult R) {
  for (const auto &Entry : ErrorNames)
    if (std::atoi(Entry[0]) == R)
      return Entry;
  return nullptr;
}

} // namespace

#define CUDA_API extern "C" __attribute__((visibility("default"))) CUresult

CUDA_API cuInit(unsigned) {
  context().Initialized = DeviceMemory::get().capacity() != 0;
  return context().Initialized ? Success : OutOfMemory;
}

CUDA_API cuDriverGetVersion(int *Version) {
  *Version = 13000;
  return Success;
}

CUDA_API cuGetErrorName(CUresult R, const char **Name) {
  const char *const *Entry = errorEntry(R);
  *Name = Entry ? Entry[1] : nullptr;
  return Entry ? Success : InvalidValue;
}

CUDA_API cuGetErrorString(CUresult R, const char **Text) {
  const char *const *Entry = errorEntry(R);
  *Text = Entry ? Entry[2] : nullptr;
  return Entry ? Success : InvalidValue;
}

CUDA_API cuDeviceGetCount(int *Count) {
  *Count = context().Initialized ? 1 : 0;
  return context().Initialized ? Success : NotInitialized;
}

CUDA_API cuDeviceGet(int *Device, int Ordinal) {
  if (Ordinal != 0)
    return InvalidDevice;
  *Device = 0;
  return Success;
}

CUDA_API cuDeviceGetName(char *Name, int Length, int) {
  snprintf(Name, size_t(Length), "GPU emulator (sm_90)");
  return Success;
}

CUDA_API cuDeviceGetAttribute(int *Value, int Attribute, int) {
  switch (Attribute) {
  case 1:
    *Value = 1024;
    return Success; // max threads per block
  case 5:
    *Value = 2147483647;
    return Success; // max grid x
  case 8:
    *Value = 48 * 1024;
    return Success; // shared memory per block
  case 10:
    *Value = 32;
    return Success; // warp size
  case 13:
    *Value = 1000000;
    return Success; // clock (kHz)
  case 16:
    *Value = 4;
    return Success; // multiprocessors
  case 39:
    *Value = 2048;
    return Success; // threads per multiprocessor
  case 75:
    *Value = 9;
    return Success; // compute capability
  case 76:
    *Value = 0;
    return Success;
  // Kernels run on the CPU and read any host memory while the host uses it:
  // managed memory, pageable memory access and concurrent managed access,
  // as HMM or a coherent link gives a real GPU, so `requires
  // unified_shared_memory` programs run (HSA's answer is the same).
  case 83:
  case 88:
  case 89:
    *Value = 1;
    return Success;
  default:
    return InvalidValue;
  }
}

CUDA_API cuDeviceTotalMem_v2(size_t *Bytes, int) {
  *Bytes = DeviceMemory::get().capacity();
  return Success;
}

CUDA_API cuDevicePrimaryCtxRetain(void **Ctx, int) {
  *Ctx = &context();
  return Success;
}
CUDA_API cuDevicePrimaryCtxRelease_v2(int) { return Success; }
CUDA_API cuCtxSetCurrent(void *) { return Success; }

CUDA_API cuCtxGetLimit(size_t *Value, int Limit) {
  if (Limit != 0 && Limit != 2)
    return InvalidValue;
  *Value = Limit == 0 ? context().StackLimit : context().HeapLimit;
  return Success;
}

CUDA_API cuCtxSetLimit(int Limit, size_t Value) {
  if (Limit != 0 && Limit != 2)
    return InvalidValue;
  (Limit == 0 ? context().StackLimit : context().HeapLimit) = Value;
  return Success;
}

CUDA_API cuModuleLoadDataEx(void **Module, const void *Image, unsigned, int *,
                            void **) {
  LoadedModule *Loaded = nullptr;
  if (CUresult R = loadModule(Image, Loaded))
    return R;
  *Module = Loaded;
  return Success;
}

CUDA_API cuModuleUnload(void *Module) {
  unloadModule(static_cast<LoadedModule *>(Module));
  return Success;
}

CUDA_API cuModuleGetFunction(void **Function, void *Module, const char *Name) {
  KernelFunction *Kernel = nullptr;
  if (CUresult R =
          findKernel(static_cast<LoadedModule *>(Module), Name, Kernel))
    return R;
  *Function = Kernel;
  return Success;
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
  return Success;
}

// As a GPU's driver: a kernel's block-size bound (.maxntid), which the
// plugins use to cap their launches, else the device's limit.
CUDA_API cuFuncGetAttribute(int *Value, int Attribute, void *Function) {
  if (Attribute != 0 || !Function)
    return InvalidValue;
  *Value = int(static_cast<KernelFunction *>(Function)->MaxThreadsPerBlock);
  return Success;
}

CUDA_API cuMemAlloc_v2(CUdeviceptr *Ptr, size_t Bytes) {
  void *P = DeviceMemory::get().allocate(Bytes);
  *Ptr = reinterpret_cast<CUdeviceptr>(P);
  return P ? Success : OutOfMemory;
}

CUDA_API cuMemFree_v2(CUdeviceptr Ptr) {
  return DeviceMemory::get().free(reinterpret_cast<void *>(Ptr)) ? Success
                                                                 : InvalidValue;
}

// Pinned host memory is host memory a kernel may also use: on the emulator
// all host memory is.
CUDA_API cuMemAllocHost_v2(void **Ptr, size_t Bytes) {
  *Ptr = std::aligned_alloc(256, (Bytes + 255) / 256 * 256);
  return *Ptr ? Success : OutOfMemory;
}

CUDA_API cuMemFreeHost(void *Ptr) {
  std::free(Ptr);
  return Success;
}

CUDA_API cuMemAllocManaged(CUdeviceptr *Ptr, size_t Bytes, unsigned) {
  return cuMemAlloc_v2(Ptr, Bytes);
}
