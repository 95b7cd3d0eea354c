//===- CUDADeviceSetup.cpp - A CUDA device's setup and properties ---------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Device discovery and properties: the context, limits, memory pool,
// what the device reports, interop objects.
//
//===----------------------------------------------------------------------===//

#include "CUDADevice.h"

using namespace offload::plugin;
using namespace offload::plugin::cuda;

Status CUDADevice::initialize() {
  if (Status S = checkEnvironment())
    return S;
  if (CUresult R = API.cuDeviceGet(&Device, Id))
    return failure("cuDeviceGet", R);
  // The name and compute capability first, so that every later error
  // names the device fully.
  char NameBuffer[256] = {0};
  if (CUresult R =
          API.cuDeviceGetName(NameBuffer, sizeof(NameBuffer) - 1, Device))
    return failure("cuDeviceGetName", R);
  struct {
    int *Value;
    int Attribute;
    const char *Call;
  } const Attributes[] = {
      {&Major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
       "cuDeviceGetAttribute(COMPUTE_CAPABILITY_MAJOR)"},
      {&Minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
       "cuDeviceGetAttribute(COMPUTE_CAPABILITY_MINOR)"},
      {&Multiprocessors, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
       "cuDeviceGetAttribute(MULTIPROCESSOR_COUNT)"},
      {&MaxThreadsPerBlock, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
       "cuDeviceGetAttribute(MAX_THREADS_PER_BLOCK)"},
      {&MaxGridX, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X,
       "cuDeviceGetAttribute(MAX_GRID_DIM_X)"},
      {&ClockKHz, CU_DEVICE_ATTRIBUTE_CLOCK_RATE,
       "cuDeviceGetAttribute(CLOCK_RATE)"},
  };
  for (const auto &A : Attributes)
    if (CUresult R = API.cuDeviceGetAttribute(A.Value, A.Attribute, Device))
      return failure(A.Call, R);
  Name = NameBuffer;
  // Shared memory per block, without and with the opt-in: a driver that
  // does not say gets the 48 KiB every CUDA GPU since sm_20 has.
  if (API.cuDeviceGetAttribute(&SharedPerBlock,
                               CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK,
                               Device) ||
      SharedPerBlock <= 0)
    SharedPerBlock = 48 * 1024;
  if (API.cuDeviceGetAttribute(
          &SharedPerBlockOptIn,
          CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, Device) ||
      SharedPerBlockOptIn < SharedPerBlock)
    SharedPerBlockOptIn = SharedPerBlock;
  readOccupancyLimits();
  // Asked once: omp_target_is_accessible and the plugin's answer to
  // `requires unified_shared_memory` use it.
  UnifiedMemory = missingForUnifiedMemory(Driver, Device).empty();
  if (CUresult R = API.cuDevicePrimaryCtxRetain(&Context, Device))
    return failure("cuDevicePrimaryCtxRetain", R);
  if (Status S = makeCurrent())
    return S;
  if (Status S = applyLimits())
    return S;
  if (CUresult R =
          API.cuStreamCreate(&OwnStream.lock()->Stream, CU_STREAM_NON_BLOCKING))
    return failure("cuStreamCreate", R);
  return setUpMemoryPool();
}

void CUDADevice::readOccupancyLimits() {
  SMLimits = publishedCUDALimits(Major, Minor);
  auto Ask = [&](int Attribute) -> uint32_t {
    int Value = 0;
    if (API.cuDeviceGetAttribute(&Value, Attribute, Device) || Value < 0)
      return 0;
    return uint32_t(Value);
  };
  uint32_t Warp = Ask(CU_DEVICE_ATTRIBUTE_WARP_SIZE);
  SMLimits.WarpSize = Warp ? Warp : 32;
  SMLimits.MaxWarps = Ask(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR) /
                      SMLimits.WarpSize;
  SMLimits.MaxBlocks = Ask(CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR);
  SMLimits.Registers =
      Ask(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR);
  SMLimits.SharedMemory =
      Ask(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR);
}

Status CUDADevice::applyLimits() {
  RequestedSize Stack = requestedSizeFromEnvironment("LIBOMPTARGET_STACK_SIZE");
  RequestedSize Heap = requestedSizeFromEnvironment("LIBOMPTARGET_HEAP_SIZE");
  for (const RequestedSize *Request : {&Stack, &Heap})
    if (!Request->Error.empty())
      return Status::error("%s: %s", deviceText().c_str(),
                           Request->Error.c_str());
  size_t CurrentStack = 0;
  if (CUresult R = API.cuCtxGetLimit(&CurrentStack, CU_LIMIT_STACK_SIZE))
    return failure("cuCtxGetLimit(CU_LIMIT_STACK_SIZE)", R);
  if (size_t Bytes = stackBytesToSet(Stack, CurrentStack))
    if (CUresult R = API.cuCtxSetLimit(CU_LIMIT_STACK_SIZE, Bytes))
      return failure("cuCtxSetLimit(CU_LIMIT_STACK_SIZE)", R,
                     "setting the per-thread stack to " +
                         std::to_string(Bytes) +
                         " bytes (LIBOMPTARGET_STACK_SIZE)");
  if (Heap.Present)
    if (CUresult R = API.cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, Heap.Bytes))
      return failure("cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE)", R,
                     "setting the device heap to " +
                         std::to_string(Heap.Bytes) +
                         " bytes (LIBOMPTARGET_HEAP_SIZE)");
  return Status::ok();
}

Status CUDADevice::checkUnifiedMemory() const {
  return unifiedMemoryRefusal(deviceText(),
                              missingForUnifiedMemory(Driver, Device));
}

DeviceProperties CUDADevice::getProperties() {
  return queryDeviceProperties(Driver, Device);
}

InteropProperties CUDADevice::getInteropProperties() {
  InteropProperties P;
  P.ForeignRuntimeId = 2; // omp_ifr_cuda_driver
  P.ForeignRuntimeName = "cuda_driver";
  P.VendorId = 11; // nvidia
  P.VendorName = "nvidia";
  P.HasDeviceHandle = true;
  P.DeviceHandle = Device;
  P.DeviceContext = Context;
  P.DeviceHandleType = "CUdevice";
  P.DeviceContextType = "CUcontext";
  P.SyncType = "CUstream";
  return P;
}

Status CUDADevice::createInteropSync(void *&Sync) {
  Sync = nullptr;
  if (Status S = makeCurrent())
    return S;
  CUstream Stream = nullptr;
  if (CUresult R = API.cuStreamCreate(&Stream, CU_STREAM_NON_BLOCKING))
    return failure("cuStreamCreate", R, "for an interop object");
  Sync = Stream;
  return Status::ok();
}

Status CUDADevice::waitInteropSync(void *Sync) {
  if (Status S = makeCurrent())
    return S;
  if (CUresult R = API.cuStreamSynchronize(static_cast<CUstream>(Sync)))
    return failure("cuStreamSynchronize", R, "of an interop object's stream");
  return Status::ok();
}

Status CUDADevice::destroyInteropSync(void *Sync) {
  if (Status S = waitInteropSync(Sync))
    return S;
  if (CUresult R = API.cuStreamDestroy(static_cast<CUstream>(Sync)))
    return failure("cuStreamDestroy", R, "of an interop object's stream");
  return Status::ok();
}

void CUDADevice::printInfo(FILE *Out) {
  fprintf(Out,
          "    Device %d of %d: %s (CUDA, sm_%d%d, %d multiprocessors, "
          "driver %d)\n",
          Id, NumDevices, Name.c_str(), Major, Minor, Multiprocessors,
          Driver.driverVersion());
}
