//===- CUDADeviceQueries.cpp - What a CUDA device can do ------------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "CUDADeviceQueries.h"

#include <cstdint>

using namespace offload::plugin;
using namespace offload::plugin::cuda;

std::string cuda::missingForUnifiedMemory(const CUDADriver &Driver,
                                          CUdevice Device) {
  const CUDADriverAPI &API = Driver.api();
  // Both are needed: pageable access lets kernels dereference any host
  // pointer, concurrent managed access lets the host touch memory while a
  // kernel runs (without it the driver migrates pages only at launches).
  struct {
    int Attribute;
    const char *Name;
    const char *Lack;
  } const Needed[] = {
      {CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS, "PAGEABLE_MEMORY_ACCESS",
       "the device cannot access pageable host memory"},
      {CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS,
       "CONCURRENT_MANAGED_ACCESS",
       "the device cannot access host memory while the host uses it"},
  };
  for (const auto &N : Needed) {
    int Value = 0;
    if (CUresult R = API.cuDeviceGetAttribute(&Value, N.Attribute, Device))
      return std::string("the driver cannot say whether the device can "
                         "access host memory: cuDeviceGetAttribute(") +
             N.Name + ") returned " + Driver.describe(R);
    if (!Value)
      return std::string(N.Lack) + " (CU_DEVICE_ATTRIBUTE_" + N.Name +
             " is 0; it needs HMM, i.e. the open kernel modules on a recent "
             "Linux kernel, or a coherent CPU-GPU link)";
  }
  return std::string();
}

DeviceProperties cuda::queryDeviceProperties(const CUDADriver &Driver,
                                             CUdevice Device) {
  const CUDADriverAPI &API = Driver.api();
  DeviceProperties P;
  auto Get = [&](int Attribute) {
    int Value = 0;
    return API.cuDeviceGetAttribute(&Value, Attribute, Device) == CUDA_SUCCESS
               ? Value
               : 0;
  };
  char Name[256] = {0};
  if (API.cuDeviceGetName(Name, sizeof(Name) - 1, Device) == CUDA_SUCCESS)
    P.Name = Name;
  P.Vendor = "NVIDIA";
  int Major = Get(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
  int Minor = Get(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  P.Architecture = "sm_" + std::to_string(Major) + std::to_string(Minor);
  int Version = Driver.driverVersion();
  P.DriverVersion = "CUDA " + std::to_string(Version / 1000) + "." +
                    std::to_string(Version % 1000 / 10);
  size_t Bytes = 0;
  if (API.cuDeviceTotalMem(&Bytes, Device) == CUDA_SUCCESS)
    P.GlobalMemoryBytes = Bytes;
  P.SharedMemoryPerBlockBytes =
      uint64_t(Get(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK));
  P.ClockKHz = uint32_t(Get(CU_DEVICE_ATTRIBUTE_CLOCK_RATE));
  P.MemoryClockKHz = uint32_t(Get(CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE));
  P.Multiprocessors = uint32_t(Get(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT));
  P.WarpSize = uint32_t(Get(CU_DEVICE_ATTRIBUTE_WARP_SIZE));
  P.MaxThreadsPerBlock =
      uint32_t(Get(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK));
  for (int D = 0; D < 3; ++D) {
    P.MaxBlockDims[D] = uint32_t(Get(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X + D));
    P.MaxGridDims[D] = uint64_t(Get(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X + D));
  }
  std::string Missing = missingForUnifiedMemory(Driver, Device);
  P.UnifiedMemory = Missing.empty();
  P.UnifiedMemoryDetail =
      P.UnifiedMemory ? "pageable host memory access" : Missing;
  P.Extra.push_back({"Managed memory",
                     Get(CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY) ? "yes" : "no"});
  P.Extra.push_back({"Threads per multiprocessor",
                     std::to_string(Get(
                         CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR))});
  return P;
}
