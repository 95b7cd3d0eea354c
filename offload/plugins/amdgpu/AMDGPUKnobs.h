//===- AMDGPUKnobs.h - Environment variables of the AMDGPU plugin -*- C++ -*-=//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The variables upstream's AMDGPU plugin reads to shape its queues, copies
// and default grid, with upstream's names, defaults and meanings:
//
//   LIBOMPTARGET_AMDGPU_NUM_HSA_QUEUES (4)
//       HSA queues per device; asynchronous work is spread over them, one
//       queue per __tgt_async_info at a time (at least 1).
//   LIBOMPTARGET_AMDGPU_HSA_QUEUE_SIZE (512)
//       packets per queue: rounded up to a power of two (HSA requires one)
//       and capped at the agent's HSA_AGENT_INFO_QUEUE_MAX_SIZE.
//   LIBOMPTARGET_AMDGPU_TEAMS_PER_CU (4)
//       the default number of teams is compute units times this (at least
//       1 per compute unit).
//   LIBOMPTARGET_KERNEL_TRACE (0)
//       not 0: one line per launch on stderr with the kernel's grid,
//       registers, LDS and scratch, in upstream's format
//       (AMDGPUKernelTrace.h).
//   LIBOMPTARGET_AMDGPU_MAX_ASYNC_COPY_BYTES (1 MiB)
//       copies between the device and pageable host memory of at most this
//       many bytes go through a pinned staging buffer; larger ones lock the
//       host range for the copy's duration (see AMDGPUPlugin.cpp).
//
// Each is read once per device; a value that is not a number is an error
// naming the variable, as for the shared launch variables (LaunchKnobs.h).
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_PLUGINS_AMDGPU_AMDGPUKNOBS_H
#define OFFLOAD_PLUGINS_AMDGPU_AMDGPUKNOBS_H

#include "gpu/DeviceLimits.h"

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace offload {
namespace plugin {

struct AMDGPUKnobs {
  uint32_t NumQueues = 4;
  uint32_t QueueSize = 512;
  uint32_t TeamsPerCU = 4;
  uint64_t MaxAsyncCopyBytes = uint64_t(1) << 20;
  uint32_t KernelTrace = 0;
  /// Empty, or what was wrong with the first bad variable.
  std::string Error;
};

/// Reads the variables through \p Get (std::getenv, or a test's table).
template <typename GetFn> AMDGPUKnobs parseAMDGPUKnobs(GetFn Get) {
  AMDGPUKnobs Knobs;
  auto ReadNumber = [&](const char *Name, uint32_t &Out) {
    const char *Value = Get(Name);
    if (Value && *Value && !parseUInt32Setting(Value, Out) &&
        Knobs.Error.empty())
      Knobs.Error = std::string(Name) + "='" + Value +
                    "' is not a number from 0 to 4294967295";
  };
  ReadNumber("LIBOMPTARGET_AMDGPU_NUM_HSA_QUEUES", Knobs.NumQueues);
  ReadNumber("LIBOMPTARGET_AMDGPU_HSA_QUEUE_SIZE", Knobs.QueueSize);
  ReadNumber("LIBOMPTARGET_AMDGPU_TEAMS_PER_CU", Knobs.TeamsPerCU);
  ReadNumber("LIBOMPTARGET_KERNEL_TRACE", Knobs.KernelTrace);
  const char *CopyName = "LIBOMPTARGET_AMDGPU_MAX_ASYNC_COPY_BYTES";
  RequestedSize Copy = parseRequestedSize(CopyName, Get(CopyName));
  if (!Copy.Error.empty() && Knobs.Error.empty())
    Knobs.Error = Copy.Error;
  if (Copy.Present)
    Knobs.MaxAsyncCopyBytes = Copy.Bytes;
  if (Knobs.NumQueues == 0)
    Knobs.NumQueues = 1;
  if (Knobs.TeamsPerCU == 0)
    Knobs.TeamsPerCU = 1;
  return Knobs;
}

inline AMDGPUKnobs amdgpuKnobsFromEnvironment() {
  return parseAMDGPUKnobs([](const char *Name) { return std::getenv(Name); });
}

/// The queue size to ask HSA for: \p Requested rounded up to a power of two,
/// within [1, \p AgentMax] (AgentMax 0: the agent did not say).
inline uint32_t hsaQueueSize(uint32_t Requested, uint32_t AgentMax) {
  uint32_t Size = 1;
  while (Size < Requested && Size < (uint32_t(1) << 31))
    Size <<= 1;
  if (AgentMax) {
    uint32_t Max = 1;
    while (Max <= AgentMax / 2)
      Max <<= 1;
    if (Size > Max)
      Size = Max;
  }
  return Size;
}

} // namespace plugin
} // namespace offload

#endif // OFFLOAD_PLUGINS_AMDGPU_AMDGPUKNOBS_H
