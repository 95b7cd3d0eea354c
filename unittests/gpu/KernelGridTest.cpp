//===- KernelGridTest.cpp - Launch grids of GPU kernels -------------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gpu/KernelGrid.h"

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
  // Generic-SPMD kernels keep the state machine, so they need it too.
  EXPECT_EQ(chooseGrid(config(ExecModeGeneric | ExecModeSPMD), R, limits())
                .ThreadsPerBlock,
            96u);
  EXPECT_EQ(chooseGrid(config(ExecModeSPMD), R, limits()).ThreadsPerBlock,
            64u);
  // AMD wavefronts of 64; never above the block limit.
  GridLimits Wide = limits();
  Wide.WarpSize = 64;
  EXPECT_EQ(chooseGrid(config(ExecModeGeneric), R, Wide).ThreadsPerBlock,
            128u);
  R.ThreadLimit = 256;
  EXPECT_EQ(chooseGrid(config(ExecModeGeneric), R, Wide).ThreadsPerBlock,
            256u);
}

TEST(KernelGrid, TripcountSetsBlocks) {
  GridRequest R;
  R.Tripcount = 1000;
  // SPMD: one iteration per thread, 128 threads per block.
  EXPECT_EQ(chooseGrid(config(ExecModeSPMD), R, limits()).Blocks, 8u);
  // Generic: one iteration per team.
  EXPECT_EQ(chooseGrid(config(ExecModeGeneric), R, limits()).Blocks, 1000u);
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
  Grid G = chooseGrid(config(ExecModeSPMD), R, limits());
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

} // namespace
