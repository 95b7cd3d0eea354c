//===- AMDGPUDeviceQueries.cpp - What an AMD GPU can do -------------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "AMDGPUDeviceQueries.h"

#include <cstdint>
#include <cstring>

using namespace offload::plugin;
using namespace offload::plugin::hsa;

std::string hsa::missingForUnifiedMemory(const HSARuntime &Runtime) {
  struct {
    int Attribute;
    const char *Name;
    const char *Lack;
  } const Needed[] = {
      {HSA_AMD_SYSTEM_INFO_SVM_SUPPORTED, "SVM_SUPPORTED",
       "the Linux kernel's driver does not support shared virtual memory "
       "(HMM)"},
      {HSA_AMD_SYSTEM_INFO_XNACK_ENABLED, "XNACK_ENABLED",
       "XNACK is not enabled (set HSA_XNACK=1 on GPUs that support it, "
       "and build for <gfx>:xnack+ or without an xnack setting)"},
  };
  for (const auto &N : Needed) {
    // HSA answers these as a C bool.
    bool Value = false;
    if (hsa_status_t S = Runtime.api().hsa_system_get_info(N.Attribute, &Value))
      return std::string("HSA cannot say whether GPUs can access host "
                         "memory: hsa_system_get_info(") +
             N.Name + ") failed: " + Runtime.statusString(S);
    if (!Value)
      return std::string(N.Lack) + " (HSA_AMD_SYSTEM_INFO_" + N.Name +
             " is false)";
  }
  return std::string();
}

DeviceProperties hsa::queryDeviceProperties(const HSARuntime &Runtime,
                                            hsa_agent_t Agent,
                                            hsa_amd_memory_pool_t Pool) {
  const HSAAPI &API = Runtime.api();
  DeviceProperties P;
  auto Word = [&](int Attribute) {
    uint32_t Value = 0;
    return API.hsa_agent_get_info(Agent, Attribute, &Value) ? 0 : Value;
  };
  auto Text = [&](int Attribute) {
    // HSA's name fields are 64-byte arrays.
    char Buffer[64] = {0};
    if (API.hsa_agent_get_info(Agent, Attribute, Buffer))
      return std::string();
    return std::string(Buffer, strnlen(Buffer, sizeof(Buffer)));
  };
  P.Architecture = Text(HSA_AGENT_INFO_NAME);
  P.Name = Text(HSA_AMD_AGENT_INFO_PRODUCT_NAME);
  if (P.Name.empty())
    P.Name = P.Architecture;
  P.Vendor = Text(HSA_AGENT_INFO_VENDOR_NAME);
  if (P.Vendor.empty())
    P.Vendor = "AMD";
  P.DriverVersion = "HSA";
  size_t Bytes = 0;
  if (Pool.handle && !API.hsa_amd_memory_pool_get_info(
                         Pool, HSA_AMD_MEMORY_POOL_INFO_SIZE, &Bytes))
    P.GlobalMemoryBytes = Bytes;
  // HSA gives clocks in MHz.
  P.ClockKHz = Word(HSA_AMD_AGENT_INFO_MAX_CLOCK_FREQUENCY) * 1000;
  P.MemoryClockKHz = Word(HSA_AMD_AGENT_INFO_MEMORY_MAX_FREQUENCY) * 1000;
  P.Multiprocessors = Word(HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT);
  P.WarpSize = Word(HSA_AGENT_INFO_WAVEFRONT_SIZE);
  P.MaxThreadsPerBlock = Word(HSA_AGENT_INFO_WORKGROUP_MAX_SIZE);
  uint16_t BlockDims[3] = {0, 0, 0};
  if (!API.hsa_agent_get_info(Agent, HSA_AGENT_INFO_WORKGROUP_MAX_DIM,
                              BlockDims))
    for (int D = 0; D < 3; ++D)
      P.MaxBlockDims[D] = BlockDims[D];
  uint32_t GridDims[3] = {0, 0, 0};
  if (!API.hsa_agent_get_info(Agent, HSA_AGENT_INFO_GRID_MAX_DIM, GridDims))
    for (int D = 0; D < 3; ++D)
      P.MaxGridDims[D] = GridDims[D];
  std::string Missing = missingForUnifiedMemory(Runtime);
  P.UnifiedMemory = Missing.empty();
  P.UnifiedMemoryDetail = P.UnifiedMemory ? "HMM and XNACK" : Missing;
  return P;
}
