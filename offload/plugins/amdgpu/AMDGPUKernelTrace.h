//===- AMDGPUKernelTrace.h - What a launch uses, in words -------*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The two reports of an AMD GPU launch's resources, from the code object's
// metadata (AMDGPUCodeObjectMetadata.h) and the kernel's symbol:
//
// - LIBOMPTARGET_KERNEL_TRACE (any value but 0): one line per launch on
//   stderr in the format of upstream's AMDGPU plugin, which tools and
//   scripts parse ("DEVID: 0 SGN:2 ConstWGSize:256  args: 4
//   teamsXthrds:( 440X 256) reqd:(   0X   0) lds_usage:7200B sgpr_count:48
//   vgpr_count:32 sgpr_spill_count:0 vgpr_spill_count:0 tripcount:1000
//   n:<kernel>"), with the scratch per work-item added before the name
//   (`scratch:104B`);
// - LIBOMPTARGET_INFO's launch line, after the grid: "32 VGPRs, 48 SGPRs,
//   7200+0 bytes of LDS, 104 bytes of scratch per work-item".
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_PLUGINS_AMDGPU_AMDGPUKERNELTRACE_H
#define OFFLOAD_PLUGINS_AMDGPU_AMDGPUKERNELTRACE_H

#include "AMDGPUCodeObjectMetadata.h"
#include "gpu/KernelGrid.h"

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <string>

namespace offload {
namespace plugin {
namespace hsa {

/// One launch, as the trace line reports it.
struct TracedLaunch {
  int32_t DeviceId = 0;
  std::string Name;
  /// The kernel environment's execution mode (OMPTgtExecModeFlags).
  uint8_t ExecMode = 0;
  /// The largest work-group the kernel was compiled for.
  uint32_t MaxFlatWorkgroupSize = 0;
  /// Kernel arguments, the launch environment included.
  uint32_t NumArgs = 0;
  Grid TheGrid{0, 0};
  /// What the construct asked for (num_teams, thread_limit, trip count).
  uint32_t NumTeams = 0, ThreadLimit = 0;
  uint64_t Tripcount = 0;
  /// The dispatch's group segment (static and dynamic LDS) and private
  /// segment per work-item, in bytes.
  uint64_t GroupBytes = 0;
  uint64_t PrivateBytes = 0;
  offload::amdgpu::KernelMetadata Metadata;
};

inline std::string kernelTraceLine(const TracedLaunch &L) {
  uint64_t Teams =
      uint64_t(L.TheGrid.blocks(0)) * L.TheGrid.blocks(1) * L.TheGrid.blocks(2);
  char Text[512];
  std::snprintf(
      Text, sizeof(Text),
      "DEVID:%2d SGN:%1u ConstWGSize:%-4u args:%2u teamsXthrds:(%4" PRIu64
      "X%4" PRIu64 ") reqd:(%4uX%4u) lds_usage:%" PRIu64
      "B sgpr_count:%u vgpr_count:%u sgpr_spill_count:%u "
      "vgpr_spill_count:%u tripcount:%" PRIu64 " scratch:%" PRIu64 "B n:",
      L.DeviceId, unsigned(L.ExecMode), L.MaxFlatWorkgroupSize, L.NumArgs,
      Teams, L.TheGrid.totalThreadsPerBlock(), L.NumTeams, L.ThreadLimit,
      L.GroupBytes, L.Metadata.SGPRCount, L.Metadata.VGPRCount,
      L.Metadata.SGPRSpillCount, L.Metadata.VGPRSpillCount, L.Tripcount,
      L.PrivateBytes);
  return Text + L.Name;
}

/// LIBOMPTARGET_INFO's figures after the grid; registers only when the
/// metadata gives them.
inline std::string
describeAMDGPUResources(const offload::amdgpu::KernelMetadata &Metadata,
                        uint64_t StaticGroup, uint64_t DynamicGroup,
                        uint64_t PrivateBytes) {
  std::string Text;
  if (Metadata.HasRegisterCounts) {
    Text += std::to_string(Metadata.VGPRCount) + " VGPRs, ";
    if (Metadata.AGPRCount)
      Text += std::to_string(Metadata.AGPRCount) + " AGPRs, ";
    Text += std::to_string(Metadata.SGPRCount) + " SGPRs, ";
    if (Metadata.VGPRSpillCount || Metadata.SGPRSpillCount)
      Text += std::to_string(Metadata.VGPRSpillCount) + "/" +
              std::to_string(Metadata.SGPRSpillCount) +
              " VGPRs/SGPRs spilled, ";
  }
  return Text + std::to_string(StaticGroup) + "+" +
         std::to_string(DynamicGroup) + " bytes of LDS, " +
         std::to_string(PrivateBytes) + " bytes of scratch per work-item";
}

} // namespace hsa
} // namespace plugin
} // namespace offload

#endif // OFFLOAD_PLUGINS_AMDGPU_AMDGPUKERNELTRACE_H
