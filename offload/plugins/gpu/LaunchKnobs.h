//===- LaunchKnobs.h - Environment variables that shape launches -*- C++
//-*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The variables upstream's GPU plugins read to shape every launch, with
// upstream's meaning, so that a user's settings work the same here:
//
//   OMP_NUM_TEAMS              caps the blocks of every launch
//   OMP_TEAMS_THREAD_LIMIT     caps the threads per block
//   LIBOMPTARGET_SHARED_MEMORY_SIZE
//                              bytes of dynamic shared memory added to every
//                              launch (llvm_omp_target_dynamic_shared_alloc)
//   LIBOMPTARGET_MIN_THREADS_FOR_LOW_TRIP_COUNT (32)
//   LIBOMPTARGET_REUSE_BLOCKS_FOR_HIGH_TRIP_COUNT (true)
//                              see GridLimits in KernelGrid.h
//
// A plugin reads them once per device; a value that is not a number (or a
// boolean) is an error naming the variable, not silently ignored.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_PLUGINS_GPU_LAUNCHKNOBS_H
#define OFFLOAD_PLUGINS_GPU_LAUNCHKNOBS_H

#include "DeviceLimits.h"
#include "KernelGrid.h"

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <strings.h>

namespace offload {
namespace plugin {

struct LaunchKnobs {
  uint32_t NumTeams = 0;    ///< OMP_NUM_TEAMS; 0: unset
  uint32_t ThreadLimit = 0; ///< OMP_TEAMS_THREAD_LIMIT; 0: unset
  uint32_t SharedMemoryBytes = 0;
  uint32_t MinThreadsForLowTripCount = 32;
  bool ReuseBlocksForHighTripCount = true;
  /// Empty, or what was wrong with the first bad variable.
  std::string Error;
};

/// Reads the variables through \p Get (std::getenv, or a test's table).
/// (The plugins load no LLVM library, so this parses by hand.)
template <typename GetFn> LaunchKnobs parseLaunchKnobs(GetFn Get) {
  LaunchKnobs Knobs;
  auto Fail = [&](const char *Name, const char *Value, const char *What) {
    if (Knobs.Error.empty())
      Knobs.Error = std::string(Name) + "='" + Value + "' is not " + What;
  };
  auto ReadNumber = [&](const char *Name, uint32_t &Out) {
    const char *Value = Get(Name);
    if (Value && *Value && !parseUInt32Setting(Value, Out))
      Fail(Name, Value, "a number from 0 to 4294967295");
  };
  ReadNumber("OMP_NUM_TEAMS", Knobs.NumTeams);
  ReadNumber("OMP_TEAMS_THREAD_LIMIT", Knobs.ThreadLimit);
  ReadNumber("LIBOMPTARGET_SHARED_MEMORY_SIZE", Knobs.SharedMemoryBytes);
  ReadNumber("LIBOMPTARGET_MIN_THREADS_FOR_LOW_TRIP_COUNT",
             Knobs.MinThreadsForLowTripCount);
  const char *Name = "LIBOMPTARGET_REUSE_BLOCKS_FOR_HIGH_TRIP_COUNT";
  const char *Value = Get(Name);
  if (Value && *Value) {
    auto Is = [&](const char *Word) { return strcasecmp(Value, Word) == 0; };
    if (Is("true") || Is("on") || Is("1"))
      Knobs.ReuseBlocksForHighTripCount = true;
    else if (Is("false") || Is("off") || Is("0"))
      Knobs.ReuseBlocksForHighTripCount = false;
    else
      Fail(Name, Value, "a boolean (true/false, on/off, 1/0)");
  }
  return Knobs;
}

inline LaunchKnobs launchKnobsFromEnvironment() {
  return parseLaunchKnobs([](const char *Name) { return std::getenv(Name); });
}

/// \p Limits, the device's and kernel's, narrowed by \p Knobs as upstream
/// narrows them: OMP_NUM_TEAMS and OMP_TEAMS_THREAD_LIMIT only ever lower
/// the limits (an `ompx_bare` kernel's exact grid is not affected).
inline void applyLaunchKnobs(const LaunchKnobs &Knobs, GridLimits &Limits) {
  if (Knobs.NumTeams && Knobs.NumTeams < Limits.MaxBlocks)
    Limits.MaxBlocks = Knobs.NumTeams;
  if (Knobs.ThreadLimit && Knobs.ThreadLimit < Limits.MaxThreadsPerBlock)
    Limits.MaxThreadsPerBlock = Knobs.ThreadLimit;
  Limits.MinThreadsForLowTripCount = Knobs.MinThreadsForLowTripCount;
  Limits.ReuseBlocksForHighTripCount = Knobs.ReuseBlocksForHighTripCount;
}

} // namespace plugin
} // namespace offload

#endif // OFFLOAD_PLUGINS_GPU_LAUNCHKNOBS_H
