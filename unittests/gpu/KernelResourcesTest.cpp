//===- KernelResourcesTest.cpp - Occupancy of GPU kernels -----------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The occupancy the launch line reports, against figures worked out by hand
// from NVIDIA's published sm_90 limits: 65536 registers, 64 warps, 32
// blocks and 228 KiB of shared memory per SM; registers given per warp in
// units of 256, shared memory per block in units of 128 bytes after the
// 1 KiB the driver keeps.
//
//===----------------------------------------------------------------------===//

#include "gpu/KernelResources.h"

#include "gtest/gtest.h"

using namespace offload::plugin;

namespace {

OccupancyLimits sm90() {
  OccupancyLimits L = publishedCUDALimits(9, 0);
  L.MaxWarps = 64;
  L.MaxBlocks = 32;
  L.Registers = 65536;
  L.SharedMemory = 228 * 1024;
  return L;
}

KernelResources withRegisters(uint32_t Registers, uint64_t Static = 0) {
  KernelResources R;
  R.HasRegisters = true;
  R.Registers = Registers;
  R.StaticShared = Static;
  return R;
}

TEST(KernelResources, RegistersLimitLargeKernels) {
  // 40 registers: 1280 per warp, 51 warps' worth; blocks of 4 warps: 12.
  Occupancy O = computeOccupancy(sm90(), withRegisters(40, 7188), 128, 7188);
  EXPECT_EQ(O.BlocksPerSM, 12u);
  EXPECT_EQ(O.WarpsPerSM, 48u);
  EXPECT_STREQ(O.LimitedBy, "registers");
  // 255 registers: 8160 rounded to 8192 per warp, 8 warps.
  O = computeOccupancy(sm90(), withRegisters(255), 256, 0);
  EXPECT_EQ(O.WarpsPerSM, 8u);
  EXPECT_STREQ(O.LimitedBy, "registers");
}

TEST(KernelResources, RegisterUnitRoundsUp) {
  // 33 registers: 1056 per warp rounds to 1280, as 40 do (48 warps); 32
  // registers fit exactly (1024: 64 warps, limited by warps).
  EXPECT_EQ(computeOccupancy(sm90(), withRegisters(33), 128, 0).WarpsPerSM,
            48u);
  Occupancy O = computeOccupancy(sm90(), withRegisters(32), 128, 0);
  EXPECT_EQ(O.WarpsPerSM, 64u);
  EXPECT_STREQ(O.LimitedBy, "warps");
}

TEST(KernelResources, SharedMemoryAndBlocks) {
  // 100 KiB per block plus the driver's 1 KiB: two blocks in 228 KiB.
  Occupancy O = computeOccupancy(sm90(), KernelResources(), 64, 100 * 1024);
  EXPECT_EQ(O.BlocksPerSM, 2u);
  EXPECT_EQ(O.WarpsPerSM, 4u);
  EXPECT_STREQ(O.LimitedBy, "shared memory");
  // Blocks of one warp: 32 blocks, not 64 warps.
  O = computeOccupancy(sm90(), withRegisters(16), 32, 0);
  EXPECT_EQ(O.WarpsPerSM, 32u);
  EXPECT_STREQ(O.LimitedBy, "blocks");
}

TEST(KernelResources, UnknownFiguresAreNotApplied) {
  // No register count: only warps, blocks and shared memory count.
  Occupancy O = computeOccupancy(sm90(), KernelResources(), 256, 0);
  EXPECT_EQ(O.WarpsPerSM, 64u);
  // No limits at all: no occupancy.
  O = computeOccupancy(OccupancyLimits(), withRegisters(40), 128, 0);
  EXPECT_EQ(O.LimitedBy, nullptr);
  EXPECT_EQ(describeResources(withRegisters(40, 16), 8, O),
            "40 registers, 16+8 bytes of shared memory");
}

TEST(KernelResources, LaunchLineText) {
  KernelResources R = withRegisters(40, 7188);
  R.HasStack = true;
  R.StackBytes = 136;
  Occupancy O = computeOccupancy(sm90(), R, 128, 7188);
  EXPECT_EQ(describeResources(R, 0, O),
            "40 registers, 7188+0 bytes of shared memory, 136 bytes of stack "
            "per thread; occupancy 75% (48 of 64 warps per SM, limited by "
            "registers)");
}

} // namespace
