//===- CUDADriver.cpp - The CUDA driver API, loaded at run time -----------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "CUDADriver.h"

using namespace offload::plugin;
using namespace offload::plugin::cuda;

std::string CUDADriver::defaultLibrary() {
  return driverLibraryPath("LIBOMPTARGET_CUDA_DRIVER", "libcuda.so.1");
}

std::unique_ptr<CUDADriver> CUDADriver::load(const std::string &Path) {
  std::unique_ptr<CUDADriver> Driver(new CUDADriver());
  CUDADriverAPI &API = Driver->API;
  const DriverSymbol Table[] = {
#define OFFLOAD_CUDA_ENTRY(Member, Symbol, Params)                             \
  {Symbol, reinterpret_cast<void **>(&API.Member)},
      OFFLOAD_CUDA_DRIVER_FUNCTIONS(OFFLOAD_CUDA_ENTRY)
#undef OFFLOAD_CUDA_ENTRY
  };
  if (!Driver->open(Path, "CUDA driver", Table,
                    sizeof(Table) / sizeof(Table[0])))
    return Driver;
  const DriverSymbol Optional[] = {
#define OFFLOAD_CUDA_ENTRY(Member, Symbol, Params)                             \
  {Symbol, reinterpret_cast<void **>(&API.Member)},
      OFFLOAD_CUDA_OPTIONAL_FUNCTIONS(OFFLOAD_CUDA_ENTRY)
#undef OFFLOAD_CUDA_ENTRY
  };
  Driver->Library->resolveOptional(Optional,
                                   sizeof(Optional) / sizeof(Optional[0]));
  if (CUresult Result = API.cuInit(0)) {
    Driver->Reason = "the CUDA driver '" + Path +
                     "' failed to initialize: cuInit returned " +
                     Driver->describe(Result);
    return Driver;
  }
  if (CUresult Result = API.cuDriverGetVersion(&Driver->Version)) {
    Driver->Reason = "the CUDA driver '" + Path +
                     "' cannot tell its version: cuDriverGetVersion returned " +
                     Driver->describe(Result);
    return Driver;
  }
  int Count = 0;
  if (CUresult Result = API.cuDeviceGetCount(&Count)) {
    Driver->Reason = "the CUDA driver '" + Path +
                     "' cannot count devices: cuDeviceGetCount returned " +
                     Driver->describe(Result);
    return Driver;
  }
  if (Count <= 0) {
    Driver->Reason = "the CUDA driver '" + Path + "' reports no device";
    return Driver;
  }
  Driver->NumDevices = Count;
  return Driver;
}

std::string CUDADriver::errorName(CUresult Result) const {
  const char *Name = nullptr;
  if (API.cuGetErrorName && API.cuGetErrorName(Result, &Name) != CUDA_SUCCESS)
    Name = nullptr;
  if (!Name) {
    // The stub library answers every call, cuGetErrorName included, with
    // an error, so the codes of the public API are named here as well.
    const CUresultInfo *Info = findResultInfo(Result);
    if (!Info)
      return "CUDA error " + std::to_string(Result);
    Name = Info->Name;
    if (Result == CUDA_ERROR_STUB_LIBRARY)
      return std::string(Name) + " (" + std::to_string(Result) +
             ", the CUDA toolkit's stub library, not a driver)";
  }
  return std::string(Name) + " (" + std::to_string(Result) + ")";
}

std::string CUDADriver::describe(CUresult Result) const {
  std::string Text = errorName(Result);
  // The description is optional: the stub library and old drivers refuse
  // it, and the name alone still identifies the error.
  const char *Description = nullptr;
  if (API.cuGetErrorString &&
      API.cuGetErrorString(Result, &Description) == CUDA_SUCCESS &&
      Description && *Description)
    Text += std::string(": ") + Description;
  return Text;
}
