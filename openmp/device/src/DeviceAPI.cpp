//===- DeviceAPI.cpp - The OpenMP API inside target regions ---------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "DeviceEnvironment.h"
#include "Interface.h"
#include "Parallel.h"
#include "State.h"

using namespace ompx;

extern "C" {
int omp_get_thread_num() {
  OMPX_FORWARD_TO_HOST(omp_get_thread_num, int, ());
  return int(currentThreadNum());
}

int omp_get_num_threads() {
  OMPX_FORWARD_TO_HOST(omp_get_num_threads, int, ());
  return int(currentTeamSize());
}

int omp_get_max_threads() {
  OMPX_FORWARD_TO_HOST(omp_get_max_threads, int, ());
  if (arch::threadState().Level > 0)
    return 1; // a nested region would be serialized
  return int(chooseTeamSize(/*NumThreadsClause=*/0));
}

void omp_set_num_threads(int NumThreads) {
  OMPX_FORWARD_TO_HOST(omp_set_num_threads, void, (int), NumThreads);
  threadExtras(/*Create=*/true)->NThreadsVar =
      NumThreads > 0 ? uint32_t(NumThreads) : 0;
}

int omp_get_team_num() {
  OMPX_FORWARD_TO_HOST(omp_get_team_num, int, ());
  return int(arch::blockId());
}

int omp_get_num_teams() {
  OMPX_FORWARD_TO_HOST(omp_get_num_teams, int, ());
  return int(arch::numBlocks());
}

// nteams-var and teams-thread-limit-var: a target region cannot set them
// (omp_set_num_teams and omp_set_teams_thread_limit are host routines), so
// on the device they keep their initial value, 0, which says "no limit
// set", as libomp's initial values do.
int omp_get_max_teams() {
  OMPX_FORWARD_TO_HOST(omp_get_max_teams, int, ());
  return 0;
}

int omp_get_teams_thread_limit() {
  OMPX_FORWARD_TO_HOST(omp_get_teams_thread_limit, int, ());
  return 0;
}

int omp_get_thread_limit() {
  OMPX_FORWARD_TO_HOST(omp_get_thread_limit, int, ());
  return int(regionCapacity());
}

// A host-style kernel run on a thread of an active host team
// (CPUInPlace.cpp) sees libomp's levels, which count the host's: the
// device's levels start where the kernel started.
int omp_get_level() {
  if (auto Host = OMPX_HOST_FUNCTION(omp_get_level, int (*)()))
    return Host() - arch::inPlaceHostNesting().Level;
  return int(currentLevel(arch::threadState()));
}

int omp_get_active_level() {
  if (auto Host = OMPX_HOST_FUNCTION(omp_get_active_level, int (*)()))
    return Host() - arch::inPlaceHostNesting().ActiveLevel;
  return int(currentActiveLevel());
}

int omp_in_parallel() {
  const arch::HostNestingBase &Base = arch::inPlaceHostNesting();
  if (Base.InPlace) {
    if (auto Host = OMPX_HOST_FUNCTION(omp_get_active_level, int (*)()))
      return Host() > Base.ActiveLevel;
  }
  OMPX_FORWARD_TO_HOST(omp_in_parallel, int, ());
  return currentActiveLevel() > 0;
}

int omp_get_team_size(int Level) {
  if (auto Host = OMPX_HOST_FUNCTION(omp_get_team_size, int (*)(int)))
    return Level < 0 ? -1 : Host(Level + arch::inPlaceHostNesting().Level);
  // <ompx.h>'s host fallback of ompx_block_dim(D) asks for level D + 1.
  uint32_t Id, Extent;
  if (arch::bareThreadIdentity(Level - 1, Id, Extent))
    return int(Extent);
  ThreadState State = arch::threadState();
  if (Level < 0 || uint32_t(Level) > currentLevel(State))
    return -1;
  if (Level == 1 && State.InTeamRegion)
    return int(arch::teamState().WorkTeamSize);
  return 1;
}

int omp_get_ancestor_thread_num(int Level) {
  if (auto Host = OMPX_HOST_FUNCTION(omp_get_ancestor_thread_num, int (*)(int)))
    return Level < 0 ? -1 : Host(Level + arch::inPlaceHostNesting().Level);
  // <ompx.h>'s host fallback of ompx_thread_id(D) asks for level D + 1.
  uint32_t Id, Extent;
  if (arch::bareThreadIdentity(Level - 1, Id, Extent))
    return int(Id);
  ThreadState State = arch::threadState();
  if (Level < 0 || uint32_t(Level) > currentLevel(State))
    return -1;
  if (Level == 1 && State.InTeamRegion)
    return int(arch::threadIdInBlock());
  return 0;
}

int omp_in_final() {
  OMPX_FORWARD_TO_HOST(omp_in_final, int, ());
  return 0;
}

// Whatever thread calls them, these run in device code (the image holds
// nothing else), so they answer for the device even where libomp has its
// own definition: host-style kernels and hosts without our plugin included.
int omp_is_initial_device() { return 0; }

int omp_get_initial_device() {
  return -1; // omp_initial_device
}

int omp_get_device_num() { return int(deviceEnvironment().DeviceNum); }

int omp_get_num_devices() { return int(deviceEnvironment().NumDevices); }

int omp_get_num_procs() {
  OMPX_FORWARD_TO_HOST(omp_get_num_procs, int, ());
  return int(arch::numProcessors());
}

int omp_get_dynamic() {
  OMPX_FORWARD_TO_HOST(omp_get_dynamic, int, ());
  return 0;
}

void omp_set_dynamic(int Flag) {
  OMPX_FORWARD_TO_HOST(omp_set_dynamic, void, (int), Flag);
}

int omp_get_nested() {
  OMPX_FORWARD_TO_HOST(omp_get_nested, int, ());
  return 0;
}

void omp_set_nested(int Flag) {
  OMPX_FORWARD_TO_HOST(omp_set_nested, void, (int), Flag);
}

int omp_get_max_active_levels() {
  OMPX_FORWARD_TO_HOST(omp_get_max_active_levels, int, ());
  return 1;
}

void omp_set_max_active_levels(int Levels) {
  OMPX_FORWARD_TO_HOST(omp_set_max_active_levels, void, (int), Levels);
}

int omp_get_supported_active_levels() {
  OMPX_FORWARD_TO_HOST(omp_get_supported_active_levels, int, ());
  return 1;
}

int omp_get_cancellation() {
  OMPX_FORWARD_TO_HOST(omp_get_cancellation, int, ());
  return 0;
}

int omp_get_proc_bind() {
  OMPX_FORWARD_TO_HOST(omp_get_proc_bind, int, ());
  return 0; // omp_proc_bind_false
}

void omp_get_schedule(int *Kind, int *Chunk) {
  OMPX_FORWARD_TO_HOST(omp_get_schedule, void, (int *, int *), Kind, Chunk);
  // A thread that never set run-sched-var has no extras: it is static.
  ThreadExtras *Extras = threadExtras(/*Create=*/false);
  int32_t SchedKind = Extras ? Extras->RunSchedKind : SchedStatic;
  // omp_sched_t numbering: static 1, dynamic 2, guided 3, auto 4.
  switch (SchedKind) {
  case SchedDynamicChunked:
    *Kind = 2;
    break;
  case SchedGuidedChunked:
    *Kind = 3;
    break;
  default:
    *Kind = 1;
  }
  *Chunk = Extras ? Extras->RunSchedChunk : 0;
}

void omp_set_schedule(int Kind, int Chunk) {
  OMPX_FORWARD_TO_HOST(omp_set_schedule, void, (int, int), Kind, Chunk);
  ThreadExtras &State = *threadExtras(/*Create=*/true);
  switch (Kind & 0xff) {
  case 2:
    State.RunSchedKind = SchedDynamicChunked;
    break;
  case 3:
    State.RunSchedKind = SchedGuidedChunked;
    break;
  default:
    State.RunSchedKind = Chunk > 0 ? SchedStaticChunked : SchedStatic;
  }
  State.RunSchedChunk = Chunk > 0 ? Chunk : 0;
}

double omp_get_wtime() {
  OMPX_FORWARD_TO_HOST(omp_get_wtime, double, ());
  return double(arch::nanoseconds()) * 1e-9;
}

double omp_get_wtick() {
  OMPX_FORWARD_TO_HOST(omp_get_wtick, double, ());
  return arch::tickSeconds();
}
}
