//===- HSARuntime.cpp - The HSA runtime API, loaded at run time -----------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "HSARuntime.h"

#include <cstdio>

using namespace offload::plugin;
using namespace offload::plugin::hsa;

std::string HSARuntime::defaultLibrary() {
  return driverLibraryPath("LIBOMPTARGET_HSA_RUNTIME", "libhsa-runtime64.so.1");
}

std::unique_ptr<HSARuntime> HSARuntime::load(const std::string &Path) {
  std::unique_ptr<HSARuntime> Runtime(new HSARuntime());
  HSAAPI &API = Runtime->API;
  const DriverSymbol Table[] = {
#define OFFLOAD_HSA_ENTRY(Name, Result, Params)                                \
  {#Name, reinterpret_cast<void **>(&API.Name)},
      OFFLOAD_HSA_FUNCTIONS(OFFLOAD_HSA_ENTRY)
#undef OFFLOAD_HSA_ENTRY
  };
  if (!Runtime->open(Path, "HSA runtime", Table,
                     sizeof(Table) / sizeof(Table[0])))
    return Runtime;
  const DriverSymbol Optional[] = {
#define OFFLOAD_HSA_ENTRY(Name, Result, Params)                                \
  {#Name, reinterpret_cast<void **>(&API.Name)},
      OFFLOAD_HSA_OPTIONAL_FUNCTIONS(OFFLOAD_HSA_ENTRY)
#undef OFFLOAD_HSA_ENTRY
  };
  Runtime->Library->resolveOptional(Optional,
                                    sizeof(Optional) / sizeof(Optional[0]));
  if (hsa_status_t Status = API.hsa_init()) {
    Runtime->Reason = "the HSA runtime '" + Path +
                      "' failed to initialize (no AMD GPU driver, /dev/kfd, "
                      "on this machine?): hsa_init returned " +
                      Runtime->statusString(Status);
    return Runtime;
  }
  Runtime->Initialized = true;
  struct Listing {
    HSARuntime *Self;
    bool TypeQueryFailed = false;
  } List{Runtime.get()};
  auto Collect = [](hsa_agent_t Agent, void *Data) -> hsa_status_t {
    auto *L = static_cast<Listing *>(Data);
    int Type = -1;
    // An agent whose type cannot be read stops the listing: a runtime that
    // fails so early is not one to run kernels on.
    if (hsa_status_t Status = L->Self->API.hsa_agent_get_info(
            Agent, HSA_AGENT_INFO_DEVICE, &Type)) {
      L->TypeQueryFailed = true;
      return Status;
    }
    if (Type == HSA_DEVICE_TYPE_GPU)
      L->Self->GPUAgents.push_back(Agent);
    else if (Type == HSA_DEVICE_TYPE_CPU)
      L->Self->CPUAgents.push_back(Agent);
    return HSA_STATUS_SUCCESS;
  };
  if (hsa_status_t Status = API.hsa_iterate_agents(Collect, &List)) {
    Runtime->GPUAgents.clear();
    Runtime->Reason = "the HSA runtime '" + Path + "' cannot list agents: " +
                      (List.TypeQueryFailed
                           ? "hsa_agent_get_info(DEVICE) returned "
                           : "hsa_iterate_agents returned ") +
                      Runtime->statusString(Status);
    return Runtime;
  }
  if (Runtime->GPUAgents.empty())
    Runtime->Reason = "the HSA runtime '" + Path + "' finds no GPU agent";
  return Runtime;
}

HSARuntime::~HSARuntime() {
  if (Initialized)
    API.hsa_shut_down();
}

std::string HSARuntime::statusString(hsa_status_t Status) const {
  const char *Text = nullptr;
  if (API.hsa_status_string &&
      API.hsa_status_string(Status, &Text) != HSA_STATUS_SUCCESS)
    Text = nullptr;
  char Number[16];
  std::snprintf(Number, sizeof(Number), "0x%x", unsigned(Status));
  if (!Text)
    return std::string("HSA status ") + Number;
  return std::string(Text) + " (" + Number + ")";
}
