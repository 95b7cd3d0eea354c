//===- State.cpp - Thread state and the team barrier ----------------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "State.h"

using namespace ompx;

void ompx::initThreadExtras(ThreadExtras &Extras) {
  Extras.RunSchedKind = SchedStatic;
  Extras.RunSchedChunk = 0;
  Extras.NThreadsVar = 0;
  Extras.PushedNumThreads = -1;
  Extras.LoopRegionSerial = 0;
  Extras.LoopInRegion = 0;
  Extras.UncountedLevels = 0;
  Extras.TaskgroupDepth = 0;
  Extras.TaskReductions = nullptr;
  Extras.Dispatch = DispatchState{};
}

void ompx::initTeamExtras(TeamExtras &Extras) {
  for (DispatchBuffer &Buffer : Extras.Dispatch) {
    // Loop keys start at 1: key 0, ready and drained, means unused.
    Buffer.Key = 1;
    Buffer.Next = 0;
    Buffer.Finished = 0;
    Buffer.Participants = 0;
  }
  Extras.TaskModifierReduction[0] = Extras.TaskModifierReduction[1] = nullptr;
}

uint32_t ompx::currentLevel(ThreadState State) {
  uint32_t Level = State.Level;
  if (Level == arch::MaxCountedLevel)
    if (ThreadExtras *Extras = threadExtras(/*Create=*/false))
      Level += Extras->UncountedLevels;
  return Level;
}

ThreadExtras *ompx::threadExtras(bool Create) {
  if (!Create)
    return arch::existingThreadExtras();
  bool Made = false;
  ThreadExtras *Extras = arch::threadExtras(Made);
  if (!Extras)
    arch::fatal("out of device memory for the runtime's per-thread state "
                "(LIBOMPTARGET_HEAP_SIZE)");
  if (Made)
    initThreadExtras(*Extras);
  return Extras;
}

GenericLayout ompx::genericLayout(uint32_t BlockSize, uint32_t WarpSize) {
  if (WarpSize <= 1)
    return {0, BlockSize, BlockSize};
  uint32_t Main = (BlockSize - 1) / WarpSize * WarpSize;
  uint32_t Workers = BlockSize > WarpSize ? BlockSize - WarpSize : 0;
  return {Main, Workers, Workers + 1};
}

GenericRole ompx::genericRole(const GenericLayout &Layout, uint32_t Tid) {
  if (Tid == Layout.MainThreadId)
    return GenericRole::Main;
  return Tid < Layout.RegionCapacity ? GenericRole::Worker : GenericRole::Idle;
}

uint32_t ompx::regionCapacity() {
  uint32_t Capacity =
      isSPMDMode() ? arch::numThreadsInBlock() : teamLayout().RegionCapacity;
  return Capacity ? Capacity : 1;
}

bool ompx::isTeamLeader() {
  return arch::threadIdInBlock() ==
         (isSPMDMode() ? 0 : teamLayout().MainThreadId);
}

uint32_t ompx::barrierParticipants() {
  ThreadState State = arch::threadState();
  if (State.Level == 0)
    // Outside any parallel region every thread of an SPMD block runs the
    // same code; in generic mode only the main thread does.
    return isSPMDMode() ? arch::numThreadsInBlock() : 1;
  if (atTeamRegionLevel(State))
    return arch::teamState().WorkTeamSize;
  // Nested and if(false) regions are serialized: a team of one.
  return 1;
}

void ompx::teamBarrier() {
  uint32_t Count = barrierParticipants();
  if (Count > 1)
    arch::barrier(arch::RegionBarrier, Count);
  else
    atomic::fence();
}
