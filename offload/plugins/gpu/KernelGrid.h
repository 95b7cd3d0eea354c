//===- KernelGrid.h - Launch grids of GPU kernels ---------------*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What the CUDA and AMDGPU plugins share about launching an OpenMP kernel:
// the layout of the `<kernel>_kernel_environment` global the compiler emits
// (OMPKinds.def, openmp/device/include/DeviceABI.h), the launch environment
// every kernel receives as its first argument, and the choice of the grid
// from the num_teams / thread_limit clauses, the kernel environment, the
// loop's trip count and the device's limits.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_PLUGINS_GPU_KERNELGRID_H
#define OFFLOAD_PLUGINS_GPU_KERNELGRID_H

// The device runtime's definitions of the compiler's structures
// (freestanding; the plugins use its structures, never its code).
#include "../../../openmp/device/include/DeviceABI.h"

#include <cstddef>
#include <cstdint>

namespace offload {
namespace plugin {

/// ConfigurationEnvironmentTy.
using KernelConfiguration = ompx::ConfigurationEnvironmentTy;

/// KernelEnvironmentTy as it lies in device memory (64-bit pointers).
struct KernelEnvironmentLayout {
  KernelConfiguration Configuration;
  uint64_t Ident;
  uint64_t DynamicEnvironment;
};
static_assert(sizeof(KernelEnvironmentLayout) == 48,
              "layout of <kernel>_kernel_environment changed");

/// KernelLaunchEnvironmentTy: zeroed for every launch; the device runtime
/// uses the two counters for the teams reduction (GPUReduction.cpp).
struct LaunchEnvironmentLayout {
  uint32_t ReductionCnt;
  uint32_t ReductionIterCnt;
  uint64_t ReductionBuffer;
};
static_assert(sizeof(LaunchEnvironmentLayout) == 16,
              "layout of KernelLaunchEnvironmentTy changed");

/// Execution mode bits (OMPTgtExecModeFlags).
using ompx::ExecModeGeneric;
using ompx::ExecModeSPMD;

/// What the device and the device runtime allow.
struct GridLimits {
  /// Smallest of the device's limit, the kernel's compiled limit and the
  /// device runtime's (256, see openmp/device/gpu/GPUArch.cpp).
  uint32_t MaxThreadsPerBlock = 256;
  uint32_t DefaultThreadsPerBlock = 128;
  uint32_t MaxBlocks = 65535;
  /// Blocks when nothing says how many (e.g. a few per multiprocessor).
  uint32_t DefaultBlocks = 1;
  /// Threads that run in lockstep (NVIDIA warp, AMD wavefront).
  uint32_t WarpSize = 32;
};

/// What the construct asked for (zero: unspecified).
struct GridRequest {
  uint32_t NumTeams = 0;
  uint32_t ThreadLimit = 0;
  uint64_t Tripcount = 0;
};

struct Grid {
  uint32_t Blocks;
  uint32_t ThreadsPerBlock;
};

/// Threads: the thread_limit clause, else the kernel's compiled maximum,
/// else the default; at least the kernel's minimum; one more warp for a
/// generic-mode kernel's main thread; within the limits.
/// Blocks: the num_teams clause, else the kernel's maximum, else enough
/// blocks for the loop's trip count (SPMD: one iteration per thread;
/// generic: one per team), else the default; at least the kernel's minimum;
/// within the limits.
inline Grid chooseGrid(const KernelConfiguration &Config,
                       const GridRequest &Request, const GridLimits &Limits) {
  auto Clamp = [](uint64_t Value, uint64_t Low, uint64_t High) {
    return Value < Low ? Low : (Value > High ? High : Value);
  };
  uint64_t Threads = Request.ThreadLimit;
  if (Threads == 0)
    Threads = Config.MaxThreads > 0 ? uint64_t(Config.MaxThreads)
                                    : Limits.DefaultThreadsPerBlock;
  if (Config.MinThreads > 0 && Threads < uint64_t(Config.MinThreads))
    Threads = uint64_t(Config.MinThreads);
  // In generic mode the device runtime keeps the last warp for the main
  // thread (a warp runs in lockstep, so the main thread cannot share one with
  // waiting workers): the threads asked for are the workers, plus one warp.
  if ((Config.ExecMode & ExecModeGeneric) && Limits.WarpSize > 1)
    Threads += Limits.WarpSize;
  Threads = Clamp(Threads, 1, Limits.MaxThreadsPerBlock);

  uint64_t Blocks = Request.NumTeams;
  if (Blocks == 0 && Config.MaxTeams > 0)
    Blocks = uint64_t(Config.MaxTeams);
  if (Blocks == 0 && Request.Tripcount > 0) {
    uint64_t PerBlock = (Config.ExecMode & ExecModeSPMD) ? Threads : 1;
    Blocks = (Request.Tripcount + PerBlock - 1) / PerBlock;
  }
  if (Blocks == 0)
    Blocks = Limits.DefaultBlocks;
  if (Config.MinTeams > 0 && Blocks < uint64_t(Config.MinTeams))
    Blocks = uint64_t(Config.MinTeams);
  Blocks = Clamp(Blocks, 1, Limits.MaxBlocks);
  return Grid{uint32_t(Blocks), uint32_t(Threads)};
}

/// Bytes of the teams-reduction buffer a kernel needs (0: none).
inline uint64_t reductionBufferBytes(const KernelConfiguration &Config) {
  if (Config.ReductionDataSize <= 0 || Config.ReductionBufferLength <= 0)
    return 0;
  return uint64_t(Config.ReductionDataSize) *
         uint64_t(Config.ReductionBufferLength);
}

} // namespace plugin
} // namespace offload

#endif // OFFLOAD_PLUGINS_GPU_KERNELGRID_H
