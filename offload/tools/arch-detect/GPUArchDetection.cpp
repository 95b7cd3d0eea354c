//===- GPUArchDetection.cpp - Which GPUs does this machine have -----------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "GPUArchDetection.h"

#include "amdgpu/HSARuntime.h"
#include "cuda/CUDADriver.h"

#include <cctype>
#include <cstdlib>
#include <cstring>

#ifndef OFFLOAD_DEFAULT_NVPTX_ARCH
#error "OFFLOAD_DEFAULT_NVPTX_ARCH must be defined by the build"
#endif
#ifndef OFFLOAD_DEFAULT_AMDGPU_ARCH
#error "OFFLOAD_DEFAULT_AMDGPU_ARCH must be defined by the build"
#endif

using namespace offload::archdetect;
namespace cuda = offload::plugin::cuda;
namespace hsa = offload::plugin::hsa;

std::string offload::archdetect::nvptxArchForComputeCapability(int Major,
                                                               int Minor) {
  return "sm_" + std::to_string(Major) + std::to_string(Minor);
}

DetectedArchs
offload::archdetect::detectNVPTXArchs(const std::string &DriverLibrary) {
  DetectedArchs Result;
  std::unique_ptr<cuda::CUDADriver> Driver =
      cuda::CUDADriver::load(DriverLibrary);
  if (Driver->numDevices() == 0) {
    Result.NoGPUReason = Driver->unavailableReason();
    return Result;
  }
  const cuda::CUDADriverAPI &API = Driver->api();
  std::string FirstFailure;
  for (int32_t Ordinal = 0; Ordinal < Driver->numDevices(); ++Ordinal) {
    cuda::CUdevice Device = 0;
    int Major = 0, Minor = 0;
    const char *FailedCall = nullptr;
    cuda::CUresult Status = API.cuDeviceGet(&Device, Ordinal);
    if (Status != cuda::CUDA_SUCCESS)
      FailedCall = "cuDeviceGet";
    else if ((Status = API.cuDeviceGetAttribute(
                  &Major, cuda::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                  Device)) != cuda::CUDA_SUCCESS ||
             (Status = API.cuDeviceGetAttribute(
                  &Minor, cuda::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                  Device)) != cuda::CUDA_SUCCESS)
      FailedCall = "cuDeviceGetAttribute";
    if (FailedCall) {
      // Report the devices that answered; remember why one did not in case
      // none does.
      if (FirstFailure.empty())
        FirstFailure = "device " + std::to_string(Ordinal) + ": " + FailedCall +
                       " returned " + Driver->errorName(Status);
      continue;
    }
    Result.Archs.push_back(nvptxArchForComputeCapability(Major, Minor));
  }
  if (Result.Archs.empty())
    Result.NoGPUReason = "the CUDA driver '" + DriverLibrary +
                         "' cannot describe its devices: " + FirstFailure;
  return Result;
}

DetectedArchs
offload::archdetect::detectAMDGPUArchs(const std::string &RuntimeLibrary) {
  DetectedArchs Result;
  std::unique_ptr<hsa::HSARuntime> Runtime =
      hsa::HSARuntime::load(RuntimeLibrary);
  if (Runtime->numDevices() == 0) {
    Result.NoGPUReason = Runtime->unavailableReason();
    return Result;
  }
  std::string FirstFailure;
  for (const hsa::hsa_agent_t &Agent : Runtime->gpuAgents()) {
    // HSA_AGENT_INFO_NAME fills a 64-character array.
    char Name[65] = {};
    if (hsa::hsa_status_t Status = Runtime->api().hsa_agent_get_info(
            Agent, hsa::HSA_AGENT_INFO_NAME, Name)) {
      if (FirstFailure.empty())
        FirstFailure = "hsa_agent_get_info(HSA_AGENT_INFO_NAME) returned " +
                       Runtime->statusString(Status);
      continue;
    }
    Result.Archs.push_back(Name);
  }
  if (Result.Archs.empty())
    Result.NoGPUReason = "the HSA runtime '" + RuntimeLibrary +
                         "' cannot name its GPU agents: " + FirstFailure;
  return Result;
}

DetectedArchs offload::archdetect::detectArchs(GPUVendor Vendor) {
  if (Vendor == GPUVendor::NVIDIA)
    return detectNVPTXArchs(cuda::CUDADriver::defaultLibrary());
  return detectAMDGPUArchs(hsa::HSARuntime::defaultLibrary());
}

const char *offload::archdetect::defaultArchVariable(GPUVendor Vendor) {
  return Vendor == GPUVendor::NVIDIA ? "OFFLOAD_DEFAULT_NVPTX_ARCH"
                                     : "OFFLOAD_DEFAULT_AMDGPU_ARCH";
}

const char *offload::archdetect::builtInDefaultArch(GPUVendor Vendor) {
  return Vendor == GPUVendor::NVIDIA ? OFFLOAD_DEFAULT_NVPTX_ARCH
                                     : OFFLOAD_DEFAULT_AMDGPU_ARCH;
}

static bool allOf(const std::string &Text, size_t From, int (*Predicate)(int)) {
  for (size_t I = From; I < Text.size(); ++I)
    if (!Predicate(static_cast<unsigned char>(Text[I])))
      return false;
  return true;
}

static int isDecimalDigit(int C) { return std::isdigit(C); }

static int isLowerAlnum(int C) {
  return std::isdigit(C) || (std::islower(C) != 0);
}

bool offload::archdetect::isArchName(GPUVendor Vendor,
                                     const std::string &Name) {
  if (Vendor == GPUVendor::NVIDIA) {
    // sm_90, sm_90a, sm_100f.
    if (Name.compare(0, 3, "sm_") != 0 || Name.size() < 5)
      return false;
    std::string Digits = Name.substr(3);
    if (Digits.back() == 'a' || Digits.back() == 'f')
      Digits.pop_back();
    return !Digits.empty() && allOf(Digits, 0, isDecimalDigit);
  }
  // gfx90a, gfx1100, gfx90a:xnack+, gfx90a:sramecc-:xnack+.
  if (Name.compare(0, 3, "gfx") != 0)
    return false;
  size_t Colon = Name.find(':');
  std::string Processor = Name.substr(0, Colon);
  if (Processor.size() < 4 || !allOf(Processor, 3, isLowerAlnum))
    return false;
  while (Colon != std::string::npos) {
    size_t Next = Name.find(':', Colon + 1);
    std::string Feature =
        Name.substr(Colon + 1, Next == std::string::npos ? std::string::npos
                                                         : Next - Colon - 1);
    if (Feature.size() < 2 || (Feature.back() != '+' && Feature.back() != '-'))
      return false;
    Feature.pop_back();
    if (!allOf(Feature, 0, isLowerAlnum))
      return false;
    Colon = Next;
  }
  return true;
}

DefaultArch offload::archdetect::chooseDefaultArch(GPUVendor Vendor) {
  DefaultArch Result;
  const char *Variable = defaultArchVariable(Vendor);
  const char *Override = std::getenv(Variable);
  if (!Override || !*Override) {
    Result.Arch = builtInDefaultArch(Vendor);
    return Result;
  }
  if (!isArchName(Vendor, Override)) {
    Result.Error = std::string(Variable) + "='" + Override + "' is not " +
                   (Vendor == GPUVendor::NVIDIA
                        ? "an NVIDIA architecture (sm_<number>, e.g. sm_80)"
                        : "an AMD GPU architecture (gfx<id>, e.g. gfx90a)");
    return Result;
  }
  Result.Arch = Override;
  Result.FromVariable = Variable;
  return Result;
}
