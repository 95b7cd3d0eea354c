//===- GPUReduction.cpp - Reductions in the GPU calling convention --------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// For GPU targets clang and flang lower `reduction` clauses to the entry
// points below (OMPKinds.def) and generate the helpers they take:
//  * ShuffleReduce(Data, Lane, Offset, Algorithm) combines the calling lane's
//    private copies with those of lane Lane+Offset, read through
//    __kmpc_shuffle_int{32,64}. Algorithm 0: every lane of a full warp
//    combines. Algorithm 1 (a warp whose first Size lanes take part): lanes
//    below Offset combine, the others take over the remote value, so
//    repeated halving leaves the result in lane 0.
//  * InterWarpCopy(Data, NumWarps) moves lane 0's copy of warp W into lane W
//    of warp 0 (with team barriers inside).
//  * ListToGlobal{Copy,Reduce} / GlobalToList{Copy,Reduce}(Buffer, Index,
//    Data) move or combine a team's value with record Index of the buffer
//    the plugin allocated for the launch.
// A return of 1 tells the caller that its private copy holds the complete
// result and that it must combine it into the original variable; exactly
// one thread of the region (parallel) or of the whole league (teams) gets 1.
//
//===----------------------------------------------------------------------===//

#include "Debug.h"
#include "GPUPrimitives.h"
#include "Interface.h"
#include "Parallel.h"
#include "State.h"

using namespace ompx;

namespace {
typedef void (*ShuffleReduceFnTy)(void *Data, int16_t Lane, int16_t Offset,
                                  int16_t Algorithm);
typedef void (*InterWarpCopyFnTy)(void *Data, int32_t NumWarps);
typedef void (*GlobalListFnTy)(void *Buffer, int32_t Index, void *Data);

constexpr int16_t FullWarp = 0;
constexpr int16_t ContiguousLanes = 1;

/// Reduces the copies of lanes 0..Size-1 of the calling warp into lane 0.
void reduceContiguousLanes(void *Data, ShuffleReduceFnTy Shuffle, uint32_t Lane,
                           uint32_t Size) {
  // Each step folds the upper half (rounded up) onto the lower half: lanes
  // below Offset combine, lane Offset+K moves into lane K.
  uint32_t Remaining = Size;
  while (Remaining > 1) {
    uint32_t Offset = Remaining / 2;
    Shuffle(Data, int16_t(Lane), int16_t(Offset), ContiguousLanes);
    Remaining = (Remaining + 1) / 2;
  }
}

void reduceFullWarp(void *Data, ShuffleReduceFnTy Shuffle, uint32_t Lane) {
  for (uint32_t Offset = gpu::warpSize() / 2; Offset > 0; Offset /= 2)
    Shuffle(Data, int16_t(Lane), int16_t(Offset), FullWarp);
}

/// The lanes of the calling warp that belong to the current parallel region
/// (its first currentTeamSize() threads of the block), all of which take part
/// in each shuffle of the region's reduction. The active mask is no
/// substitute: with independent thread scheduling (sm_70 and later) it names
/// only the lanes that happen to be converged at that instant, and a shuffle
/// over fewer lanes reads stale values from the others (a nested parallel
/// reduction in a generic-mode team counted lanes 28..31 twice).
uint64_t regionLanesOfMyWarp() {
  uint32_t Tid = arch::threadIdInBlock();
  uint32_t TeamSize = currentTeamSize();
  uint32_t Warp = gpu::warpSize();
  uint32_t WarpStart = Tid - Tid % Warp;
  if (Tid >= TeamSize)
    return gpu::activeMask();
  uint32_t Lanes = TeamSize - WarpStart;
  return Lanes >= Warp ? ~uint64_t(0) >> (64 - Warp)
                       : (uint64_t(1) << Lanes) - 1;
}
} // namespace

extern "C" {
int32_t __kmpc_get_warp_size() { return int32_t(gpu::warpSize()); }

int32_t __kmpc_shuffle_int32(int32_t Value, int16_t Delta, int16_t Width) {
  return gpu::shuffleDown(regionLanesOfMyWarp(), Value, uint32_t(Delta),
                          uint32_t(Width));
}

int64_t __kmpc_shuffle_int64(int64_t Value, int16_t Delta, int16_t Width) {
  uint64_t Mask = regionLanesOfMyWarp();
  uint32_t Low = uint32_t(uint64_t(Value));
  uint32_t High = uint32_t(uint64_t(Value) >> 32);
  Low = uint32_t(
      gpu::shuffleDown(Mask, int32_t(Low), uint32_t(Delta), uint32_t(Width)));
  High = uint32_t(
      gpu::shuffleDown(Mask, int32_t(High), uint32_t(Delta), uint32_t(Width)));
  return int64_t((uint64_t(High) << 32) | Low);
}

int32_t __kmpc_nvptx_parallel_reduce_nowait_v2(IdentTy *, uint64_t, void *Data,
                                               ShuffleReduceFnTy Shuffle,
                                               InterWarpCopyFnTy Copy) {
  // As with parallel regions (Parallel.h): given the helpers' addresses,
  // link-time OpenMPOpt compared each call below with every helper of the
  // program and the inliner copied them all in; 16 kernels with a reduction
  // took 54 CPU-s to link for sm_90. One indirect call per shuffle step is
  // what hiding them costs.
  Shuffle = hideFromOptimizer(Shuffle);
  Copy = hideFromOptimizer(Copy);
  // The region's threads are the first TeamSize threads of the block.
  uint32_t TeamSize = currentTeamSize();
  uint32_t Tid = arch::threadIdInBlock();
  if (TeamSize <= 1)
    return 1;
  uint32_t Warp = gpu::warpSize();
  uint32_t Lane = Tid % Warp;
  uint32_t LanesInMyWarp = TeamSize - (Tid - Lane);
  if (LanesInMyWarp >= Warp)
    reduceFullWarp(Data, Shuffle, Lane);
  else
    reduceContiguousLanes(Data, Shuffle, Lane, LanesInMyWarp);
  if (TeamSize > Warp) {
    // Lane 0 of every warp now holds its warp's value; gather them in warp
    // 0 and reduce once more.
    uint32_t NumWarps = (TeamSize + Warp - 1) / Warp;
    Copy(Data, int32_t(NumWarps));
    if (Tid < Warp)
      reduceContiguousLanes(Data, Shuffle, Lane, NumWarps);
  }
  return Tid == 0;
}

void *__kmpc_reduction_get_fixed_buffer() {
  KernelLaunchEnvironmentTy *Launch = arch::teamState().LaunchEnv;
  return Launch ? Launch->ReductionBuffer : nullptr;
}

int32_t __kmpc_nvptx_teams_reduce_nowait_v2(
    IdentTy *, void *Buffer, uint32_t NumRecords, uint64_t, void *Data,
    ShuffleReduceFnTy, InterWarpCopyFnTy, GlobalListFnTy ListToGlobalCopy,
    GlobalListFnTy ListToGlobalReduce, GlobalListFnTy GlobalToListCopy,
    GlobalListFnTy GlobalToListReduce) {
  // A team's value is in its leader's copy: thread 0 in SPMD mode (the
  // parallel reduction put it there), the main thread in generic mode (the
  // only thread running the teams region).
  if (!isTeamLeader())
    return 0;
  // Hidden for the same reason as the parallel reduction's helpers.
  ListToGlobalCopy = hideFromOptimizer(ListToGlobalCopy);
  ListToGlobalReduce = hideFromOptimizer(ListToGlobalReduce);
  GlobalToListCopy = hideFromOptimizer(GlobalToListCopy);
  GlobalToListReduce = hideFromOptimizer(GlobalToListReduce);
  uint32_t NumTeams = arch::numBlocks();
  if (NumTeams <= 1)
    return 1;
  KernelLaunchEnvironmentTy *Launch = arch::teamState().LaunchEnv;
  // A debug check only: the plugins allocate the buffer for every kernel
  // with a teams reduction, and a message on every such kernel's path
  // costs it the printf's stack frame (24 bytes on sm_90).
  OMPX_ASSERT(Launch && Buffer,
              "teams reduction without a reduction buffer: the plugin "
              "must allocate KernelLaunchEnvironment.ReductionBuffer");
  // The launch environment (zeroed by the plugin for every launch) counts
  // the teams done (ReductionCnt), so concurrent launches of one kernel do
  // not interfere.
  if (NumTeams <= NumRecords) {
    // A record per team: each team writes its own and no team waits for
    // another; the last to arrive folds every other record into its value.
    uint32_t Team = arch::blockId();
    ListToGlobalCopy(Buffer, int32_t(Team), Data);
    atomic::fence();
    if (atomic::add(&Launch->ReductionCnt, 1u) + 1 != NumTeams)
      return 0;
    atomic::fence();
    for (uint32_t Other = 0; Other < NumTeams; ++Other)
      if (Other != Team)
        GlobalToListReduce(Buffer, int32_t(Other), Data);
    return 1;
  }
  // More teams than records: they fold their values into record 0 one at a
  // time, under the lock ReductionIterCnt.
  arch::lock(&Launch->ReductionIterCnt);
  uint32_t Done = atomic::load(&Launch->ReductionCnt);
  if (Done == 0)
    ListToGlobalCopy(Buffer, 0, Data);
  else
    ListToGlobalReduce(Buffer, 0, Data);
  atomic::store(&Launch->ReductionCnt, Done + 1);
  atomic::fence();
  arch::unlock(&Launch->ReductionIterCnt);
  if (Done + 1 != NumTeams)
    return 0;
  // The last team takes the league's value back and reports it.
  GlobalToListCopy(Buffer, 0, Data);
  return 1;
}
}
