//===- CUDADriverWork.cpp - Copies, launches and streams of libcuda -------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The entry points that queue work on a stream. Their device pointers are
// checked when they are called (a host pointer is CUDA_ERROR_INVALID_VALUE
// at once); a launch copies its argument values then, as CUDA does, since
// it runs later on the stream's thread.
//
//===----------------------------------------------------------------------===//

#include "DeviceMemory.h"
#include "MemoryShadow.h"
#include "ModuleLoader.h"
#include "SIMTExecutor.h"
#include "Streams.h"
#include "Trace.h"
#include "gpu/CUDAABI.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

using namespace gpuemu;
using namespace offload::cuda_abi;

extern "C" CUresult cuCtxGetLimit(size_t *Value, int Limit);

namespace {

CUresult onStream(void *S, std::function<int()> Operation) {
  if (!S)
    return Operation();
  static_cast<Stream *>(S)->enqueue(std::move(Operation));
  return CUDA_SUCCESS;
}

bool isDevice(CUdeviceptr P, size_t Bytes) {
  return DeviceMemory::get().isDevice(reinterpret_cast<void *>(P), Bytes);
}

void *ptr(CUdeviceptr P) { return reinterpret_cast<void *>(P); }

size_t stackBytes() {
  size_t Bytes = 64 * 1024;
  if (const char *Env = std::getenv("GPUEMU_STACK_SIZE"))
    Bytes = size_t(std::strtoull(Env, nullptr, 10));
  size_t Limit = 0;
  cuCtxGetLimit(&Limit, CU_LIMIT_STACK_SIZE);
  return std::max(Bytes, Limit);
}

/// The launch's own copy of its argument values and pointers to them.
struct ArgumentCopy {
  std::vector<std::unique_ptr<char[]>> Values;
  std::vector<void *> Pointers;
};

std::shared_ptr<ArgumentCopy> copyArguments(const KernelFunction &Kernel,
                                            void **Params) {
  auto Copy = std::make_shared<ArgumentCopy>();
  uint64_t Count = Kernel.Params[0];
  for (uint64_t I = 0; I < Count; ++I) {
    uint64_t Bytes = Kernel.Params[I + 1];
    Copy->Values.emplace_back(new char[Bytes ? Bytes : 1]);
    std::memcpy(Copy->Values.back().get(), Params[I], Bytes);
    Copy->Pointers.push_back(Copy->Values.back().get());
  }
  return Copy;
}

} // namespace

#define CUDA_API extern "C" __attribute__((visibility("default"))) CUresult

CUDA_API cuMemcpyHtoDAsync_v2(CUdeviceptr Dst, const void *Src, size_t Bytes,
                              void *S) {
  if (!isDevice(Dst, Bytes))
    return CUDA_ERROR_INVALID_VALUE;
  traceCopy(ptr(Dst), Src, Bytes);
  return onStream(S, [=] {
    std::memcpy(ptr(Dst), Src, Bytes);
    if (MemoryShadow *Shadow = MemoryShadow::get())
      Shadow->written(ptr(Dst), Bytes);
    return CUDA_SUCCESS;
  });
}

CUDA_API cuMemcpyDtoHAsync_v2(void *Dst, CUdeviceptr Src, size_t Bytes,
                              void *S) {
  if (!isDevice(Src, Bytes))
    return CUDA_ERROR_INVALID_VALUE;
  traceCopy(Dst, ptr(Src), Bytes);
  return onStream(S, [=] {
    std::memcpy(Dst, ptr(Src), Bytes);
    return CUDA_SUCCESS;
  });
}

CUDA_API cuMemcpyDtoDAsync_v2(CUdeviceptr Dst, CUdeviceptr Src, size_t Bytes,
                              void *S) {
  if (!isDevice(Dst, Bytes) || !isDevice(Src, Bytes))
    return CUDA_ERROR_INVALID_VALUE;
  traceCopy(ptr(Dst), ptr(Src), Bytes);
  return onStream(S, [=] {
    std::memmove(ptr(Dst), ptr(Src), Bytes);
    if (MemoryShadow *Shadow = MemoryShadow::get())
      Shadow->copied(ptr(Dst), ptr(Src), Bytes);
    return CUDA_SUCCESS;
  });
}

CUDA_API cuMemcpyPeerAsync(CUdeviceptr Dst, void *, CUdeviceptr Src, void *,
                           size_t Bytes, void *S) {
  return cuMemcpyDtoDAsync_v2(Dst, Src, Bytes, S);
}

CUDA_API cuMemsetD8Async(CUdeviceptr Dst, unsigned char Value, size_t Count,
                         void *S) {
  if (!isDevice(Dst, Count))
    return CUDA_ERROR_INVALID_VALUE;
  return onStream(S, [=] {
    std::memset(ptr(Dst), Value, Count);
    if (MemoryShadow *Shadow = MemoryShadow::get())
      Shadow->written(ptr(Dst), Count);
    return CUDA_SUCCESS;
  });
}

CUDA_API cuLaunchKernel(void *Function, unsigned GridX, unsigned GridY,
                        unsigned GridZ, unsigned BlockX, unsigned BlockY,
                        unsigned BlockZ, unsigned SharedBytes, void *S,
                        void **Params, void **Extra) {
  auto *Kernel = static_cast<KernelFunction *>(Function);
  if (!Kernel || Extra || (Kernel->Params[0] && !Params))
    return CUDA_ERROR_INVALID_VALUE;
  if (!GridX || !GridY || !GridZ || !BlockX || !BlockY || !BlockZ)
    return CUDA_ERROR_INVALID_VALUE;
  // A GPU's driver refuses a block larger than the kernel was compiled for
  // (its .maxntid), which code generation and OpenMPOpt assume.
  uint64_t Threads = uint64_t(BlockX) * BlockY * BlockZ;
  if (Threads > Kernel->MaxThreadsPerBlock) {
    fprintf(stderr,
            "gpu-emulator: kernel '%s': a block of %llu threads is more than "
            "the %u it was compiled for (.maxntid)\n",
            Kernel->Name.c_str(), (unsigned long long)Threads,
            Kernel->MaxThreadsPerBlock);
    return CUDA_ERROR_INVALID_VALUE;
  }
  // And dynamic shared memory beyond the kernel's limit (48 KiB in all
  // unless cuFuncSetAttribute raised it).
  if (SharedBytes > Kernel->MaxDynamicSharedBytes) {
    fprintf(stderr,
            "gpu-emulator: kernel '%s': %u bytes of dynamic shared memory "
            "are more than the %llu it may have (it uses %llu bytes of "
            "static shared memory; a block may have %llu bytes without "
            "CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES)\n",
            Kernel->Name.c_str(), SharedBytes,
            (unsigned long long)Kernel->MaxDynamicSharedBytes,
            (unsigned long long)Kernel->StaticSharedBytes,
            (unsigned long long)CUDASharedPerBlock);
    return CUDA_ERROR_INVALID_VALUE;
  }
  std::shared_ptr<ArgumentCopy> Arguments = copyArguments(*Kernel, Params);
  LaunchConfig Config;
  Config.KernelName = Kernel->Name;
  Config.Entry = Kernel->Entry;
  Config.Grid = {GridX, GridY, GridZ};
  Config.Block = {BlockX, BlockY, BlockZ};
  Config.StaticSharedBytes = Kernel->Module->StaticSharedBytes;
  Config.DynamicSharedBytes = SharedBytes;
  Config.StackBytes = stackBytes();
  if (tracing())
    fprintf(stderr,
            "gpu-emulator: launching '%s': %ux%ux%u blocks of %ux%ux%u "
            "threads, %llu+%u bytes of shared memory\n",
            Kernel->Name.c_str(), GridX, GridY, GridZ, BlockX, BlockY, BlockZ,
            (unsigned long long)Config.StaticSharedBytes, SharedBytes);
  return onStream(S, [Config, Arguments]() mutable {
    Config.Params = Arguments->Pointers.data();
    LaunchResult Result = runGrid(Config);
    if (Result.Code)
      fprintf(stderr, "gpu-emulator: %s\n", Result.Message.c_str());
    return Result.Code;
  });
}

CUDA_API cuStreamCreate(void **S, unsigned) {
  *S = new Stream();
  return CUDA_SUCCESS;
}

CUDA_API cuStreamDestroy_v2(void *S) {
  delete static_cast<Stream *>(S);
  return CUDA_SUCCESS;
}

CUDA_API cuStreamSynchronize(void *S) {
  return S ? static_cast<Stream *>(S)->synchronize() : CUDA_SUCCESS;
}

CUDA_API cuStreamQuery(void *S) {
  return S ? static_cast<Stream *>(S)->query() : CUDA_SUCCESS;
}
