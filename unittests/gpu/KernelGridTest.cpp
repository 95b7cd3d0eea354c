//===- KernelGridTest.cpp - Launch grids of GPU kernels -------------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gpu/KernelGrid.h"
#include "gpu/LaunchKnobs.h"

#include <map>
#include <string>

#include "gtest/gtest.h"

using namespace offload::plugin;

namespace {

KernelConfiguration config(uint8_t Mode, int32_t MaxThreads = -1,
                           int32_t MaxTeams = -1) {
  KernelConfiguration C{};
  C.ExecMode = Mode;
  C.MinThreads = -1;
  C.MaxThreads = MaxThreads;
  C.MinTeams = -1;
  C.MaxTeams = MaxTeams;
  return C;
}

GridLimits limits() {
  GridLimits L;
  L.MaxThreadsPerBlock = 256;
  L.DefaultThreadsPerBlock = 128;
  L.MaxBlocks = 1000;
  L.DefaultBlocks = 40;
  return L;
}

TEST(KernelGrid, ClausesWin) {
  GridRequest R;
  R.NumTeams = 7;
  R.ThreadLimit = 64;
  R.Tripcount = 100000;
  Grid G = chooseGrid(config(ExecModeSPMD, 32, 3), R, limits());
  EXPECT_EQ(G.Blocks, 7u);
  EXPECT_EQ(G.ThreadsPerBlock, 64u);
}

TEST(KernelGrid, KernelEnvironmentBeforeDefaults) {
  Grid G = chooseGrid(config(ExecModeSPMD, 96, 5), GridRequest(), limits());
  EXPECT_EQ(G.Blocks, 5u);
  EXPECT_EQ(G.ThreadsPerBlock, 96u);
}

TEST(KernelGrid, GenericModeAddsAWarpForTheMainThread) {
  GridRequest R;
  R.ThreadLimit = 64;
  // 64 workers and the main thread's warp.
  EXPECT_EQ(chooseGrid(config(ExecModeGeneric), R, limits()).ThreadsPerBlock,
            96u);
  // Generic-SPMD kernels that keep the state machine (Flang's) need it too;
  // those link-time OpenMPOpt SPMD-ised (no state machine) run every thread.
  KernelConfiguration GenericSPMD = config(ExecModeGeneric | ExecModeSPMD);
  GenericSPMD.UseGenericStateMachine = 1;
  EXPECT_EQ(chooseGrid(GenericSPMD, R, limits()).ThreadsPerBlock, 96u);
  GenericSPMD.UseGenericStateMachine = 0;
  EXPECT_EQ(chooseGrid(GenericSPMD, R, limits()).ThreadsPerBlock, 64u);
  EXPECT_EQ(chooseGrid(config(ExecModeSPMD), R, limits()).ThreadsPerBlock, 64u);
  // AMD wavefronts of 64; never above the block limit.
  GridLimits Wide = limits();
  Wide.WarpSize = 64;
  EXPECT_EQ(chooseGrid(config(ExecModeGeneric), R, Wide).ThreadsPerBlock, 128u);
  R.ThreadLimit = 256;
  EXPECT_EQ(chooseGrid(config(ExecModeGeneric), R, Wide).ThreadsPerBlock, 256u);
}

TEST(KernelGrid, TripcountSetsBlocks) {
  GridLimits L = limits();
  L.ReuseBlocksForHighTripCount = false;
  GridRequest R;
  R.Tripcount = 10000;
  // SPMD: one iteration per thread, 128 threads per block.
  EXPECT_EQ(chooseGrid(config(ExecModeSPMD), R, L).Blocks, 79u);
  // Generic: one iteration per team (up to the block limit).
  EXPECT_EQ(chooseGrid(config(ExecModeGeneric), R, L).Blocks, 1000u);
  R.Tripcount = 300;
  EXPECT_EQ(chooseGrid(config(ExecModeGeneric), R, L).Blocks, 300u);
}

// LIBOMPTARGET_REUSE_BLOCKS_FOR_HIGH_TRIP_COUNT (on by default, as
// upstream): a long loop gets the default blocks, not one per chunk.
TEST(KernelGrid, HighTripCountReusesTheDefaultBlocks) {
  GridRequest R;
  R.Tripcount = 10000;
  Grid G = chooseGrid(config(ExecModeSPMD), R, limits());
  EXPECT_EQ(G.Blocks, 40u);
  EXPECT_EQ(G.ThreadsPerBlock, 128u);
  EXPECT_EQ(chooseGrid(config(ExecModeGeneric), R, limits()).Blocks, 40u);
}

// LIBOMPTARGET_MIN_THREADS_FOR_LOW_TRIP_COUNT: the numbers of upstream's
// offloading/small_trip_count.c (a loop of 128 iterations).
TEST(KernelGrid, LowTripCountSpreadsOverMoreBlocks) {
  GridRequest R;
  R.Tripcount = 128;
  Grid G = chooseGrid(config(ExecModeSPMD), R, limits());
  EXPECT_EQ(G.Blocks, 4u);
  EXPECT_EQ(G.ThreadsPerBlock, 32u);
  R.Tripcount = 129;
  EXPECT_EQ(chooseGrid(config(ExecModeSPMD), R, limits()).Blocks, 5u);
  GridLimits Eight = limits();
  Eight.MinThreadsForLowTripCount = 8;
  R.Tripcount = 128;
  G = chooseGrid(config(ExecModeSPMD), R, Eight);
  EXPECT_EQ(G.Blocks, 16u);
  EXPECT_EQ(G.ThreadsPerBlock, 8u);
  // The user's thread_limit is kept.
  R.ThreadLimit = 4;
  G = chooseGrid(config(ExecModeSPMD), R, limits());
  EXPECT_EQ(G.Blocks, 32u);
  EXPECT_EQ(G.ThreadsPerBlock, 4u);
}

TEST(KernelGrid, MediumTripCountUsesWholeWarps) {
  GridRequest R;
  // Enough for 40 blocks of 32 but not of 128: 40 blocks of the power of
  // two that covers 2000 / 40 = 50 iterations.
  R.Tripcount = 2000;
  Grid G = chooseGrid(config(ExecModeSPMD), R, limits());
  EXPECT_EQ(G.ThreadsPerBlock, 64u);
  EXPECT_EQ(G.Blocks, 32u);
}

TEST(KernelGrid, DefaultsWithoutInformation) {
  Grid G = chooseGrid(config(ExecModeSPMD), GridRequest(), limits());
  EXPECT_EQ(G.Blocks, 40u);
  EXPECT_EQ(G.ThreadsPerBlock, 128u);
}

TEST(KernelGrid, LimitsClamp) {
  GridRequest R;
  R.ThreadLimit = 1024; // above the device runtime's 256
  R.Tripcount = uint64_t(1) << 40;
  GridLimits L = limits();
  L.ReuseBlocksForHighTripCount = false;
  Grid G = chooseGrid(config(ExecModeSPMD), R, L);
  EXPECT_EQ(G.ThreadsPerBlock, 256u);
  EXPECT_EQ(G.Blocks, 1000u);
}

TEST(KernelGrid, MinimaRaise) {
  KernelConfiguration C = config(ExecModeSPMD, -1, -1);
  C.MinThreads = 200;
  C.MinTeams = 50;
  Grid G = chooseGrid(C, GridRequest(), limits());
  EXPECT_EQ(G.ThreadsPerBlock, 200u);
  EXPECT_EQ(G.Blocks, 50u);
}

TEST(KernelGrid, ReductionBuffer) {
  KernelConfiguration C = config(ExecModeSPMD);
  EXPECT_EQ(reductionBufferBytes(C), 0u);
  C.ReductionDataSize = 16;
  C.ReductionBufferLength = 1024;
  EXPECT_EQ(reductionBufferBytes(C), 16384u);
}

/// An ompx_bare kernel has no kernel environment: its configuration is
/// all zeros, so its mode reads as ExecModeBare.
GridRequest bareRequest() {
  GridRequest R;
  R.NumTeams = 2;
  R.NumTeamsYZ[0] = 3;
  R.NumTeamsYZ[1] = 4;
  R.ThreadLimit = 64;
  R.ThreadLimitYZ[0] = 4;
  R.ThreadLimitYZ[1] = 2;
  return R;
}

TEST(KernelGrid, BareIsExactAndThreeDimensional) {
  KernelConfiguration Bare{};
  GridLimits L = limits();
  L.MaxBareThreadsPerBlock = 1024;
  Grid G{0, 0};
  // 512 threads per block: over the device runtime's 256, which bare
  // kernels do not need, and no generic-mode warp is added.
  EXPECT_EQ(chooseLaunchGrid(Bare, bareRequest(), L, G), "");
  EXPECT_EQ(G.blocks(0), 2u);
  EXPECT_EQ(G.blocks(1), 3u);
  EXPECT_EQ(G.blocks(2), 4u);
  EXPECT_EQ(G.threads(0), 64u);
  EXPECT_EQ(G.threads(1), 4u);
  EXPECT_EQ(G.threads(2), 2u);
  EXPECT_EQ(G.totalThreadsPerBlock(), 512u);
  EXPECT_EQ(G.dimensions(), 3u);
  EXPECT_EQ(G.describe(), "2x3x4 blocks of 64x4x2 threads");
}

TEST(KernelGrid, BareMissingExtentsAreOne) {
  GridRequest R;
  R.NumTeams = 5;
  R.ThreadLimit = 32;
  R.ThreadLimitYZ[0] = 2;
  Grid G{0, 0};
  EXPECT_EQ(chooseLaunchGrid(KernelConfiguration{}, R, limits(), G), "");
  EXPECT_EQ(G.blocks(1), 1u);
  EXPECT_EQ(G.blocks(2), 1u);
  EXPECT_EQ(G.threads(1), 2u);
  EXPECT_EQ(G.threads(2), 1u);
  EXPECT_EQ(G.dimensions(), 2u);
  EXPECT_EQ(G.describe(), "5 blocks of 32x2x1 threads");
}

TEST(KernelGrid, BareBlockOverTheDeviceLimitIsRefused) {
  GridLimits L = limits();
  L.MaxBareThreadsPerBlock = 256;
  Grid G{0, 0};
  EXPECT_EQ(chooseLaunchGrid(KernelConfiguration{}, bareRequest(), L, G),
            "the ompx_bare thread_limit(64,4,2) asks for 512 threads per "
            "block, more than the 256 this kernel may use");
}

TEST(KernelGrid, OpenMPKernelsStayOneDimensional) {
  // y and z extents do not reach a kernel of the device runtime, and a bare
  // kernel without clauses gets the defaults.
  GridRequest R = bareRequest();
  Grid G{0, 0};
  EXPECT_EQ(chooseLaunchGrid(config(ExecModeSPMD), R, limits(), G), "");
  EXPECT_EQ(G.Blocks, 2u);
  EXPECT_EQ(G.ThreadsPerBlock, 64u);
  EXPECT_EQ(G.dimensions(), 1u);
  EXPECT_EQ(G.describe(), "2 blocks of 64 threads");
  EXPECT_EQ(chooseLaunchGrid(KernelConfiguration{}, GridRequest(), limits(), G),
            "");
  EXPECT_EQ(G.Blocks, 40u);
  EXPECT_EQ(G.ThreadsPerBlock, 128u);
  EXPECT_EQ(G.dimensions(), 1u);
}

TEST(LaunchKnobs, DefaultsAreUpstreams) {
  LaunchKnobs K = parseLaunchKnobs([](const char *) { return nullptr; });
  EXPECT_TRUE(K.Error.empty());
  EXPECT_EQ(K.NumTeams, 0u);
  EXPECT_EQ(K.ThreadLimit, 0u);
  EXPECT_EQ(K.SharedMemoryBytes, 0u);
  EXPECT_EQ(K.MinThreadsForLowTripCount, 32u);
  EXPECT_TRUE(K.ReuseBlocksForHighTripCount);
}

LaunchKnobs knobs(const std::map<std::string, std::string> &Env) {
  return parseLaunchKnobs([&](const char *Name) -> const char * {
    auto It = Env.find(Name);
    return It == Env.end() ? nullptr : It->second.c_str();
  });
}

TEST(LaunchKnobs, ReadAndApplied) {
  LaunchKnobs K =
      knobs({{"OMP_NUM_TEAMS", "6"},
             {"OMP_TEAMS_THREAD_LIMIT", "64"},
             {"LIBOMPTARGET_SHARED_MEMORY_SIZE", "1024"},
             {"LIBOMPTARGET_MIN_THREADS_FOR_LOW_TRIP_COUNT", "8"},
             {"LIBOMPTARGET_REUSE_BLOCKS_FOR_HIGH_TRIP_COUNT", "False"}});
  ASSERT_TRUE(K.Error.empty()) << K.Error;
  EXPECT_EQ(K.SharedMemoryBytes, 1024u);
  GridLimits L = limits();
  applyLaunchKnobs(K, L);
  EXPECT_EQ(L.MaxBlocks, 6u);
  EXPECT_EQ(L.MaxThreadsPerBlock, 64u);
  EXPECT_EQ(L.MinThreadsForLowTripCount, 8u);
  EXPECT_FALSE(L.ReuseBlocksForHighTripCount);
  // The caps bound clauses and defaults alike.
  GridRequest R;
  R.NumTeams = 100;
  R.ThreadLimit = 200;
  Grid G = chooseGrid(config(ExecModeSPMD), R, L);
  EXPECT_EQ(G.Blocks, 6u);
  EXPECT_EQ(G.ThreadsPerBlock, 64u);
  G = chooseGrid(config(ExecModeSPMD), GridRequest(), L);
  EXPECT_EQ(G.Blocks, 6u);
  EXPECT_EQ(G.ThreadsPerBlock, 64u);
}

TEST(LaunchKnobs, CapsNeverRaiseLimits) {
  GridLimits L = limits();
  applyLaunchKnobs(
      knobs({{"OMP_NUM_TEAMS", "5000"}, {"OMP_TEAMS_THREAD_LIMIT", "1024"}}),
      L);
  EXPECT_EQ(L.MaxBlocks, 1000u);
  EXPECT_EQ(L.MaxThreadsPerBlock, 256u);
}

TEST(LaunchKnobs, BadValuesNameTheVariable) {
  EXPECT_EQ(knobs({{"OMP_NUM_TEAMS", "many"}}).Error,
            "OMP_NUM_TEAMS='many' is not a number from 0 to 4294967295");
  EXPECT_EQ(knobs({{"OMP_TEAMS_THREAD_LIMIT", "-4"}}).Error,
            "OMP_TEAMS_THREAD_LIMIT='-4' is not a number from 0 to "
            "4294967295");
  EXPECT_EQ(knobs({{"LIBOMPTARGET_SHARED_MEMORY_SIZE", "99999999999"}}).Error,
            "LIBOMPTARGET_SHARED_MEMORY_SIZE='99999999999' is not a number "
            "from 0 to 4294967295");
  EXPECT_EQ(
      knobs({{"LIBOMPTARGET_REUSE_BLOCKS_FOR_HIGH_TRIP_COUNT", "maybe"}}).Error,
      "LIBOMPTARGET_REUSE_BLOCKS_FOR_HIGH_TRIP_COUNT='maybe' is not a "
      "boolean (true/false, on/off, 1/0)");
}

} // namespace
