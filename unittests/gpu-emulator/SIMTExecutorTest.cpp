//===- SIMTExecutorTest.cpp - The GPU emulator's SIMT executor ------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Kernels here are host functions that call the emulator's __gpuemu_*
// entry points the way a retargeted image does, so the executor's
// scheduling, barriers and warp operations are tested without a compiler.
//
//===----------------------------------------------------------------------===//

#include "SIMTExecutor.h"

#include "offload/GPUEmulation/EmulatorABI.h"

#include "gtest/gtest.h"

#include <atomic>
#include <vector>

using namespace gpuemu;
using offload::gpuemu::ShuffleKind;
using offload::gpuemu::SReg;
using offload::gpuemu::VoteKind;

namespace {

uint32_t reg(SReg R) { return uint32_t(__gpuemu_sreg(uint32_t(R))); }

LaunchResult launch(void (*Kernel)(void **), void **Params, Dim3 Grid,
                    Dim3 Block, uint64_t SharedBytes = 0,
                    uint32_t WarpSize = 32) {
  LaunchConfig Config;
  Config.WarpSize = WarpSize;
  Config.KernelName = "test";
  Config.Entry = Kernel;
  Config.Params = Params;
  Config.Grid = Grid;
  Config.Block = Block;
  Config.StaticSharedBytes = SharedBytes;
  return runGrid(Config);
}

// Every thread of a 1024-thread block writes its id, waits at the block
// barrier, and reads its neighbour's: without the barrier some neighbours
// would not have written yet (threads run one after another until they
// wait).
void neighbourKernel(void **Params) {
  auto *Out = *static_cast<uint32_t **>(Params[0]);
  auto *Shared = static_cast<uint32_t *>(__gpuemu_shared_base());
  uint32_t Tid = reg(SReg::TidX), N = reg(SReg::NTidX);
  Shared[Tid] = Tid + 1;
  __gpuemu_barrier(0, 0);
  Out[Tid] = Shared[(Tid + 1) % N];
}

TEST(SIMTExecutor, BarrierInA1024ThreadBlock) {
  std::vector<uint32_t> Out(1024);
  uint32_t *Ptr = Out.data();
  void *Params[] = {&Ptr};
  LaunchResult R =
      launch(neighbourKernel, Params, {1, 1, 1}, {1024, 1, 1}, 4096);
  ASSERT_EQ(R.Code, 0) << R.Message;
  for (uint32_t I = 0; I < 1024; ++I)
    ASSERT_EQ(Out[I], (I + 1) % 1024 + 1) << "thread " << I;
}

// Shuffles and votes of full warps, per the PTX definitions.
void warpKernel(void **Params) {
  auto *Out = *static_cast<uint32_t **>(Params[0]);
  uint32_t Tid = reg(SReg::TidX), Lane = reg(SReg::LaneId);
  uint32_t Down = uint32_t(
      __gpuemu_shfl(uint32_t(ShuffleKind::Down), ~0u, Lane * 10, 1, 0x1f));
  uint32_t Xor = uint32_t(
      __gpuemu_shfl(uint32_t(ShuffleKind::Butterfly), ~0u, Lane, 3, 0x1f));
  uint32_t Ballot =
      __gpuemu_vote(uint32_t(VoteKind::Ballot), ~0u, Lane % 2 == 0);
  Out[Tid * 3] = Down;
  Out[Tid * 3 + 1] = Xor;
  Out[Tid * 3 + 2] = Ballot;
}

TEST(SIMTExecutor, ShufflesAndVotes) {
  std::vector<uint32_t> Out(64 * 3);
  uint32_t *Ptr = Out.data();
  void *Params[] = {&Ptr};
  LaunchResult R = launch(warpKernel, Params, {1, 1, 1}, {64, 1, 1});
  ASSERT_EQ(R.Code, 0) << R.Message;
  for (uint32_t T = 0; T < 64; ++T) {
    uint32_t Lane = T % 32;
    // Lane 31 has no lane above it: it keeps its own value.
    EXPECT_EQ(Out[T * 3], (Lane == 31 ? Lane : Lane + 1) * 10) << T;
    EXPECT_EQ(Out[T * 3 + 1], Lane ^ 3) << T;
    EXPECT_EQ(Out[T * 3 + 2], 0x55555555u) << T;
  }
}

// Lanes that diverge see only themselves in activemask.
void activeMaskKernel(void **Params) {
  auto *Out = *static_cast<uint32_t **>(Params[0]);
  uint32_t Lane = reg(SReg::LaneId);
  if (Lane < 8)
    Out[Lane] = __gpuemu_activemask();
  __gpuemu_barrier(0, 0);
  if (Lane >= 8)
    Out[Lane] = __gpuemu_activemask();
}

TEST(SIMTExecutor, ActiveMaskFollowsDivergence) {
  std::vector<uint32_t> Out(32);
  uint32_t *Ptr = Out.data();
  void *Params[] = {&Ptr};
  LaunchResult R = launch(activeMaskKernel, Params, {1, 1, 1}, {32, 1, 1});
  ASSERT_EQ(R.Code, 0) << R.Message;
  for (uint32_t L = 0; L < 32; ++L)
    EXPECT_EQ(Out[L], L < 8 ? 0xffu : 0xffffff00u) << L;
}

// Lanes that spin until a later lane of their warp ends the wait (as at a
// software barrier's last arrival) reach activemask with the lanes that
// did not spin: a spinning lane gets one more look at memory before the
// lanes that arrived are taken as the converged ones (an AMD wavefront
// reconverges after its spin loop). Lane 31 still spins: it waits for a
// flag that only the lanes leaving activemask set.
void spinThenActiveMaskKernel(void **Params) {
  auto *Out = *static_cast<uint32_t **>(Params[0]);
  auto *Flags = static_cast<volatile uint32_t *>(__gpuemu_shared_base());
  uint32_t Lane = reg(SReg::LaneId);
  if (Lane == 0)
    Flags[0] = Flags[1] = 0;
  __gpuemu_barrier(0, 0);
  if (Lane == 31) {
    while (!Flags[1])
      __gpuemu_yield();
    Out[Lane] = __gpuemu_activemask();
    return;
  }
  if (Lane == 20)
    Flags[0] = 1;
  while (!Flags[0])
    __gpuemu_yield();
  Out[Lane] = __gpuemu_activemask();
  Flags[1] = 1;
}

TEST(SIMTExecutor, SpinningLanesReachActiveMaskWithTheirReleaser) {
  std::vector<uint32_t> Out(32);
  uint32_t *Ptr = Out.data();
  void *Params[] = {&Ptr};
  LaunchResult R =
      launch(spinThenActiveMaskKernel, Params, {1, 1, 1}, {32, 1, 1}, 8);
  ASSERT_EQ(R.Code, 0) << R.Message;
  for (uint32_t L = 0; L < 31; ++L)
    EXPECT_EQ(Out[L], 0x7fffffffu) << L;
  EXPECT_EQ(Out[31], 0x80000000u);
}

// Lane 63 alone takes a branch in which its turn ends in a yield (the
// image yields every so many looks of all the block's threads together, so
// a turn through a few compare-and-swap loops may end there) after the
// other lanes have reached the ballot past the branch. It is on its way,
// not waiting for them: the ballot waits for it, as the wavefront runs the
// ballot with every lane on the GPU. Left out, it ran a ballot of its own
// (the device runtime's parallel reductions after a task reduction lost
// lanes so and combined a lane's value with itself).
void yieldOnTheWayKernel(void **Params) {
  auto *Out = *static_cast<uint64_t **>(Params[0]);
  uint32_t Lane = reg(SReg::LaneId);
  if (Lane == 63)
    __gpuemu_yield();
  Out[Lane] = __gpuemu_wave_ballot(1);
}

TEST(SIMTExecutor, LaneThatYieldsOnItsWayJoinsTheExecMask) {
  std::vector<uint64_t> Out(64);
  uint64_t *Ptr = Out.data();
  void *Params[] = {&Ptr};
  LaunchResult R =
      launch(yieldOnTheWayKernel, Params, {1, 1, 1}, {64, 1, 1}, 0, 64);
  ASSERT_EQ(R.Code, 0) << R.Message;
  for (uint32_t L = 0; L < 64; ++L)
    EXPECT_EQ(Out[L], ~0ull) << L;
}

// On a 64-lane AMD wavefront, ballots and ds_bpermute run over the lanes
// that reach them together (the EXEC mask): all 64, then the 40 lanes that
// took a branch (the others have exited).
void wavefrontKernel(void **Params) {
  auto *Out = *static_cast<uint64_t **>(Params[0]);
  uint32_t Lane = reg(SReg::LaneId);
  uint64_t Odd = __gpuemu_wave_ballot(Lane & 1);
  uint32_t Next = __gpuemu_wave_permute((Lane + 1) % 64, Lane * 10);
  uint64_t Low = 0;
  if (Lane < 40)
    Low = __gpuemu_wave_ballot(1);
  Out[Lane * 3] = Odd;
  Out[Lane * 3 + 1] = Next;
  Out[Lane * 3 + 2] = Low;
}

TEST(SIMTExecutor, WavefrontOperationsRunOverTheExecMask) {
  std::vector<uint64_t> Out(64 * 3);
  uint64_t *Ptr = Out.data();
  void *Params[] = {&Ptr};
  LaunchResult R =
      launch(wavefrontKernel, Params, {2, 1, 1}, {64, 1, 1}, 0, 64);
  ASSERT_EQ(R.Code, 0) << R.Message;
  for (uint32_t L = 0; L < 64; ++L) {
    EXPECT_EQ(Out[L * 3], 0xaaaaaaaaaaaaaaaaull) << L;
    EXPECT_EQ(Out[L * 3 + 1], (L + 1) % 64 * 10) << L;
    EXPECT_EQ(Out[L * 3 + 2], L < 40 ? (1ull << 40) - 1 : 0) << L;
  }
}

// Lanes of one wavefront that reach different wavefront operations in the
// same round (two sides of a branch) are two EXEC masks, as on a GPU: the
// ballot sees only its 16 lanes, the readfirstlane (ds_bpermute from the
// first lane) reads lane 16. Taken as one mask, the ballot counted all 64
// lanes and the readfirstlane read lane 0's ballot predicate.
void divergedWaveOperationsKernel(void **Params) {
  auto *Out = *static_cast<uint64_t **>(Params[0]);
  uint32_t Lane = reg(SReg::LaneId);
  if (Lane < 16)
    Out[Lane] = __gpuemu_wave_ballot(1);
  else
    Out[Lane] = __gpuemu_wave_permute(~0u, Lane * 10);
}

TEST(SIMTExecutor, DivergedWavefrontOperationsHaveTheirOwnExecMasks) {
  std::vector<uint64_t> Out(64);
  uint64_t *Ptr = Out.data();
  void *Params[] = {&Ptr};
  LaunchResult R = launch(divergedWaveOperationsKernel, Params, {1, 1, 1},
                          {64, 1, 1}, 0, 64);
  ASSERT_EQ(R.Code, 0) << R.Message;
  for (uint32_t L = 0; L < 64; ++L)
    EXPECT_EQ(Out[L], L < 16 ? 0xffffull : 160u) << L;
}

// 10000 blocks, on several host threads: each block's shared memory is its
// own.
void blocksKernel(void **Params) {
  auto *Count = *static_cast<std::atomic<uint64_t> **>(Params[0]);
  auto *Shared = static_cast<uint32_t *>(__gpuemu_shared_base());
  uint32_t Block = reg(SReg::CtaIdX);
  if (reg(SReg::TidX) == 0)
    *Shared = Block;
  __gpuemu_barrier(0, 0);
  if (*Shared == Block)
    Count->fetch_add(1);
  __gpuemu_barrier(0, 0);
}

TEST(SIMTExecutor, TenThousandBlocks) {
  std::atomic<uint64_t> Count{0};
  std::atomic<uint64_t> *Ptr = &Count;
  void *Params[] = {&Ptr};
  LaunchResult R = launch(blocksKernel, Params, {10000, 1, 1}, {64, 1, 1}, 4);
  ASSERT_EQ(R.Code, 0) << R.Message;
  EXPECT_EQ(Count.load(), 10000u * 64);
}

// Half of the block waits at a barrier the other half never reaches.
void deadlockKernel(void **) {
  if (reg(SReg::TidX) < 16)
    __gpuemu_barrier(1, 32);
}

TEST(SIMTExecutor, DeadlockEndsTheLaunch) {
  LaunchResult R = launch(deadlockKernel, nullptr, {2, 1, 1}, {32, 1, 1});
  EXPECT_EQ(R.Code, 719);
  EXPECT_NE(R.Message.find("kernel 'test': deadlock in block"),
            std::string::npos)
      << R.Message;
  EXPECT_NE(R.Message.find("thread 0 in barrier 1"), std::string::npos)
      << R.Message;
}

// A spin-wait that yields lets the thread it waits for run.
void spinKernel(void **Params) {
  auto *Flag = *static_cast<std::atomic<uint32_t> **>(Params[0]);
  if (reg(SReg::TidX) == 0) {
    while (Flag->load() == 0)
      __gpuemu_yield();
  } else if (reg(SReg::TidX) == 31) {
    Flag->store(1);
  }
}

TEST(SIMTExecutor, SpinWaitsYield) {
  std::atomic<uint32_t> Flag{0};
  std::atomic<uint32_t> *Ptr = &Flag;
  void *Params[] = {&Ptr};
  LaunchResult R = launch(spinKernel, Params, {1, 1, 1}, {32, 1, 1});
  EXPECT_EQ(R.Code, 0) << R.Message;
}

void trapKernel(void **) {
  if (reg(SReg::CtaIdX) == 3 && reg(SReg::TidX) == 5)
    __gpuemu_trap();
}

TEST(SIMTExecutor, TrapFailsTheLaunch) {
  LaunchResult R = launch(trapKernel, nullptr, {8, 1, 1}, {32, 1, 1});
  EXPECT_EQ(R.Code, 719);
  EXPECT_NE(R.Message.find("trap (block 3,0,0, thread 5,0,0)"),
            std::string::npos)
      << R.Message;
}

} // namespace
