//===- DeviceRuntimeTest.cpp - The device runtime on the CPU device -------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Each test writes a kernel the way Flang and clang's GPU code generation
// do (start with __kmpc_target_init, hand parallel regions to
// __kmpc_parallel_60, share loops through the loop API...) and launches it
// through the same entry point the host plugin uses.
//
//===----------------------------------------------------------------------===//

#include "LaunchKernel.h"

#include <algorithm>
#include <atomic>
#include <vector>

using namespace ompx;
using devicetest::launch;

extern "C" DeviceEnvironmentTy __omp_rtl_device_environment;
// The CPU device's <ompx.h> calls these (arch/cpu/CPUBareKernel.cpp).
extern "C" int __ompx_cpu_kernel_thread_id(int Dim);
extern "C" int __ompx_cpu_kernel_block_id(int Dim);
extern "C" int __ompx_cpu_kernel_grid_dim(int Dim);
extern "C" void __ompx_cpu_kernel_sync_block(int Ordering);

namespace {

/// The runtime's shared-memory block at Ptr, as the test sees it. clang
/// knows __kmpc_alloc_shared/__kmpc_free_shared as an allocation pair: it
/// folds comparisons between two blocks (distinct allocations cannot be
/// equal) and deletes a pair whose block is unused, which would test the
/// optimiser instead of the runtime. The empty asm hides where Ptr came
/// from (GCC, which builds the unit tests normally, does neither).
template <typename T> T *opaqueBlock(T *Ptr) {
  asm volatile("" : "+r"(Ptr));
  return Ptr;
}

KernelEnvironmentTy makeEnv(uint8_t Mode, int32_t MaxThreads = -1,
                            int32_t MaxTeams = 0) {
  KernelEnvironmentTy Env = {};
  Env.Configuration.UseGenericStateMachine = 1;
  Env.Configuration.MayUseNestedParallelism = 1;
  Env.Configuration.ExecMode = Mode;
  Env.Configuration.MinThreads = 1;
  Env.Configuration.MaxThreads = MaxThreads;
  Env.Configuration.MinTeams = MaxTeams;
  Env.Configuration.MaxTeams = MaxTeams;
  return Env;
}

// Region bodies receive (gtid*, btid*, args...), like outlined regions.
std::atomic<int> RegionThreads;
std::atomic<int> MaxTeamSize;
std::atomic<int> ThreadNumSum;

void countThreads(int32_t *, int32_t *) {
  RegionThreads.fetch_add(1);
  int N = omp_get_num_threads();
  int Old = MaxTeamSize.load();
  while (N > Old && !MaxTeamSize.compare_exchange_weak(Old, N))
    ;
  ThreadNumSum.fetch_add(omp_get_thread_num());
}

TEST(DeviceRuntime, GenericModeRunsParallelRegionOnAllThreads) {
  KernelEnvironmentTy Env = makeEnv(ExecModeGeneric);
  RegionThreads = 0;
  MaxTeamSize = 0;
  ThreadNumSum = 0;
  std::atomic<int> MainThreads{0};
  auto Result = launch(Env, 1, 4, [&](KernelLaunchEnvironmentTy *L) {
    if (__kmpc_target_init(&Env, L) != -1)
      return;
    MainThreads.fetch_add(1);
    EXPECT_EQ(omp_get_num_threads(), 1);
    EXPECT_EQ(omp_get_level(), 0);
    __kmpc_parallel_60(nullptr, 0, 1, -1, -1, (void *)countThreads, nullptr,
                       nullptr, 0, 0);
    __kmpc_parallel_60(nullptr, 0, 1, 2, -1, (void *)countThreads, nullptr,
                       nullptr, 0, 0);
    __kmpc_target_deinit();
  });
  EXPECT_EQ(Result.NumThreads, 4u);
  EXPECT_EQ(MainThreads.load(), 1);
  EXPECT_EQ(RegionThreads.load(), 4 + 2);
  EXPECT_EQ(MaxTeamSize.load(), 4);
  EXPECT_EQ(ThreadNumSum.load(), (0 + 1 + 2 + 3) + (0 + 1));
}

TEST(DeviceRuntime, DefaultGridUsesSeveralThreads) {
  KernelEnvironmentTy Env = makeEnv(ExecModeGeneric);
  MaxTeamSize = 0;
  RegionThreads = 0;
  auto Result = launch(Env, 0, 0, [&](KernelLaunchEnvironmentTy *L) {
    if (__kmpc_target_init(&Env, L) != -1)
      return;
    __kmpc_parallel_60(nullptr, 0, 1, -1, -1, (void *)countThreads, nullptr,
                       nullptr, 0, 0);
    __kmpc_target_deinit();
  });
  EXPECT_GE(Result.NumThreads, 2u);
  EXPECT_GT(MaxTeamSize.load(), 1);
}

void nestedRegion(int32_t *, int32_t *, void *Out) {
  int *Values = static_cast<int *>(Out);
  // Inside the nested region: a serialized team of one, two levels deep.
  if (omp_get_ancestor_thread_num(1) == 1) {
    Values[0] = omp_get_level();
    Values[1] = omp_get_num_threads();
    Values[2] = omp_get_active_level();
    Values[3] = omp_get_team_size(1);
  }
}

void outerRegion(int32_t *, int32_t *, void *Out) {
  void *Args[] = {Out};
  __kmpc_parallel_60(nullptr, 0, 1, -1, -1, (void *)nestedRegion, nullptr, Args,
                     1, 0);
}

TEST(DeviceRuntime, NestedParallelIsSerialized) {
  KernelEnvironmentTy Env = makeEnv(ExecModeGeneric);
  int Values[4] = {-1, -1, -1, -1};
  launch(Env, 1, 3, [&](KernelLaunchEnvironmentTy *L) {
    if (__kmpc_target_init(&Env, L) != -1)
      return;
    void *Args[] = {Values};
    __kmpc_parallel_60(nullptr, 0, 1, -1, -1, (void *)outerRegion, nullptr,
                       Args, 1, 0);
    __kmpc_target_deinit();
  });
  EXPECT_EQ(Values[0], 2);
  EXPECT_EQ(Values[1], 1);
  EXPECT_EQ(Values[2], 1);
  EXPECT_EQ(Values[3], 3);
}

struct LoopData {
  std::atomic<int> *Hits;
  std::atomic<int> *Owner;
};

void markIteration(uint32_t IV, void *Arg) {
  auto *D = static_cast<LoopData *>(Arg);
  D->Hits[IV].fetch_add(1);
  D->Owner[IV] = omp_get_team_num() * 1000 + omp_get_thread_num();
}

void distributeForRegion(int32_t *, int32_t *, void *Arg, void *Trip,
                         void *Chunks) {
  auto *C = static_cast<uint32_t *>(Chunks);
  __kmpc_distribute_for_static_loop_4u(nullptr, (void *)markIteration, Arg,
                                       *static_cast<uint32_t *>(Trip),
                                       omp_get_num_threads(), C[0], C[1], 0);
}

class DistributeFor
    : public ::testing::TestWithParam<std::tuple<uint32_t, uint32_t>> {};

TEST_P(DistributeFor, EveryIterationRunsOnce) {
  // SPMD kernel: every thread calls the parallel region, which shares the
  // loop over teams and threads.
  KernelEnvironmentTy Env = makeEnv(ExecModeSPMD);
  constexpr uint32_t Trip = 1003;
  std::vector<std::atomic<int>> Hits(Trip), Owner(Trip);
  LoopData D{Hits.data(), Owner.data()};
  uint32_t TripValue = Trip;
  uint32_t Chunks[2] = {std::get<0>(GetParam()), std::get<1>(GetParam())};
  launch(Env, 3, 2, [&](KernelLaunchEnvironmentTy *L) {
    if (__kmpc_target_init(&Env, L) != -1)
      return;
    void *Args[] = {&D, &TripValue, Chunks};
    __kmpc_parallel_60(nullptr, 0, 1, -1, -1, (void *)distributeForRegion,
                       nullptr, Args, 3, 0);
    __kmpc_target_deinit();
  });
  std::vector<int> Seen;
  for (uint32_t I = 0; I < Trip; ++I) {
    ASSERT_EQ(Hits[I].load(), 1) << "iteration " << I;
    Seen.push_back(Owner[I].load());
  }
  // All 3 teams x 2 threads took part.
  std::sort(Seen.begin(), Seen.end());
  Seen.erase(std::unique(Seen.begin(), Seen.end()), Seen.end());
  EXPECT_EQ(Seen.size(), 6u);
}

INSTANTIATE_TEST_SUITE_P(Chunks, DistributeFor,
                         ::testing::Values(std::make_tuple(0u, 0u),
                                           std::make_tuple(0u, 7u),
                                           std::make_tuple(50u, 0u),
                                           std::make_tuple(13u, 3u)));

struct DispatchData {
  std::atomic<int> *Hits;
  int32_t Sched;
  int32_t Chunk;
  int32_t Loops;
};

void dynamicRegion(int32_t *, int32_t *, void *Arg) {
  auto *D = static_cast<DispatchData *>(Arg);
  // Several loops back to back without barriers (nowait), so fast threads
  // run ahead into later loops.
  for (int Loop = 0; Loop < D->Loops; ++Loop) {
    __kmpc_dispatch_init_4(nullptr, 0, D->Sched, 0, 999, 1, D->Chunk);
    int32_t Last, Lower, Upper, Stride;
    while (__kmpc_dispatch_next_4(nullptr, 0, &Last, &Lower, &Upper, &Stride)) {
      for (int32_t I = Lower; I <= Upper; ++I)
        D->Hits[Loop * 1000 + I].fetch_add(1);
    }
  }
  __kmpc_barrier(nullptr, 0);
}

class Dispatch : public ::testing::TestWithParam<std::tuple<int32_t, int32_t>> {
};

TEST_P(Dispatch, EveryIterationRunsOnce) {
  KernelEnvironmentTy Env = makeEnv(ExecModeSPMD);
  constexpr int Loops = 9;
  std::vector<std::atomic<int>> Hits(Loops * 1000);
  DispatchData D{Hits.data(), std::get<0>(GetParam()), std::get<1>(GetParam()),
                 Loops};
  // Two kernels: the dispatch state must start fresh for each region.
  for (int Kernel = 0; Kernel < 2; ++Kernel)
    launch(Env, 2, 3, [&](KernelLaunchEnvironmentTy *L) {
      if (__kmpc_target_init(&Env, L) != -1)
        return;
      void *Args[] = {&D};
      __kmpc_parallel_60(nullptr, 0, 1, -1, -1, (void *)dynamicRegion, nullptr,
                         Args, 1, 0);
      __kmpc_parallel_60(nullptr, 0, 1, 2, -1, (void *)dynamicRegion, nullptr,
                         Args, 1, 0);
      __kmpc_target_deinit();
    });
  // 2 kernels x 2 teams x 2 regions: each team runs each loop completely.
  for (int I = 0; I < Loops * 1000; ++I)
    ASSERT_EQ(Hits[I].load(), 8) << "iteration " << I;
}

INSTANTIATE_TEST_SUITE_P(
    Schedules, Dispatch,
    ::testing::Values(std::make_tuple(SchedDynamicChunked, 1),
                      std::make_tuple(SchedDynamicChunked, 7),
                      std::make_tuple(SchedGuidedChunked, 2),
                      std::make_tuple(SchedStaticChunked, 5),
                      std::make_tuple(SchedStatic, 0),
                      std::make_tuple(SchedRuntime, 0)));

void staticInitRegion(int32_t *, int32_t *, void *Arg, void *ChunkArg) {
  auto *Hits = static_cast<std::atomic<int> *>(Arg);
  int32_t Chunk = *static_cast<int32_t *>(ChunkArg);
  int32_t Last = 0, Lower = 10, Upper = 1010, Stride = 0;
  // for (i = 10; i <= 1010; i += 3), as the compiled loop would run it.
  __kmpc_for_static_init_4(nullptr, 0, Chunk ? SchedStaticChunked : SchedStatic,
                           &Last, &Lower, &Upper, &Stride, 3, Chunk);
  for (int32_t L = Lower, U = Upper; L <= 1010; L += Stride, U += Stride)
    for (int32_t I = L; I <= U && I <= 1010; I += 3)
      Hits[I].fetch_add(1);
  __kmpc_for_static_fini(nullptr, 0);
}

TEST(DeviceRuntime, StaticInitCoversTheLoop) {
  KernelEnvironmentTy Env = makeEnv(ExecModeGeneric);
  for (int32_t Chunk : {0, 1, 4}) {
    std::vector<std::atomic<int>> Hits(1011);
    launch(Env, 1, 3, [&](KernelLaunchEnvironmentTy *L) {
      if (__kmpc_target_init(&Env, L) != -1)
        return;
      void *Args[] = {Hits.data(), &Chunk};
      __kmpc_parallel_60(nullptr, 0, 1, -1, -1, (void *)staticInitRegion,
                         nullptr, Args, 2, 0);
      __kmpc_target_deinit();
    });
    for (int I = 0; I <= 1010; ++I)
      ASSERT_EQ(Hits[I].load(), (I >= 10 && (I - 10) % 3 == 0) ? 1 : 0)
          << "chunk " << Chunk << " iteration " << I;
  }
}

CriticalNameTy ReductionLock;

void reduceRegion(int32_t *, int32_t *, void *Arg) {
  auto *Total = static_cast<double *>(Arg);
  double Mine = omp_get_team_num() * 100 + omp_get_thread_num() + 1;
  if (__kmpc_reduce(nullptr, 0, 1, sizeof(double), nullptr, nullptr,
                    &ReductionLock) == 1) {
    *Total += Mine; // unsynchronized on purpose: the lock protects it
    __kmpc_end_reduce(nullptr, 0, &ReductionLock);
  }
}

TEST(DeviceRuntime, ReductionAcrossTeamsAndThreads) {
  KernelEnvironmentTy Env = makeEnv(ExecModeSPMD);
  double Total = 0;
  launch(Env, 5, 4, [&](KernelLaunchEnvironmentTy *L) {
    if (__kmpc_target_init(&Env, L) != -1)
      return;
    void *Args[] = {&Total};
    __kmpc_parallel_60(nullptr, 0, 1, -1, -1, (void *)reduceRegion, nullptr,
                       Args, 1, 0);
    __kmpc_target_deinit();
  });
  double Expected = 0;
  for (int Team = 0; Team < 5; ++Team)
    for (int T = 0; T < 4; ++T)
      Expected += Team * 100 + T + 1;
  EXPECT_EQ(Total, Expected);
}

void sharedRegion(int32_t *, int32_t *, void *Arg) {
  auto *Counter = static_cast<std::atomic<int> *>(Arg);
  Counter->fetch_add(omp_get_thread_num() + 1);
  int Single = __kmpc_single(nullptr, 0);
  if (Single)
    Counter->fetch_add(1000);
  __kmpc_end_single(nullptr, 0);
  __kmpc_barrier(nullptr, 0);
  if (__kmpc_masked(nullptr, 0, 1)) {
    Counter->fetch_add(10000);
    __kmpc_end_masked(nullptr, 0);
  }
}

TEST(DeviceRuntime, GenericModeSharesGlobalizedVariables) {
  KernelEnvironmentTy Env = makeEnv(ExecModeGeneric);
  int Result = -1;
  launch(Env, 1, 3, [&](KernelLaunchEnvironmentTy *L) {
    if (__kmpc_target_init(&Env, L) != -1)
      return;
    // What the compiler does with a local a parallel region shares.
    auto *Counter = static_cast<std::atomic<int> *>(
        __kmpc_alloc_shared(sizeof(std::atomic<int>)));
    new (Counter) std::atomic<int>(0);
    void *Args[] = {Counter};
    __kmpc_parallel_60(nullptr, 0, 1, -1, -1, (void *)sharedRegion, nullptr,
                       Args, 1, 0);
    Result = Counter->load();
    __kmpc_free_shared(Counter, sizeof(std::atomic<int>));
    __kmpc_target_deinit();
  });
  EXPECT_EQ(Result, (1 + 2 + 3) + 1000 + 10000);
}

void criticalRegion(int32_t *, int32_t *, void *Arg) {
  static CriticalNameTy Name;
  auto *Counter = static_cast<long *>(Arg);
  for (int I = 0; I < 1000; ++I) {
    __kmpc_critical(nullptr, 0, &Name);
    *Counter += 1;
    __kmpc_end_critical(nullptr, 0, &Name);
  }
}

TEST(DeviceRuntime, CriticalExcludesAcrossTeams) {
  KernelEnvironmentTy Env = makeEnv(ExecModeSPMD);
  long Counter = 0;
  launch(Env, 2, 2, [&](KernelLaunchEnvironmentTy *L) {
    if (__kmpc_target_init(&Env, L) != -1)
      return;
    void *Args[] = {&Counter};
    __kmpc_parallel_60(nullptr, 0, 1, -1, -1, (void *)criticalRegion, nullptr,
                       Args, 1, 0);
    __kmpc_target_deinit();
  });
  EXPECT_EQ(Counter, 2 * 2 * 1000);
}

TEST(DeviceRuntime, GridFollowsKernelBoundsAndEnvironment) {
  // A kernel with num_teams(5) thread_limit(3) in its environment.
  KernelEnvironmentTy Env = makeEnv(ExecModeSPMD, 3, 5);
  auto Result = launch(Env, 0, 0, [&](KernelLaunchEnvironmentTy *L) {
    if (__kmpc_target_init(&Env, L) == -1)
      __kmpc_target_deinit();
  });
  EXPECT_EQ(Result.NumTeams, 5u);
  // A bound below the compilers' default is a clause, honoured exactly.
  EXPECT_EQ(Result.NumThreads, 3u);
  // The kernel's bound holds against a larger request too.
  Result = launch(Env, 0, 8, [&](KernelLaunchEnvironmentTy *L) {
    if (__kmpc_target_init(&Env, L) == -1)
      __kmpc_target_deinit();
  });
  EXPECT_EQ(Result.NumThreads, 3u);

  KernelEnvironmentTy Free = makeEnv(ExecModeSPMD);
  setenv("OMP_NUM_TEAMS", "6", 1);
  setenv("OMP_TEAMS_THREAD_LIMIT", "2", 1);
  Result = launch(Free, 0, 0, [&](KernelLaunchEnvironmentTy *L) {
    if (__kmpc_target_init(&Free, L) == -1)
      __kmpc_target_deinit();
  });
  unsetenv("OMP_NUM_TEAMS");
  unsetenv("OMP_TEAMS_THREAD_LIMIT");
  EXPECT_EQ(Result.NumTeams, 6u);
  EXPECT_EQ(Result.NumThreads, 2u);
}

TEST(DeviceRuntime, TeamAndThreadIdentity) {
  KernelEnvironmentTy Env = makeEnv(ExecModeSPMD);
  std::vector<std::atomic<int>> Seen(4 * 3);
  launch(Env, 4, 3, [&](KernelLaunchEnvironmentTy *L) {
    if (__kmpc_target_init(&Env, L) != -1)
      return;
    EXPECT_EQ(omp_get_num_teams(), 4);
    EXPECT_EQ(omp_is_initial_device(), 0);
    Seen[omp_get_team_num() * 3 + __kmpc_get_hardware_thread_id_in_block()]
        .fetch_add(1);
    __kmpc_target_deinit();
  });
  for (auto &S : Seen)
    EXPECT_EQ(S.load(), 1);
}

struct TaskShareds {
  int *Out;
};

int32_t taskRoutine(int32_t, void *Task) {
  // The compiler's task layout starts with the shareds pointer.
  auto *Shareds = *static_cast<TaskShareds **>(Task);
  *Shareds->Out += 1;
  return 0;
}

TEST(DeviceRuntime, TasksRunWhenCreated) {
  KernelEnvironmentTy Env = makeEnv(ExecModeSPMD);
  std::vector<int> Counts(2 * 2, 0);
  launch(Env, 2, 2, [&](KernelLaunchEnvironmentTy *L) {
    if (__kmpc_target_init(&Env, L) != -1)
      return;
    int &Mine = Counts[omp_get_team_num() * 2 +
                       __kmpc_get_hardware_thread_id_in_block()];
    for (int I = 0; I < 3; ++I) {
      void *Task = __kmpc_omp_task_alloc(nullptr, 0, 1, 40, sizeof(TaskShareds),
                                         (void *)taskRoutine);
      (*static_cast<TaskShareds **>(Task))->Out = &Mine;
      __kmpc_omp_task(nullptr, 0, Task);
      // Undeferred: done as soon as the call returns.
      EXPECT_EQ(Mine, I + 1);
    }
    EXPECT_EQ(__kmpc_omp_taskwait(nullptr, 0), 0);
    __kmpc_target_deinit();
  });
  for (int C : Counts)
    EXPECT_EQ(C, 3);
}

void initLongToZero(void *Private, void *) {
  *static_cast<long *>(Private) = 0;
}
void addLong(void *Into, void *From) {
  *static_cast<long *>(Into) += *static_cast<long *>(From);
}
TaskReductionInputTy sumOfLong(long *Item) {
  return {Item,
          Item,
          sizeof(long),
          (void *)initLongToZero,
          nullptr,
          (void *)addLong,
          0};
}

/// What an in_reduction task does: adds into the copy it is given.
void joinReduction(void *Taskgroup, long *Item, long Value) {
  *static_cast<long *>(__kmpc_task_reduction_get_th_data(0, Taskgroup, Item)) +=
      Value;
}

TEST(DeviceRuntime, TaskgroupReductionsCombineWhenTheirTaskgroupEnds) {
  KernelEnvironmentTy Env = makeEnv(ExecModeSPMD);
  std::vector<long> Outer(2 * 3, 0), Inner(2 * 3, 0);
  std::vector<int> CopiesAreFresh(2 * 3, 0);
  launch(Env, 2, 3, [&](KernelLaunchEnvironmentTy *L) {
    if (__kmpc_target_init(&Env, L) != -1)
      return;
    size_t Me =
        omp_get_team_num() * 3 + __kmpc_get_hardware_thread_id_in_block();
    long &A = Outer[Me], &B = Inner[Me];
    A = B = 100;
    __kmpc_taskgroup(nullptr, 0);
    TaskReductionInputTy InA = sumOfLong(&A);
    void *OuterGroup = __kmpc_taskred_init(0, 1, &InA);
    for (long I = 1; I <= 10; ++I)
      joinReduction(OuterGroup, &A, I);
    // A nested task names the item by the copy its parent was given.
    auto *Copy = static_cast<long *>(
        __kmpc_task_reduction_get_th_data(0, OuterGroup, &A));
    CopiesAreFresh[Me] = *Copy == 55;
    joinReduction(nullptr, Copy, 1000);

    __kmpc_taskgroup(nullptr, 0);
    TaskReductionInputTy InB = sumOfLong(&B);
    void *InnerGroup = __kmpc_taskred_init(0, 1, &InB);
    joinReduction(InnerGroup, &B, 7);
    // The inner taskgroup's tasks reach the outer one's item too.
    joinReduction(InnerGroup, &A, 20000);
    // A taskgroup without reductions ends nothing else.
    __kmpc_taskgroup(nullptr, 0);
    __kmpc_end_taskgroup(nullptr, 0);
    EXPECT_EQ(B, 100);
    __kmpc_end_taskgroup(nullptr, 0);
    EXPECT_EQ(B, 107);
    EXPECT_EQ(A, 100) << "combined before its taskgroup ended";
    __kmpc_end_taskgroup(nullptr, 0);
    __kmpc_target_deinit();
  });
  for (size_t I = 0; I < Outer.size(); ++I) {
    EXPECT_EQ(Outer[I], 100 + 55 + 1000 + 20000);
    EXPECT_EQ(Inner[I], 107);
    EXPECT_TRUE(CopiesAreFresh[I]);
  }
}

/// A parallel region with `reduction(task, + : Mine)`: every thread's tasks
/// join one reduction whose copies end in thread 0's Mine.
void taskModifierRegion(int32_t *, int32_t *, void *ResultsArg) {
  auto *Results = static_cast<std::atomic<long> *>(ResultsArg);
  long Mine = 0, Original = 0;
  TaskReductionInputTy In = sumOfLong(&Mine);
  In.Original = &Original;
  void *Group = __kmpc_taskred_modifier_init(nullptr, 0, 0, 1, &In);
  for (int I = 0; I <= omp_get_thread_num(); ++I)
    joinReduction(Group, &Mine, 10);
  __kmpc_task_reduction_modifier_fini(nullptr, 0, 0);
  Results[omp_get_team_num() * 4 + omp_get_thread_num()] = Mine;
}

TEST(DeviceRuntime, TaskModifierReductionEndsInThreadZero) {
  KernelEnvironmentTy Env = makeEnv(ExecModeSPMD);
  std::vector<std::atomic<long>> Results(2 * 4);
  launch(Env, 2, 4, [&](KernelLaunchEnvironmentTy *L) {
    if (__kmpc_target_init(&Env, L) != -1)
      return;
    void *Args[] = {Results.data()};
    __kmpc_parallel_60(nullptr, 0, 1, -1, -1, (void *)taskModifierRegion,
                       nullptr, Args, 1, 0);
    __kmpc_target_deinit();
  });
  for (int Team = 0; Team < 2; ++Team) {
    // Threads 0..3 joined 1..4 times with 10 each.
    EXPECT_EQ(Results[Team * 4].load(), 100);
    for (int T = 1; T < 4; ++T)
      EXPECT_EQ(Results[Team * 4 + T].load(), 0);
  }
}

TEST(DeviceRuntime, GenericSPMDKeepsGenericSemanticsWithStateMachine) {
  // Flang's "Generic-SPMD" kernels still ask for the state machine: one
  // thread per team runs the user code. An optimizer-SPMDized kernel does
  // not: every thread does.
  for (uint8_t UseStateMachine : {1, 0}) {
    KernelEnvironmentTy Env = makeEnv(ExecModeGenericSPMD);
    Env.Configuration.UseGenericStateMachine = UseStateMachine;
    std::atomic<int> Users{0};
    launch(Env, 2, 3, [&](KernelLaunchEnvironmentTy *L) {
      if (__kmpc_target_init(&Env, L) != -1)
        return;
      Users.fetch_add(1);
      __kmpc_target_deinit();
    });
    EXPECT_EQ(Users.load(), UseStateMachine ? 2 : 2 * 3);
  }
}

void recordSize(int32_t *, int32_t *, void *Out) {
  // One writer: every thread of the region computes the same value.
  if (omp_get_thread_num() == 0)
    *static_cast<int *>(Out) = omp_get_num_threads() * 10 + omp_get_level();
}

TEST(DeviceRuntime, IfFalseAndNumThreadsLimitTheRegion) {
  KernelEnvironmentTy Env = makeEnv(ExecModeGeneric);
  int IfFalse = -1, Pushed = -1, MaxThreads = -1;
  launch(Env, 1, 4, [&](KernelLaunchEnvironmentTy *L) {
    if (__kmpc_target_init(&Env, L) != -1)
      return;
    MaxThreads = omp_get_max_threads();
    void *A1[] = {&IfFalse};
    __kmpc_parallel_60(nullptr, 0, /*IfExpr=*/0, -1, -1, (void *)recordSize,
                       nullptr, A1, 1, 0);
    // num_threads through __kmpc_push_num_threads, as older code does.
    __kmpc_push_num_threads(nullptr, 0, 3);
    void *A2[] = {&Pushed};
    __kmpc_parallel_60(nullptr, 0, 1, -1, -1, (void *)recordSize, nullptr, A2,
                       1, 0);
    __kmpc_target_deinit();
  });
  EXPECT_EQ(MaxThreads, 4);
  EXPECT_EQ(IfFalse, 1 * 10 + 1); // one thread, but still a (serialized) level
  EXPECT_EQ(Pushed, 3 * 10 + 1);
}

TEST(DeviceRuntime, SharedMemoryStackAndHeapFallback) {
  KernelEnvironmentTy Env = makeEnv(ExecModeSPMD);
  std::atomic<int> Good{0};
  launch(Env, 2, 2, [&](KernelLaunchEnvironmentTy *L) {
    if (__kmpc_target_init(&Env, L) != -1)
      return;
    // Small blocks come from the team stack in LIFO order; a block larger
    // than the thread's slice comes from the heap; all are usable.
    char *A = opaqueBlock(static_cast<char *>(__kmpc_alloc_shared(24)));
    char *B = opaqueBlock(static_cast<char *>(__kmpc_alloc_shared(8)));
    char *Big = opaqueBlock(static_cast<char *>(__kmpc_alloc_shared(1 << 20)));
    A[23] = 1;
    B[7] = 2;
    Big[(1 << 20) - 1] = 3;
    bool Ok = B > A && B - A >= 24 && A[23] == 1 && B[7] == 2;
    __kmpc_free_shared(Big, 1 << 20);
    __kmpc_free_shared(B, 8);
    __kmpc_free_shared(A, 24);
    // After freeing, the same block is handed out again.
    char *Again = opaqueBlock(static_cast<char *>(__kmpc_alloc_shared(24)));
    Ok = Ok && Again == A;
    __kmpc_free_shared(Again, 24);
    if (Ok)
      Good.fetch_add(1);
    __kmpc_target_deinit();
  });
  EXPECT_EQ(Good.load(), 4);
}

TEST(DeviceRuntime, DynamicSharedMemoryIsPerTeam) {
  KernelEnvironmentTy Env = makeEnv(ExecModeSPMD);
  ompx_cpu_launch_request R = {};
  struct Ctx {
    KernelEnvironmentTy *Env;
    std::atomic<int> Ok{0};
  } C{&Env};
  R.Version = OMPX_CPU_LAUNCH_VERSION;
  R.NumTeams = 2;
  R.ThreadLimit = 2;
  R.DynCGroupMemBytes = 64;
  R.KernelEnvironment = &Env;
  R.KernelName = "dyn-shared";
  R.Body = [](void *P, void *LaunchEnv) {
    auto &C = *static_cast<Ctx *>(P);
    if (__kmpc_target_init(
            C.Env, static_cast<KernelLaunchEnvironmentTy *>(LaunchEnv)) != -1)
      return;
    auto *Mem = static_cast<int *>(__kmpc_get_dynamic_shared());
    if (__kmpc_get_hardware_thread_id_in_block() == 0)
      Mem[0] = omp_get_team_num() + 100;
    __kmpc_barrier(nullptr, 0);
    if (Mem && Mem[0] == omp_get_team_num() + 100)
      C.Ok.fetch_add(1);
    __kmpc_target_deinit();
  };
  R.Context = &C;
  ASSERT_EQ(__ompx_cpu_launch_kernel(&R, nullptr), 0);
  EXPECT_EQ(C.Ok.load(), 4);
}

void lockRegion(int32_t *, int32_t *, void *LockArg, void *CounterArg) {
  auto *Counter = static_cast<long *>(CounterArg);
  for (int I = 0; I < 500; ++I) {
    omp_set_lock(LockArg);
    *Counter += 1;
    omp_unset_lock(LockArg);
  }
}

TEST(DeviceRuntime, LocksExclude) {
  KernelEnvironmentTy Env = makeEnv(ExecModeGeneric);
  long Counter = 0;
  uint64_t Lock = 0;
  launch(Env, 1, 3, [&](KernelLaunchEnvironmentTy *L) {
    if (__kmpc_target_init(&Env, L) != -1)
      return;
    omp_init_lock(&Lock);
    void *Args[] = {&Lock, &Counter};
    __kmpc_parallel_60(nullptr, 0, 1, -1, -1, (void *)lockRegion, nullptr, Args,
                       2, 0);
    EXPECT_TRUE(omp_test_lock(&Lock));
    EXPECT_FALSE(omp_test_lock(&Lock));
    omp_unset_lock(&Lock);
    omp_destroy_lock(&Lock);
    __kmpc_target_deinit();
  });
  EXPECT_EQ(Counter, 3 * 500);
}

TEST(DeviceRuntime, RejectsBadRequests) {
  ompx_cpu_launch_request R = {};
  R.Version = OMPX_CPU_LAUNCH_VERSION_BARE_GRID + 1;
  R.KernelName = "bad-version";
  testing::internal::CaptureStderr();
  EXPECT_NE(__ompx_cpu_launch_kernel(&R, nullptr), 0);
  std::string Err = testing::internal::GetCapturedStderr();
  EXPECT_NE(Err.find("bad-version"), std::string::npos) << Err;
}

/// The outlined teams region of a host-style ompx_bare kernel: records
/// what <ompx.h>'s host fallbacks would read.
void bareRegion(int32_t *, int32_t *, void *SeenArg) {
  auto *Seen = static_cast<std::atomic<int> *>(SeenArg);
  int X = omp_get_ancestor_thread_num(1), Y = omp_get_ancestor_thread_num(2),
      Z = omp_get_ancestor_thread_num(3);
  bool Extents = omp_get_team_size(1) == 4 && omp_get_team_size(2) == 3 &&
                 omp_get_team_size(3) == 2;
  if (Extents && X >= 0 && X < 4 && Y >= 0 && Y < 3 && Z >= 0 && Z < 2)
    Seen[X + 4 * (Y + 3 * Z)].fetch_add(1);
  __kmpc_barrier(nullptr, 0);
}

TEST(DeviceRuntime, BareKernelsGetThreeDimensionalIds) {
  // A 4x3x2 block: every (x, y, z) seen exactly once, through the
  // runtime's own __kmpc_fork_teams as a host-style kernel calls it.
  std::atomic<int> Seen[24] = {};
  ompx_cpu_launch_request R = {};
  R.Version = OMPX_CPU_LAUNCH_VERSION_BARE;
  R.BareBlock[0] = 4;
  R.BareBlock[1] = 3;
  R.BareBlock[2] = 2;
  R.KernelName = "bare";
  R.Body = [](void *Ctx, void *) {
    __kmpc_push_num_teams(nullptr, 0, 6, 4);
    __kmpc_fork_teams(nullptr, 1, (void *)bareRegion, Ctx);
  };
  R.Context = Seen;
  ompx_cpu_launch_result Result = {};
  ASSERT_EQ(__ompx_cpu_launch_kernel(&R, &Result), 0);
  EXPECT_EQ(Result.NumTeams, 1u);
  EXPECT_EQ(Result.NumThreads, 24u);
  for (int I = 0; I < 24; ++I)
    EXPECT_EQ(Seen[I].load(), 1) << "thread " << I;
  // Outside a bare launch the levels are the OpenMP ones again.
  EXPECT_EQ(omp_get_ancestor_thread_num(2), -1);
}

/// The outlined teams region of a host-style ompx_bare kernel on a grid:
/// each thread counts its (block, thread) pair as the CPU device's
/// <ompx.h> reads them.
void bareGridRegion(int32_t *, int32_t *, void *SeenArg) {
  auto *Seen = static_cast<std::atomic<int> *>(SeenArg);
  bool GridRight = __ompx_cpu_kernel_grid_dim(0) == 3 &&
                   __ompx_cpu_kernel_grid_dim(1) == 2 &&
                   __ompx_cpu_kernel_grid_dim(2) == 2;
  int Block =
      __ompx_cpu_kernel_block_id(0) +
      3 * (__ompx_cpu_kernel_block_id(1) + 2 * __ompx_cpu_kernel_block_id(2));
  int Thread =
      __ompx_cpu_kernel_thread_id(0) + 2 * __ompx_cpu_kernel_thread_id(1);
  if (GridRight && Block >= 0 && Block < 12 && Thread >= 0 && Thread < 4)
    Seen[Block * 4 + Thread].fetch_add(1);
  __ompx_cpu_kernel_sync_block(0);
}

TEST(DeviceRuntime, BareKernelsRunTheirWholeGrid) {
  // num_teams(3,2,2) thread_limit(2,2,1): every (block, thread) once.
  std::atomic<int> Seen[48] = {};
  ompx_cpu_launch_request R = {};
  R.Version = OMPX_CPU_LAUNCH_VERSION_BARE_GRID;
  R.BareBlock[0] = 2;
  R.BareBlock[1] = 2;
  R.BareBlock[2] = 1;
  R.BareGrid[0] = 3;
  R.BareGrid[1] = 2;
  R.BareGrid[2] = 2;
  R.KernelName = "bare-grid";
  R.Body = [](void *Ctx, void *) {
    __kmpc_fork_teams(nullptr, 1, (void *)bareGridRegion, Ctx);
  };
  R.Context = Seen;
  ompx_cpu_launch_result Result = {};
  ASSERT_EQ(__ompx_cpu_launch_kernel(&R, &Result), 0);
  EXPECT_EQ(Result.NumTeams, 12u);
  EXPECT_EQ(Result.NumThreads, 4u);
  for (int I = 0; I < 48; ++I)
    EXPECT_EQ(Seen[I].load(), 1) << "block " << I / 4 << " thread " << I % 4;
  R.BareGrid[1] = 0;
  testing::internal::CaptureStderr();
  EXPECT_NE(__ompx_cpu_launch_kernel(&R, nullptr), 0);
  std::string Err = testing::internal::GetCapturedStderr();
  EXPECT_NE(Err.find("zero num_teams extent"), std::string::npos) << Err;
}

TEST(DeviceRuntime, BareBlocksOutOfRangeAreRefused) {
  ompx_cpu_launch_request R = {};
  R.Version = OMPX_CPU_LAUNCH_VERSION_BARE;
  R.KernelName = "bare-too-big";
  R.Body = [](void *, void *) {};
  R.BareBlock[0] = 32;
  R.BareBlock[1] = 32;
  R.BareBlock[2] = 2;
  testing::internal::CaptureStderr();
  EXPECT_NE(__ompx_cpu_launch_kernel(&R, nullptr), 0);
  std::string Err = testing::internal::GetCapturedStderr();
  EXPECT_NE(Err.find("more than 1024 threads"), std::string::npos) << Err;
  R.BareBlock[2] = 0;
  testing::internal::CaptureStderr();
  EXPECT_NE(__ompx_cpu_launch_kernel(&R, nullptr), 0);
  Err = testing::internal::GetCapturedStderr();
  EXPECT_NE(Err.find("zero thread_limit extent"), std::string::npos) << Err;
}

/// With the device environment's debug bit (LIBOMPTARGET_DEVICE_RTL_DEBUG
/// through the plugin), misuses of the runtime stop the kernel with a
/// message naming the check, the runtime's file and line, the team and the
/// thread; without it they go unchecked.
void misuseLock() {
  KernelEnvironmentTy Env = makeEnv(ExecModeSPMD);
  launch(Env, 1, 2, [&](KernelLaunchEnvironmentTy *L) {
    if (__kmpc_target_init(&Env, L) != -1)
      return;
    uint64_t Lock = 0;
    if (__kmpc_get_hardware_thread_id_in_block() == 1)
      omp_unset_lock(&Lock);
    __kmpc_target_deinit();
  });
}

void misuseSharedStack() {
  KernelEnvironmentTy Env = makeEnv(ExecModeSPMD);
  launch(Env, 1, 1, [&](KernelLaunchEnvironmentTy *L) {
    if (__kmpc_target_init(&Env, L) != -1)
      return;
    void *First = opaqueBlock(__kmpc_alloc_shared(16));
    void *Second = opaqueBlock(__kmpc_alloc_shared(16));
    __kmpc_free_shared(First, 16); // not LIFO
    __kmpc_free_shared(Second, 16);
    __kmpc_target_deinit();
  });
}

TEST(DeviceRuntimeDeathTest, DebugChecksStopMisuse) {
  testing::FLAGS_gtest_death_test_style = "threadsafe";
  misuseLock(); // unchecked: nothing happens
  misuseSharedStack();
  __omp_rtl_device_environment.DeviceDebugKind = 1;
  EXPECT_DEATH(misuseLock(),
               "openmp/device/src/Synchronization.cpp:[0-9]+: omp_unset_lock: "
               "team 0, thread 1 of kernel 'unit-test-kernel': device "
               "assertion `omp_unset_lock of a lock that is not set` failed");
  EXPECT_DEATH(misuseSharedStack(),
               "__kmpc_free_shared: team 0, thread 0 of kernel "
               "'unit-test-kernel': device assertion `__kmpc_free_shared of a "
               "block that is not the last one");
  __omp_rtl_device_environment.DeviceDebugKind = 0;
}

TEST(DeviceRuntimeDeathTest, InReductionOfAnUnknownItemStops) {
  testing::FLAGS_gtest_death_test_style = "threadsafe";
  KernelEnvironmentTy Env = makeEnv(ExecModeSPMD);
  auto JoinUnknown = [&] {
    launch(Env, 1, 1, [&](KernelLaunchEnvironmentTy *L) {
      if (__kmpc_target_init(&Env, L) != -1)
        return;
      long Unknown = 0;
      __kmpc_taskgroup(nullptr, 0);
      joinReduction(nullptr, &Unknown, 1);
      __kmpc_end_taskgroup(nullptr, 0);
      __kmpc_target_deinit();
    });
  };
  EXPECT_DEATH(JoinUnknown(), "in_reduction item is not part of any "
                              "enclosing task reduction");
}

TEST(DeviceRuntime, HostThreadsSeeTheInitialThread) {
  // Without libomp in the process, calls from a host thread fall back to
  // the device code's view of an initial thread.
  EXPECT_EQ(omp_get_thread_num(), 0);
  EXPECT_EQ(omp_get_num_threads(), 1);
  EXPECT_EQ(omp_get_team_num(), 0);
  EXPECT_EQ(omp_get_level(), 0);
}

TEST(DeviceRuntime, IndirectCallLookup) {
  int X;
  EXPECT_EQ(__llvm_omp_indirect_call_lookup(&X), &X);
  // The table a plugin installs: sorted by host address.
  int Host[3], Device[3];
  IndirectCallEntryTy Table[3] = {
      {&Host[0], &Device[0]}, {&Host[1], &Device[1]}, {&Host[2], &Device[2]}};
  __omp_rtl_device_environment.IndirectCallTable =
      reinterpret_cast<uintptr_t>(Table);
  __omp_rtl_device_environment.IndirectCallTableSize = 3;
  for (int I = 0; I < 3; ++I)
    EXPECT_EQ(__llvm_omp_indirect_call_lookup(&Host[I]), &Device[I]);
  EXPECT_EQ(__kmpc_target_translate_fptr(&Host[2]), &Device[2]);
  EXPECT_EQ(__llvm_omp_indirect_call_lookup(&X), &X);
  __omp_rtl_device_environment.IndirectCallTable = 0;
  __omp_rtl_device_environment.IndirectCallTableSize = 0;
}

} // namespace
