// A CUDA driver library for tests: it reports the devices listed in
// $FAKE_CUDA_DEVICES ("8.0,9.0": one compute capability per device; empty
// for none). Only what device detection calls is implemented;
// FakeDriverUnsupported.cpp gives every other entry point of the plugins'
// table an "unsupported" answer, so the fake stays complete when the table
// grows.
#include "cuda/CUDADriver.h"

#include <cstdlib>
#include <cstring>
#include <vector>

using namespace offload::plugin::cuda;

#define FAKE_DECLARE(Member, Symbol, Params)                                   \
  extern "C" __attribute__((visibility("default")))                            \
  CUresult fake_##Member Params __asm__(Symbol);
OFFLOAD_CUDA_DRIVER_FUNCTIONS(FAKE_DECLARE)

namespace {
struct Capability {
  int Major, Minor;
};

std::vector<Capability> configuredDevices() {
  std::vector<Capability> Devices;
  const char *List = std::getenv("FAKE_CUDA_DEVICES");
  while (List && *List) {
    char *End = nullptr;
    Capability C;
    C.Major = int(std::strtol(List, &End, 10));
    C.Minor = *End == '.' ? int(std::strtol(End + 1, &End, 10)) : 0;
    Devices.push_back(C);
    List = *End == ',' ? End + 1 : End + std::strlen(End);
  }
  return Devices;
}
} // namespace

extern "C" CUresult fake_cuInit(unsigned) { return CUDA_SUCCESS; }

extern "C" CUresult fake_cuDriverGetVersion(int *Version) {
  *Version = 13000;
  return CUDA_SUCCESS;
}

extern "C" CUresult fake_cuGetErrorName(CUresult, const char **Name) {
  *Name = "FAKE_CUDA_ERROR";
  return CUDA_SUCCESS;
}

extern "C" CUresult fake_cuDeviceGetCount(int *Count) {
  *Count = int(configuredDevices().size());
  return CUDA_SUCCESS;
}

extern "C" CUresult fake_cuDeviceGet(CUdevice *Device, int Ordinal) {
  *Device = Ordinal;
  return CUDA_SUCCESS;
}

extern "C" CUresult fake_cuDeviceGetAttribute(int *Value, int Attribute,
                                              CUdevice Device) {
  std::vector<Capability> Devices = configuredDevices();
  if (Device < 0 || size_t(Device) >= Devices.size())
    return CUDA_ERROR_INVALID_VALUE;
  if (Attribute == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)
    *Value = Devices[Device].Major;
  else if (Attribute == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)
    *Value = Devices[Device].Minor;
  else
    return CUDA_ERROR_INVALID_VALUE;
  return CUDA_SUCCESS;
}
