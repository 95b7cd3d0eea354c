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
  State.StackUsed = 0;
  State.Dispatch = DispatchState{};
}

uint32_t ompx::barrierParticipants() {
  ThreadState &State = arch::threadState();
  if (State.Level == 0)
    // Outside any parallel region every thread of an SPMD block runs the
    // same code; in generic mode only the main thread does.
    return arch::teamState().IsSPMD ? arch::numThreadsInBlock() : 1;
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
