//===- LockstepWarpTest.cpp - Generic mode with lockstep warps ------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// On a GPU whose warps run in lockstep the generic-mode main thread must not
// share a warp with threads that wait for it. The CPU layer can pretend its
// threads form warps (a test hook), so the core's rules for that case run
// here for real: which thread is the main thread, that the rest of its warp
// leaves the kernel, and that parallel regions are still numbered 0..N-1.
//
//===----------------------------------------------------------------------===//

#include "CPUDevice.h"
#include "LaunchKernel.h"

#include <atomic>
#include <mutex>
#include <set>
#include <vector>

using namespace ompx;
using devicetest::launch;

namespace {

/// Runs each test with simulated warps of the given size and restores the
/// CPU's own answer afterwards, so other tests are unaffected.
class LockstepWarps : public ::testing::Test {
protected:
  void simulateWarpSize(uint32_t Size) {
    cpu::setSimulatedWarpSizeForTesting(Size);
  }
  void TearDown() override { cpu::setSimulatedWarpSizeForTesting(1); }
};

KernelEnvironmentTy genericEnv(bool GenericStateMachine = true) {
  KernelEnvironmentTy Env = {};
  Env.Configuration.UseGenericStateMachine = GenericStateMachine;
  Env.Configuration.MayUseNestedParallelism = 1;
  Env.Configuration.ExecMode = ExecModeGeneric;
  Env.Configuration.MinThreads = 1;
  Env.Configuration.MaxThreads = -1;
  return Env;
}

/// What the threads of one launch did, by hardware thread id.
struct Record {
  std::mutex Lock;
  std::vector<int32_t> InitResult;
  std::vector<int> RegionEntries;       // times a thread ran a region body
  std::multiset<int> ThreadNums;        // omp_get_thread_num in regions
  std::set<int> RegionSizes;            // omp_get_num_threads in regions
  std::set<uint32_t> MemberHardwareIds; // hardware ids of region members
  std::atomic<int> AfterBarrier{0};

  explicit Record(uint32_t Threads)
      : InitResult(Threads, -2), RegionEntries(Threads, 0) {}
  void clearRegion() {
    std::lock_guard<std::mutex> Guard(Lock);
    ThreadNums.clear();
    RegionSizes.clear();
    MemberHardwareIds.clear();
  }
};
Record *Current = nullptr;

void recordRegion(int32_t *, int32_t *) {
  uint32_t Hw = __kmpc_get_hardware_thread_id_in_block();
  {
    std::lock_guard<std::mutex> Guard(Current->Lock);
    ++Current->RegionEntries[Hw];
    Current->ThreadNums.insert(omp_get_thread_num());
    Current->RegionSizes.insert(omp_get_num_threads());
    Current->MemberHardwareIds.insert(Hw);
  }
  // The region's own barrier: only its members take part.
  __kmpc_barrier(nullptr, 0);
  Current->AfterBarrier.fetch_add(1);
}

std::multiset<int> range(int N) {
  std::multiset<int> Values;
  for (int I = 0; I < N; ++I)
    Values.insert(I);
  return Values;
}

TEST_F(LockstepWarps, LayoutPutsMainThreadFirstInLastWarp) {
  // Threads progress independently: thread 0 is main, all others work.
  GenericLayout Independent = genericLayout(8, 1);
  EXPECT_EQ(Independent.MainThreadId, 0u);
  EXPECT_EQ(Independent.RegionCapacity, 8u);
  EXPECT_EQ(Independent.StateMachineThreads, 8u);
  // Four AMD wavefronts: main is thread 192, workers 0..191.
  GenericLayout Amd = genericLayout(256, 64);
  EXPECT_EQ(Amd.MainThreadId, 192u);
  EXPECT_EQ(Amd.RegionCapacity, 192u);
  EXPECT_EQ(Amd.StateMachineThreads, 193u);
  // A partial last warp: main starts it; 36..63 and 65..99 are idle.
  GenericLayout Partial = genericLayout(100, 64);
  EXPECT_EQ(Partial.MainThreadId, 64u);
  EXPECT_EQ(Partial.RegionCapacity, 36u);
  EXPECT_EQ(Partial.StateMachineThreads, 37u);
  // One warp: no workers at all.
  GenericLayout OneWarp = genericLayout(32, 32);
  EXPECT_EQ(OneWarp.MainThreadId, 0u);
  EXPECT_EQ(OneWarp.RegionCapacity, 0u);
  EXPECT_EQ(OneWarp.StateMachineThreads, 1u);
}

TEST_F(LockstepWarps, GenericStateMachineSkipsTheMainThreadsWarp) {
  // 10 threads in warps of 4: warps {0-3} {4-7} {8,9}. Main is thread 8,
  // workers are 0..5, and 6, 7 and 9 leave at once.
  simulateWarpSize(4);
  const uint32_t Threads = 10;
  Record Rec(Threads);
  Current = &Rec;
  KernelEnvironmentTy Env = genericEnv();
  std::atomic<int> MainRuns{0};
  std::atomic<uint32_t> MainHw{~0u};
  std::multiset<int> DefaultNums, ClauseNums;
  std::set<int> DefaultSizes, ClauseSizes;
  std::set<uint32_t> DefaultMembers;
  int MaxThreads = -1, ThreadLimit = -1, MainThreadNum = -1;
  bool MainIsMain = false, ZeroIsMain = true;
  auto Result = launch(Env, 1, Threads, [&](KernelLaunchEnvironmentTy *L) {
    uint32_t Hw = __kmpc_get_hardware_thread_id_in_block();
    int32_t Kind = __kmpc_target_init(&Env, L);
    {
      std::lock_guard<std::mutex> Guard(Rec.Lock);
      Rec.InitResult[Hw] = Kind;
    }
    if (Kind != -1)
      return; // workers come back here when the kernel is done
    MainRuns.fetch_add(1);
    MainHw = Hw;
    MainIsMain = __kmpc_is_generic_main_thread(int32_t(Hw));
    ZeroIsMain = __kmpc_is_generic_main_thread(0);
    MaxThreads = omp_get_max_threads();
    ThreadLimit = omp_get_thread_limit();
    MainThreadNum = omp_get_thread_num();
    __kmpc_parallel_60(nullptr, 0, 1, -1, -1, (void *)recordRegion, nullptr,
                       nullptr, 0, 0);
    DefaultNums = Rec.ThreadNums;
    DefaultSizes = Rec.RegionSizes;
    DefaultMembers = Rec.MemberHardwareIds;
    Rec.clearRegion();
    __kmpc_parallel_60(nullptr, 0, 1, 3, -1, (void *)recordRegion, nullptr,
                       nullptr, 0, 0);
    ClauseNums = Rec.ThreadNums;
    ClauseSizes = Rec.RegionSizes;
    __kmpc_target_deinit();
  });
  Current = nullptr;
  EXPECT_EQ(Result.NumThreads, Threads);
  EXPECT_EQ(MainRuns.load(), 1);
  EXPECT_EQ(MainHw.load(), 8u);
  EXPECT_TRUE(MainIsMain);
  EXPECT_FALSE(ZeroIsMain);
  EXPECT_EQ(MainThreadNum, 0);
  EXPECT_EQ(MaxThreads, 6);
  EXPECT_EQ(ThreadLimit, 6);
  // Every thread returned: main -1, the others their hardware id.
  for (uint32_t Hw = 0; Hw < Threads; ++Hw)
    EXPECT_EQ(Rec.InitResult[Hw], Hw == 8 ? -1 : int32_t(Hw)) << Hw;
  // Regions are numbered 0..N-1 and run on workers 0..N-1.
  EXPECT_EQ(DefaultNums, range(6));
  EXPECT_EQ(DefaultSizes, std::set<int>{6});
  EXPECT_EQ(DefaultMembers, (std::set<uint32_t>{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(ClauseNums, range(3));
  EXPECT_EQ(ClauseSizes, std::set<int>{3});
  EXPECT_EQ(Rec.AfterBarrier.load(), 6 + 3);
  // The main thread and the idle threads never ran a region body.
  for (uint32_t Hw : {6u, 7u, 8u, 9u})
    EXPECT_EQ(Rec.RegionEntries[Hw], 0) << Hw;
}

TEST_F(LockstepWarps, OneWarpRunsRegionsSerializedOnTheMainThread) {
  simulateWarpSize(8);
  const uint32_t Threads = 5;
  Record Rec(Threads);
  Current = &Rec;
  KernelEnvironmentTy Env = genericEnv();
  std::atomic<int> MaxThreads{-1};
  launch(Env, 2, Threads, [&](KernelLaunchEnvironmentTy *L) {
    uint32_t Hw = __kmpc_get_hardware_thread_id_in_block();
    int32_t Kind = __kmpc_target_init(&Env, L);
    if (Kind != -1) {
      std::lock_guard<std::mutex> Guard(Rec.Lock);
      Rec.InitResult[Hw] = Kind;
      return;
    }
    MaxThreads = omp_get_max_threads();
    __kmpc_parallel_60(nullptr, 0, 1, -1, -1, (void *)recordRegion, nullptr,
                       nullptr, 0, 0);
    __kmpc_target_deinit();
  });
  Current = nullptr;
  EXPECT_EQ(MaxThreads.load(), 1);
  // Two teams, each region a team of one on the main thread (thread 0).
  EXPECT_EQ(Rec.ThreadNums, (std::multiset<int>{0, 0}));
  EXPECT_EQ(Rec.RegionSizes, std::set<int>{1});
  EXPECT_EQ(Rec.RegionEntries[0], 2);
  for (uint32_t Hw = 1; Hw < Threads; ++Hw)
    EXPECT_EQ(Rec.InitResult[Hw], int32_t(Hw)) << Hw;
}

// A compiler-generated ("custom") state machine, as OpenMPOpt writes it:
// wait, ask for work, run the region's wrapper, report, until no work.
std::atomic<int> WrapperRuns;
void regionWrapper(int16_t, int32_t) {
  void **Shared = nullptr;
  __kmpc_get_shared_variables(&Shared);
  recordRegion(nullptr, nullptr);
  WrapperRuns.fetch_add(1);
  (void)Shared;
}

TEST_F(LockstepWarps, CustomStateMachineSendsIdleThreadsAway) {
  simulateWarpSize(4);
  const uint32_t Threads = 12; // main 8, workers 0..7, idle 9..11
  Record Rec(Threads);
  Current = &Rec;
  WrapperRuns = 0;
  KernelEnvironmentTy Env = genericEnv(/*GenericStateMachine=*/false);
  std::atomic<int> LeftStateMachine{0};
  launch(Env, 1, Threads, [&](KernelLaunchEnvironmentTy *L) {
    int32_t Kind = __kmpc_target_init(&Env, L);
    if (Kind == -1) {
      __kmpc_parallel_60(nullptr, 0, 1, 5, -1, (void *)recordRegion,
                         (void *)regionWrapper, nullptr, 0, 0);
      __kmpc_target_deinit();
      return;
    }
    // Every other thread enters the machine, idle ones included (the
    // compiler's code does not know which are idle).
    for (;;) {
      __kmpc_barrier_simple_generic(nullptr, 0);
      void *WorkFn = nullptr;
      bool Active = __kmpc_kernel_parallel(&WorkFn);
      if (!WorkFn)
        break;
      if (Active) {
        reinterpret_cast<void (*)(int16_t, int32_t)>(WorkFn)(0, 0);
        __kmpc_kernel_end_parallel();
      }
      __kmpc_barrier_simple_generic(nullptr, 0);
    }
    LeftStateMachine.fetch_add(1);
  });
  Current = nullptr;
  EXPECT_EQ(WrapperRuns.load(), 5);
  EXPECT_EQ(Rec.ThreadNums, range(5));
  EXPECT_EQ(Rec.MemberHardwareIds, (std::set<uint32_t>{0, 1, 2, 3, 4}));
  EXPECT_EQ(LeftStateMachine.load(), int(Threads) - 1);
}

TEST_F(LockstepWarps, SPMDModeIsUnaffected) {
  simulateWarpSize(4);
  KernelEnvironmentTy Env = genericEnv();
  Env.Configuration.ExecMode = ExecModeSPMD;
  std::atomic<int> UserCode{0};
  launch(Env, 1, 6, [&](KernelLaunchEnvironmentTy *L) {
    if (__kmpc_target_init(&Env, L) == -1)
      UserCode.fetch_add(1);
    __kmpc_target_deinit();
  });
  EXPECT_EQ(UserCode.load(), 6);
}

} // namespace
