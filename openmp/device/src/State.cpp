//===- State.cpp - Thread state and the team barrier ----------------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "State.h"

using namespace ompx;

void ompx::initThreadState(ThreadState &State) {
  State.Level = 0;
  State.ActiveLevel = 0;
  State.ThreadNum = 0;
  State.TeamSize = 1;
  State.Level1ThreadNum = 0;
  State.Level1TeamSize = 1;
  State.NThreadsVar = 0;
  State.PushedNumThreads = -1;
  State.RegionSerial = 0;
  State.LoopInRegion = 0;
  State.StackUsed = 0;
}

void ompx::initThreadExtras(ThreadExtras &Extras) {
  Extras.RunSchedKind = SchedStatic;
  Extras.RunSchedChunk = 0;
  Extras.TaskgroupDepth = 0;
  Extras.TaskReductions = nullptr;
  Extras.Dispatch = DispatchState{};
}

ThreadExtras *ompx::threadExtras(bool Create) {
  bool Made = false;
  ThreadExtras *Extras = arch::threadExtras(Create, Made);
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

GenericRole ompx::genericRole(const TeamState &Team, uint32_t Tid) {
  if (Tid == Team.MainThreadId)
    return GenericRole::Main;
  return Tid < Team.RegionCapacity ? GenericRole::Worker : GenericRole::Idle;
}

uint32_t ompx::regionCapacity() {
  TeamState &Team = arch::teamState();
  uint32_t Capacity =
      isSPMDMode() ? arch::numThreadsInBlock() : Team.RegionCapacity;
  return Capacity ? Capacity : 1;
}

bool ompx::isTeamLeader() {
  TeamState &Team = arch::teamState();
  return arch::threadIdInBlock() == (isSPMDMode() ? 0 : Team.MainThreadId);
}

uint32_t ompx::barrierParticipants() {
  ThreadState &State = arch::threadState();
  if (State.Level == 0)
    // Outside any parallel region every thread of an SPMD block runs the
    // same code; in generic mode only the main thread does.
    return isSPMDMode() ? arch::numThreadsInBlock() : 1;
  if (State.Level == 1)
    return State.TeamSize;
  // Nested regions are serialized: a team of one.
  return 1;
}

void ompx::teamBarrier() {
  uint32_t Count = barrierParticipants();
  if (Count > 1)
    arch::barrier(arch::RegionBarrier, Count);
  else
    atomic::fence();
}
