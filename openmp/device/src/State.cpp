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
  State.RunSchedKind = SchedStatic;
  State.RunSchedChunk = 0;
  State.RegionSerial = 0;
  State.LoopInRegion = 0;
  State.StackUsed = 0;
  State.TaskgroupDepth = 0;
  State.TaskReductions = nullptr;
  State.MadeInRegion = 0;
  State.Dispatch = DispatchState{};
}

namespace {
/// Whether the calling thread, having no state of its own, is a member of
/// its team's level-1 region: it is then thread Tid of RegionTeamSize.
/// (Threads outside the region while one runs never ask: the generic-mode
/// main thread waits for it, SPMD threads beyond its size at its barrier.)
bool inTeamRegion() { return arch::teamState().RegionTeamSize != 0; }
} // namespace

uint32_t ompx::currentLevel() {
  if (ThreadState *State = arch::threadStateIfAny())
    return State->Level;
  return inTeamRegion() ? 1 : 0;
}

uint32_t ompx::currentActiveLevel() {
  if (ThreadState *State = arch::threadStateIfAny())
    return State->ActiveLevel;
  return arch::teamState().RegionTeamSize > 1 ? 1 : 0;
}

uint32_t ompx::currentThreadNum() {
  if (ThreadState *State = arch::threadStateIfAny())
    return State->ThreadNum;
  return inTeamRegion() ? arch::threadIdInBlock() : 0;
}

uint32_t ompx::currentTeamSize() {
  if (ThreadState *State = arch::threadStateIfAny())
    return State->TeamSize;
  uint32_t Size = arch::teamState().RegionTeamSize;
  return Size ? Size : 1;
}

uint32_t ompx::level1ThreadNum() {
  if (ThreadState *State = arch::threadStateIfAny())
    return State->Level1ThreadNum;
  return inTeamRegion() ? arch::threadIdInBlock() : 0;
}

uint32_t ompx::level1TeamSize() {
  if (ThreadState *State = arch::threadStateIfAny())
    return State->Level1TeamSize;
  uint32_t Size = arch::teamState().RegionTeamSize;
  return Size ? Size : 1;
}

uint32_t ompx::currentNThreadsVar() {
  if (ThreadState *State = arch::threadStateIfAny())
    return State->NThreadsVar;
  return arch::teamState().NThreadsVar;
}

int32_t ompx::currentRunSchedKind() {
  if (ThreadState *State = arch::threadStateIfAny())
    return State->RunSchedKind;
  return arch::teamState().RunSchedKind;
}

int32_t ompx::currentRunSchedChunk() {
  if (ThreadState *State = arch::threadStateIfAny())
    return State->RunSchedChunk;
  return arch::teamState().RunSchedChunk;
}

ThreadState &ompx::ownThreadState() {
  if (ThreadState *State = arch::threadStateIfAny())
    return *State;
  // Read the view before the new state hides it.
  TeamState &Team = arch::teamState();
  uint32_t Level = currentLevel();
  uint32_t ThreadNum = currentThreadNum();
  uint32_t TeamSize = currentTeamSize();
  bool Made;
  ThreadState &State = arch::makeThreadState(Made);
  if (!Made)
    return State;
  initThreadState(State);
  State.Level = Level;
  State.ActiveLevel = TeamSize > 1;
  State.ThreadNum = State.Level1ThreadNum = ThreadNum;
  State.TeamSize = State.Level1TeamSize = TeamSize;
  State.NThreadsVar = Team.NThreadsVar;
  State.RunSchedKind = Team.RunSchedKind;
  State.RunSchedChunk = Team.RunSchedChunk;
  State.RegionSerial = Team.RegionSerial;
  State.MadeInRegion = Level > 0;
  return State;
}

void ompx::releaseRegionThreadState() {
  ThreadState *State = arch::threadStateIfAny();
  if (State && State->MadeInRegion && State->Level == 0)
    arch::dropThreadState();
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
      Team.IsSPMD ? arch::numThreadsInBlock() : Team.RegionCapacity;
  return Capacity ? Capacity : 1;
}

bool ompx::isTeamLeader() {
  TeamState &Team = arch::teamState();
  return arch::threadIdInBlock() == (Team.IsSPMD ? 0 : Team.MainThreadId);
}

uint32_t ompx::barrierParticipants() {
  uint32_t Level = currentLevel();
  if (Level == 0)
    // Outside any parallel region every thread of an SPMD block runs the
    // same code; in generic mode only the main thread does.
    return arch::teamState().IsSPMD ? arch::numThreadsInBlock() : 1;
  if (Level == 1)
    return currentTeamSize();
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
