//===- Parallel.cpp - Parallel regions ------------------------------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Rules: one level of parallelism is active. A region started outside any
// parallel region runs on threads 0..N-1 of the block, numbered by their
// hardware id (SPMD: every thread already runs and calls us; generic: the
// main thread wakes the workers waiting in the state machine, and takes
// part itself only when it is thread 0, see GenericLayout in State.h). Any
// region inside another one, or with if(false), runs on the calling thread
// alone ("serialized"), as the OpenMP nesting rules allow when
// max-active-levels is 1.
//
//===----------------------------------------------------------------------===//

#include "Parallel.h"
#include "Debug.h"
#include "Interface.h"

using namespace ompx;

#include "InvokeRegion.inc"

namespace {

OMPX_HOT void callRegion(void *Fn, void **Args, uint64_t NumArgs,
                         int32_t ThreadNum) {
  int32_t Gtid = ThreadNum;
  int32_t Zero = 0;
  if (!invokeRegion(hideFromOptimizer(Fn), &Gtid, &Zero, Args, NumArgs))
    arch::fatal("parallel region captures more variables than the device "
                "runtime supports (64)");
}

/// Makes the calling thread the only member of a region one level deeper;
/// false when it is already as deep as its state counts, and the level
/// stays (regions nested deeper still run).
bool enterSerializedLevel() {
  ThreadState State = arch::threadState();
  if (State.Level >= arch::MaxCountedLevel)
    return false;
  if (State.Level == 0)
    State.InTeamRegion = false;
  ++State.Level;
  arch::setThreadState(State);
  return true;
}

/// Leaves the innermost serialized region that enterSerializedLevel
/// counted.
void leaveSerializedLevel() {
  ThreadState State = arch::threadState();
  if (State.Level > 0)
    --State.Level;
  if (State.Level == 0)
    State.InTeamRegion = false;
  arch::setThreadState(State);
}

/// Makes the calling thread a member of its team's level-1 region (the
/// region's size and serial number are the team's, TeamState::WorkTeamSize).
void enterLevel1Region() {
  ThreadState State;
  State.Level = 1;
  State.InTeamRegion = true;
  arch::setThreadState(State);
}

/// Leaves a level-1 region: back to the kernel's sequential part.
void leaveLevel1Region() { arch::setThreadState(ThreadState()); }

/// Runs \p Fn on the calling thread alone, one level deeper. The frame
/// remembers whether the level counted, so that nesting beyond what the
/// state counts needs no memory (every kernel with a parallel region
/// reaches this: an allocation here cost each of them 20 registers on
/// sm_90).
void runSerialized(void *Fn, void **Args, uint64_t NumArgs) {
  bool Counted = enterSerializedLevel();
  callRegion(Fn, Args, NumArgs, 0);
  if (Counted)
    leaveSerializedLevel();
}

/// The num_threads clause the calling thread pushed for its next parallel
/// region (-1: none), which that region consumes.
int32_t takePushedNumThreads() {
  ThreadExtras *Extras = threadExtras(/*Create=*/false);
  if (!Extras)
    return -1;
  int32_t Pushed = Extras->PushedNumThreads;
  Extras->PushedNumThreads = -1;
  return Pushed;
}

} // namespace

uint32_t ompx::chooseTeamSize(int32_t NumThreadsClause) {
  uint32_t Size = regionCapacity();
  uint32_t Limit = 0;
  if (NumThreadsClause > 0)
    Limit = uint32_t(NumThreadsClause);
  else if (ThreadExtras *Extras = threadExtras(/*Create=*/false))
    Limit = Extras->NThreadsVar;
  if (Limit > 0 && Limit < Size)
    Size = Limit;
  return Size;
}

OMPX_HOT void ompx::runRegionAsMember(void *Fn, void **Args, uint64_t NumArgs,
                                      uint32_t ThreadNum) {
  enterLevel1Region();
  callRegion(Fn, Args, NumArgs, int32_t(ThreadNum));
  leaveLevel1Region();
}

extern "C" OMPX_HOT void __kmpc_parallel_60(IdentTy *, int32_t, int32_t IfExpr,
                                            int32_t NumThreads, int32_t,
                                            void *Fn, void *WrapperFn,
                                            void **Args, int64_t NumArgs,
                                            int32_t) {
  ThreadState State = arch::threadState();
  TeamState &Team = arch::teamState();
  int32_t Pushed = takePushedNumThreads();
  if (NumThreads <= 0)
    NumThreads = Pushed;
  if (NumArgs < 0 || uint64_t(NumArgs) > MaxRegionArgs)
    arch::fatal("parallel region captures more variables than the device "
                "runtime supports (64)");

  if (State.Level > 0 || !IfExpr) {
    runSerialized(Fn, Args, uint64_t(NumArgs));
    return;
  }
  uint32_t BlockSize = arch::numThreadsInBlock();

  if (isSPMDMode()) {
    // Every thread of the block is here. Thread 0 sizes and numbers the
    // region for all (its num_threads and nthreads-var decide, as the
    // thread that would encounter the construct in generic mode); those
    // beyond the size wait at the closing barrier. The opening barrier
    // publishes that, and orders what the threads did before the region (a
    // kernel OpenMPOpt made SPMD lets every thread store the serial code's
    // values to team memory) before the region's accesses, as upstream's
    // runtime does: without it the racecheck of the GPU emulator found a
    // slow warp's serial store overwriting a region member's write (the GPU
    // kit's generic_mode at -O2).
    uint32_t Tid = arch::threadIdInBlock();
    if (Tid == 0) {
      Team.WorkTeamSize = uint16_t(chooseTeamSize(NumThreads));
      ++Team.WorkSerial;
    }
    arch::barrier(arch::BlockBarrier, BlockSize);
    if (Tid < Team.WorkTeamSize)
      runRegionAsMember(Fn, Args, uint64_t(NumArgs), Tid);
    arch::barrier(arch::BlockBarrier, BlockSize);
    return;
  }

  uint32_t Size = chooseTeamSize(NumThreads);

  // Generic mode: only the main thread gets here.
  if (Size <= 1) {
    runSerialized(Fn, Args, uint64_t(NumArgs));
    return;
  }
  // The argument array lives on the main thread's stack, which other
  // threads may not be able to read (GPUs): copy it into team memory. (No
  // staging copy on the stack: GPU stacks are small, see the plugins'
  // DeviceLimits.h.) Their count goes first (GenericWork::Args).
  uint64_t SharedBytes = (uint64_t(NumArgs) + 1) * sizeof(void *);
  void **Counted = static_cast<void **>(__kmpc_alloc_shared(SharedBytes));
  Counted[0] = reinterpret_cast<void *>(uintptr_t(NumArgs));
  void **SharedArgs = Counted + 1;
  for (int64_t I = 0; I < NumArgs; ++I)
    SharedArgs[I] = Args[I];

  GenericWork &Work = arch::genericWork();
  Work.Fn = Fn;
  Work.Wrapper = WrapperFn;
  Work.Args = SharedArgs;
  Team.WorkTeamSize = uint16_t(Size);
  ++Team.WorkSerial;
  GenericLayout Layout = teamLayout();
  uint32_t Participants = Layout.StateMachineThreads;
  arch::barrier(arch::BlockBarrier, Participants); // workers start
  // Where threads progress independently the main thread is thread 0 and
  // runs the region with the workers; otherwise it only waits.
  uint32_t MainTid = Layout.MainThreadId;
  if (MainTid < Size)
    runRegionAsMember(Fn, SharedArgs, uint64_t(NumArgs), MainTid);
  arch::barrier(arch::BlockBarrier, Participants); // workers are done
  Work.Fn = nullptr;
  Work.Wrapper = nullptr;
  Work.Args = nullptr;
  Team.WorkTeamSize = 0;
  __kmpc_free_shared(Counted, SharedBytes);
}

extern "C" void __kmpc_parallel_51(IdentTy *Loc, int32_t Gtid, int32_t IfExpr,
                                   int32_t NumThreads, int32_t ProcBind,
                                   void *Fn, void *WrapperFn, void **Args,
                                   int64_t NumArgs) {
  __kmpc_parallel_60(Loc, Gtid, IfExpr, NumThreads, ProcBind, Fn, WrapperFn,
                     Args, NumArgs, 0);
}

// The entry points of a compiler-generated ("custom") state machine. The
// worker waits at __kmpc_barrier_simple_generic, asks for work here, runs
// the region's wrapper, and calls __kmpc_kernel_end_parallel.
extern "C" bool __kmpc_kernel_parallel(void **WorkFn) {
  TeamState &Team = arch::teamState();
  if (atomic::load(&Team.KernelDone)) {
    *WorkFn = nullptr;
    return false;
  }
  uint32_t Tid = arch::threadIdInBlock();
  if (genericRole(teamLayout(), Tid) == GenericRole::Idle) {
    // Not a worker (it shares the main thread's warp): a null work
    // function tells the compiler's state machine to end the kernel.
    *WorkFn = nullptr;
    return false;
  }
  void *Wrapper = arch::genericWork().Wrapper;
  *WorkFn = Wrapper;
  if (!Wrapper || Tid >= Team.WorkTeamSize)
    return false;
  enterLevel1Region();
  return true;
}

extern "C" void __kmpc_kernel_end_parallel() {
  OMPX_ASSERT(arch::threadState().Level == 1,
              "__kmpc_kernel_end_parallel outside the parallel region "
              "__kmpc_kernel_parallel started");
  leaveLevel1Region();
}

extern "C" void __kmpc_begin_sharing_variables(void ***Vars, uint64_t NumVars) {
  GenericWork &Work = arch::genericWork();
  Work.Args = static_cast<void **>(
      __kmpc_alloc_shared(NumVars ? NumVars * sizeof(void *) : 1));
  *Vars = Work.Args;
}

extern "C" void __kmpc_end_sharing_variables() {
  GenericWork &Work = arch::genericWork();
  // The size is only needed to pop the stack, which frees by address.
  __kmpc_free_shared(Work.Args, 0);
  Work.Args = nullptr;
}

extern "C" void __kmpc_get_shared_variables(void ***Vars) {
  *Vars = arch::genericWork().Args;
}

extern "C" void __kmpc_serialized_parallel(IdentTy *Loc, int32_t Gtid) {
  OMPX_FORWARD_TO_HOST(__kmpc_serialized_parallel, void, (IdentTy *, int32_t),
                       Loc, Gtid);
  if (!enterSerializedLevel())
    ++threadExtras(/*Create=*/true)->UncountedLevels;
}

extern "C" void __kmpc_end_serialized_parallel(IdentTy *Loc, int32_t Gtid) {
  OMPX_FORWARD_TO_HOST(__kmpc_end_serialized_parallel, void,
                       (IdentTy *, int32_t), Loc, Gtid);
  ThreadExtras *Extras = threadExtras(/*Create=*/false);
  if (Extras && Extras->UncountedLevels > 0)
    --Extras->UncountedLevels;
  else
    leaveSerializedLevel();
}

extern "C" void __kmpc_push_num_threads(IdentTy *Loc, int32_t Gtid,
                                        int32_t NumThreads) {
  OMPX_FORWARD_TO_HOST(__kmpc_push_num_threads, void,
                       (IdentTy *, int32_t, int32_t), Loc, Gtid, NumThreads);
  threadExtras(/*Create=*/true)->PushedNumThreads =
      NumThreads > 0 ? NumThreads : -1;
}

extern "C" void __kmpc_push_proc_bind(IdentTy *Loc, int32_t Gtid,
                                      int32_t ProcBind) {
  OMPX_FORWARD_TO_HOST(__kmpc_push_proc_bind, void,
                       (IdentTy *, int32_t, int32_t), Loc, Gtid, ProcBind);
  // Device threads are not bound to places; nothing to remember.
}

extern "C" uint16_t __kmpc_parallel_level(IdentTy *, int32_t) {
  return uint16_t(currentLevel(arch::threadState()));
}

extern "C" OMPX_HOT int32_t __kmpc_global_thread_num(IdentTy *Loc) {
  OMPX_FORWARD_TO_HOST(__kmpc_global_thread_num, int32_t, (IdentTy *), Loc);
  return int32_t(currentThreadNum());
}
