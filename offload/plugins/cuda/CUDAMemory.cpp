//===- CUDAMemory.cpp - A CUDA device's memory and copies -----------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Device memory, page-locked host memory and the copies between them.
//
//===----------------------------------------------------------------------===//

#include "CUDADevice.h"

using namespace offload::plugin;
using namespace offload::plugin::cuda;

void *CUDADevice::allocate(uint64_t Size, AllocKind Kind) {
  if (Size == 0)
    return nullptr;
  if (Status S = makeCurrent()) {
    reportAllocationFailure(S);
    return nullptr;
  }
  const char *Call = "cuMemAlloc";
  void *Ptr = nullptr;
  CUresult R = CUDA_SUCCESS;
  switch (Kind) {
  case AllocKind::Device: {
    Status Error;
    if (void *Block = Pool->allocate(Size, Error))
      return Block;
    reportAllocationFailure(Error);
    return nullptr;
  }
  case AllocKind::Host:
    // Pinned host memory: the device reads it directly, and copies from
    // it run at full speed.
    Call = "cuMemAllocHost";
    R = API.cuMemAllocHost(&Ptr, Size);
    break;
  case AllocKind::Shared: {
    Call = "cuMemAllocManaged";
    CUdeviceptr Address = 0;
    R = API.cuMemAllocManaged(&Address, Size, CU_MEM_ATTACH_GLOBAL);
    Ptr = reinterpret_cast<void *>(Address);
    break;
  }
  }
  if (R == CUDA_SUCCESS)
    return Ptr;
  reportAllocationFailure(
      failure(Call, R, "for " + std::to_string(Size) + " bytes"));
  return nullptr;
}

Status CUDADevice::free(void *Ptr, AllocKind Kind) {
  if (Status S = makeCurrent())
    return S;
  if (Kind == AllocKind::Device)
    return Pool->free(Ptr);
  bool Host = Kind == AllocKind::Host;
  CUresult R = Host ? API.cuMemFreeHost(Ptr)
                    : API.cuMemFree(reinterpret_cast<CUdeviceptr>(Ptr));
  return R ? failure(Host ? "cuMemFreeHost" : "cuMemFree", R) : Status::ok();
}

Status CUDADevice::dataSubmit(void *DevicePtr, const void *HostPtr,
                              int64_t Size, __tgt_async_info *Async) {
  std::string What = "copying " + std::to_string(Size) + " bytes to the device";
  return onStream(
      Async, "cuMemcpyHtoDAsync", What.c_str(), [&](CUstream Stream) {
        return API.cuMemcpyHtoDAsync(reinterpret_cast<CUdeviceptr>(DevicePtr),
                                     HostPtr, size_t(Size), Stream);
      });
}

Status CUDADevice::dataRetrieve(void *HostPtr, const void *DevicePtr,
                                int64_t Size, __tgt_async_info *Async) {
  std::string What =
      "copying " + std::to_string(Size) + " bytes from the device";
  return onStream(
      Async, "cuMemcpyDtoHAsync", What.c_str(), [&](CUstream Stream) {
        return API.cuMemcpyDtoHAsync(HostPtr,
                                     reinterpret_cast<CUdeviceptr>(DevicePtr),
                                     size_t(Size), Stream);
      });
}

Status CUDADevice::dataExchange(const void *SrcDevicePtr, GenericDevice &Dst,
                                void *DstDevicePtr, int64_t Size,
                                __tgt_async_info *Async) {
  auto &Other = static_cast<CUDADevice &>(Dst);
  CUdeviceptr Src = reinterpret_cast<CUdeviceptr>(SrcDevicePtr);
  CUdeviceptr To = reinterpret_cast<CUdeviceptr>(DstDevicePtr);
  bool Same = &Other == this;
  std::string What =
      "copying " + std::to_string(Size) + " bytes to " + Other.deviceText();
  return onStream(Async, Same ? "cuMemcpyDtoDAsync" : "cuMemcpyPeerAsync",
                  What.c_str(), [&](CUstream Stream) {
                    if (Same)
                      return API.cuMemcpyDtoDAsync(To, Src, size_t(Size),
                                                   Stream);
                    return API.cuMemcpyPeerAsync(To, Other.context(), Src,
                                                 Context, size_t(Size), Stream);
                  });
}

Status CUDADevice::dataFill(void *DevicePtr, int Value, int64_t Size,
                            __tgt_async_info *Async) {
  std::string What = "filling " + std::to_string(Size) + " bytes";
  return onStream(Async, "cuMemsetD8Async", What.c_str(), [&](CUstream Stream) {
    return API.cuMemsetD8Async(reinterpret_cast<CUdeviceptr>(DevicePtr),
                               static_cast<unsigned char>(Value), size_t(Size),
                               Stream);
  });
}

Status CUDADevice::setUpMemoryPool() {
  auto Allocate = [this](uint64_t Bytes, const std::string &For,
                         Status &Error) -> void * {
    CUdeviceptr Address = 0;
    if (CUresult R = API.cuMemAlloc(&Address, Bytes)) {
      Error = failure("cuMemAlloc", R, For);
      return nullptr;
    }
    return reinterpret_cast<void *>(Address);
  };
  // Also called at exit, from whatever thread and context: make the
  // device's context current first.
  auto Free = [this](void *Ptr) -> Status {
    if (Status S = makeCurrent())
      return S;
    if (CUresult R = API.cuMemFree(reinterpret_cast<CUdeviceptr>(Ptr)))
      return failure("cuMemFree", R);
    return Status::ok();
  };
  return createMemoryPool(Allocate, Free);
}

Status CUDADevice::lockWithDriver(void *Ptr, uint64_t Size, void *&DevicePtr) {
  if (!API.cuMemHostRegister || !API.cuMemHostUnregister)
    return Status::error("%s: cannot lock host memory: the CUDA driver has "
                         "no cuMemHostRegister_v2/cuMemHostUnregister",
                         deviceText().c_str());
  if (Status S = makeCurrent())
    return S;
  // Portable: the memory is pinned for every context, as upstream's
  // plugin registers it.
  if (CUresult R =
          API.cuMemHostRegister(Ptr, size_t(Size), CU_MEMHOSTREGISTER_PORTABLE))
    return failure("cuMemHostRegister", R,
                   "locking " + std::to_string(Size) + " bytes of host memory");
  DevicePtr = Ptr;
  return Status::ok();
}

Status CUDADevice::unlockWithDriver(void *Ptr) {
  if (Status S = makeCurrent())
    return S;
  if (CUresult R = API.cuMemHostUnregister(Ptr))
    return failure("cuMemHostUnregister", R);
  return Status::ok();
}
