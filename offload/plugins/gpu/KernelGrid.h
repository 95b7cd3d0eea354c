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
// (OMPKinds.def, offload/include/DeviceABI.h), the launch environment
// every kernel receives as its first argument, and the choice of the grid
// from the num_teams / thread_limit clauses, the kernel environment, the
// loop's trip count and the device's limits.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_PLUGINS_GPU_KERNELGRID_H
#define OFFLOAD_PLUGINS_GPU_KERNELGRID_H

// The device runtime's definitions of the compiler's structures
// (freestanding; the plugins use its structures, never its code).
#include "DeviceABI.h"

#include <cstddef>
#include <cstdint>
#include <string>

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
using ompx::ExecModeBare;
using ompx::ExecModeGeneric;
using ompx::ExecModeGenericSPMD;
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
  /// The device's own limit on threads per block, which is what an
  /// `ompx_bare` kernel may use: it keeps no state of the device runtime.
  uint32_t MaxBareThreadsPerBlock = 1024;
  /// LIBOMPTARGET_MIN_THREADS_FOR_LOW_TRIP_COUNT: an SPMD loop too short to
  /// give DefaultBlocks full blocks gets blocks of fewer threads, down to
  /// this many, rather than fewer blocks.
  uint32_t MinThreadsForLowTripCount = 32;
  /// LIBOMPTARGET_REUSE_BLOCKS_FOR_HIGH_TRIP_COUNT: a long loop runs on
  /// DefaultBlocks blocks that take several iterations each, rather than on
  /// one block per iteration chunk.
  bool ReuseBlocksForHighTripCount = true;
};

/// What the construct asked for (zero: unspecified).
struct GridRequest {
  uint32_t NumTeams = 0;
  uint32_t ThreadLimit = 0;
  uint64_t Tripcount = 0;
  /// The y and z extents of an `ompx_bare` kernel's num_teams(x,y,z) and
  /// thread_limit(x,y,z) clauses (zero: not given, which means 1).
  uint32_t NumTeamsYZ[2] = {0, 0};
  uint32_t ThreadLimitYZ[2] = {0, 0};
};

/// A launch grid. The OpenMP kernels of the device runtime are
/// one-dimensional (x); only `ompx_bare` kernels get y and z extents.
struct Grid {
  uint32_t Blocks;
  uint32_t ThreadsPerBlock;
  uint32_t BlocksYZ[2] = {1, 1};
  uint32_t ThreadsYZ[2] = {1, 1};

  uint32_t blocks(int Dim) const { return Dim ? BlocksYZ[Dim - 1] : Blocks; }
  uint32_t threads(int Dim) const {
    return Dim ? ThreadsYZ[Dim - 1] : ThreadsPerBlock;
  }
  uint64_t totalThreadsPerBlock() const {
    return uint64_t(ThreadsPerBlock) * ThreadsYZ[0] * ThreadsYZ[1];
  }
  /// Dimensions in use (1 to 3), as HSA's dispatch packet records them.
  uint16_t dimensions() const {
    if (BlocksYZ[1] != 1 || ThreadsYZ[1] != 1)
      return 3;
    return BlocksYZ[0] != 1 || ThreadsYZ[0] != 1 ? 2 : 1;
  }
  /// "8 blocks of 128 threads", or with three extents each
  /// "2x3x4 blocks of 8x4x2 threads", for messages.
  std::string describe() const {
    auto Extents = [](uint32_t X, const uint32_t YZ[2]) {
      std::string Text = std::to_string(X);
      if (YZ[0] != 1 || YZ[1] != 1)
        Text += "x" + std::to_string(YZ[0]) + "x" + std::to_string(YZ[1]);
      return Text;
    };
    return Extents(Blocks, BlocksYZ) + " blocks of " +
           Extents(ThreadsPerBlock, ThreadsYZ) + " threads";
  }
};

/// An `ompx_bare` kernel (no kernel environment, so its mode reads as
/// ExecModeBare) launched with both clauses: CUDA-style, the grid and block
/// are exactly what the clauses say, in three dimensions. Nothing is
/// clamped (a kernel indexing by the ids it was promised would silently
/// skip work); a block over the device's limit is refused.
inline bool isBareLaunch(const KernelConfiguration &Config,
                         const GridRequest &Request) {
  return Config.ExecMode == ExecModeBare && Request.NumTeams > 0 &&
         Request.ThreadLimit > 0;
}

/// The grid of a bare launch (see isBareLaunch): an unspecified y or z
/// extent is 1. Returns false when the block has more threads than
/// \p Limits allow for bare kernels.
inline bool chooseBareGrid(const GridRequest &Request, const GridLimits &Limits,
                           Grid &Out) {
  auto OrOne = [](uint32_t Value) { return Value ? Value : 1u; };
  Out = Grid{Request.NumTeams, Request.ThreadLimit};
  for (int D = 0; D < 2; ++D) {
    Out.BlocksYZ[D] = OrOne(Request.NumTeamsYZ[D]);
    Out.ThreadsYZ[D] = OrOne(Request.ThreadLimitYZ[D]);
  }
  return Out.totalThreadsPerBlock() <= Limits.MaxBareThreadsPerBlock;
}

/// Threads: the thread_limit clause, else the kernel's compiled maximum,
/// else the default; at least the kernel's minimum; one more warp for a
/// generic-mode kernel's main thread; within the limits.
inline uint64_t chooseThreads(const KernelConfiguration &Config,
                              const GridRequest &Request,
                              const GridLimits &Limits) {
  uint64_t Threads = Request.ThreadLimit;
  if (Threads == 0)
    Threads = Config.MaxThreads > 0 ? uint64_t(Config.MaxThreads)
                                    : Limits.DefaultThreadsPerBlock;
  if (Config.MinThreads > 0 && Threads < uint64_t(Config.MinThreads))
    Threads = uint64_t(Config.MinThreads);
  // In generic mode the device runtime keeps the last warp for the main
  // thread (a warp runs in lockstep, so the main thread cannot share one with
  // waiting workers): the threads asked for are the workers, plus one warp.
  // Generic-SPMD is generic mode when the kernel asks for the state machine
  // (Flang), and SPMD mode when link-time OpenMPOpt SPMD-ised a generic
  // kernel (it clears that flag), as isSPMDMode in
  // openmp/device/src/Kernel.cpp decides.
  bool RunsGeneric =
      Config.ExecMode == ExecModeGeneric ||
      (Config.ExecMode == ExecModeGenericSPMD && Config.UseGenericStateMachine);
  if (RunsGeneric && Limits.WarpSize > 1)
    Threads += Limits.WarpSize;
  uint64_t Max = Limits.MaxThreadsPerBlock ? Limits.MaxThreadsPerBlock : 1;
  return Threads < 1 ? 1 : (Threads > Max ? Max : Threads);
}

/// Blocks for a loop of \p Tripcount iterations when no clause says how
/// many, as upstream's plugins choose them. SPMD (a combined `distribute
/// parallel for`): one iteration per thread; when that gives fewer than
/// DefaultBlocks full blocks and the thread count is not the user's, the
/// blocks get fewer threads (a power of two, down to
/// MinThreadsForLowTripCount) so more blocks share the loop, which may
/// lower \p Threads. Generic: one iteration per block. With
/// ReuseBlocksForHighTripCount, never more than DefaultBlocks.
inline uint64_t blocksForTripcount(const KernelConfiguration &Config,
                                   uint64_t Tripcount, bool UserThreads,
                                   const GridLimits &Limits,
                                   uint64_t &Threads) {
  uint64_t Default = Limits.DefaultBlocks ? Limits.DefaultBlocks : 1;
  uint64_t Blocks = Tripcount;
  if (Config.ExecMode == ExecModeSPMD) {
    uint64_t Floor = Limits.MinThreadsForLowTripCount;
    if (Floor == 0 || Floor > Threads)
      Floor = Threads;
    if (!UserThreads && Tripcount < Default * Threads) {
      uint64_t Wanted = Floor;
      if (Tripcount >= Default * Floor) {
        // Enough iterations for every default block: whole warps of at
        // most the iterations one of them gets.
        uint64_t PerBlock = (Tripcount + Default - 1) / Default;
        Wanted = 1;
        while (Wanted < PerBlock)
          Wanted *= 2;
      }
      if (Wanted < Threads)
        Threads = Wanted;
      if (Config.MinThreads > 0 && Threads < uint64_t(Config.MinThreads))
        Threads = uint64_t(Config.MinThreads);
    }
    Blocks = (Tripcount + Threads - 1) / Threads;
  }
  if (Limits.ReuseBlocksForHighTripCount && Blocks > Default)
    Blocks = Default;
  return Blocks;
}

/// Threads as chooseThreads says (fewer for a short SPMD loop, see
/// blocksForTripcount). Blocks: the num_teams clause, else the kernel's
/// maximum, else what the loop's trip count asks for (blocksForTripcount),
/// else the default; at least the kernel's minimum; within the limits.
inline Grid chooseGrid(const KernelConfiguration &Config,
                       const GridRequest &Request, const GridLimits &Limits) {
  uint64_t Threads = chooseThreads(Config, Request, Limits);
  uint64_t Blocks = Request.NumTeams;
  if (Blocks == 0 && Config.MaxTeams > 0)
    Blocks = uint64_t(Config.MaxTeams);
  if (Blocks == 0 && Request.Tripcount > 0)
    Blocks = blocksForTripcount(Config, Request.Tripcount,
                                Request.ThreadLimit > 0, Limits, Threads);
  if (Blocks == 0)
    Blocks = Limits.DefaultBlocks;
  if (Config.MinTeams > 0 && Blocks < uint64_t(Config.MinTeams))
    Blocks = uint64_t(Config.MinTeams);
  uint64_t MaxBlocks = Limits.MaxBlocks ? Limits.MaxBlocks : 1;
  Blocks = Blocks < 1 ? 1 : (Blocks > MaxBlocks ? MaxBlocks : Blocks);
  return Grid{uint32_t(Blocks), uint32_t(Threads)};
}

/// The grid of any launch: a bare launch's exact 3-D grid (chooseBareGrid),
/// else chooseGrid's. Returns an empty string, or why the launch cannot run
/// (for the plugin's message, which names the kernel and device).
inline std::string chooseLaunchGrid(const KernelConfiguration &Config,
                                    const GridRequest &Request,
                                    const GridLimits &Limits, Grid &Out) {
  if (!isBareLaunch(Config, Request)) {
    Out = chooseGrid(Config, Request, Limits);
    return std::string();
  }
  if (chooseBareGrid(Request, Limits, Out))
    return std::string();
  return "the ompx_bare thread_limit(" + std::to_string(Out.threads(0)) + "," +
         std::to_string(Out.threads(1)) + "," + std::to_string(Out.threads(2)) +
         ") asks for " + std::to_string(Out.totalThreadsPerBlock()) +
         " threads per block, more than the " +
         std::to_string(Limits.MaxBareThreadsPerBlock) + " this kernel may use";
}

/// LIBOMPTARGET_INFO's launch line for the grid a plugin hands the driver:
/// "[8,1,1] blocks and [128,1,1] threads in SPMD mode", upstream's words.
inline std::string describeLaunchGrid(const Grid &G,
                                      const KernelConfiguration &Config) {
  const char *Mode = "Generic";
  if (Config.ExecMode == ExecModeBare)
    Mode = "bare";
  else if (Config.ExecMode == ExecModeGenericSPMD)
    Mode = "Generic-SPMD";
  else if (Config.ExecMode & ExecModeSPMD)
    Mode = "SPMD";
  auto Triple = [](uint32_t X, uint32_t Y, uint32_t Z) {
    return "[" + std::to_string(X) + "," + std::to_string(Y) + "," +
           std::to_string(Z) + "]";
  };
  return Triple(G.blocks(0), G.blocks(1), G.blocks(2)) + " blocks and " +
         Triple(G.threads(0), G.threads(1), G.threads(2)) + " threads in " +
         Mode + " mode";
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
