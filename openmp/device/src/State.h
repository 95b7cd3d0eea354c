//===- State.h - Team and thread state of the device runtime ----*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What the runtime remembers while a kernel runs. TeamState is shared by the
// threads of one team (team-shared memory on a GPU); ThreadState belongs to
// one thread, where it has one (see ThreadState). The architecture layer owns
// the storage (arch::teamState(), arch::threadStateIfAny()); the core
// initializes it in __kmpc_target_init.
//
//===----------------------------------------------------------------------===//

#ifndef OPENMP_DEVICE_SRC_STATE_H
#define OPENMP_DEVICE_SRC_STATE_H

#include "Arch.h"

namespace ompx {

/// How many dynamically scheduled loops of one team may be in flight at once
/// (loops with `nowait` let fast threads run ahead).
constexpr uint32_t NumDispatchBuffers = 4;

/// Team-shared bookkeeping of one dynamically scheduled loop. A loop is
/// named by a key unique within the kernel: the region it belongs to and its
/// position in that region. Key holds (loop key << 1) | ready.
struct DispatchBuffer {
  uint64_t Key;
  /// Next unclaimed iteration (0-based).
  uint64_t Next;
  /// Threads that have drained the loop, and how many take part.
  uint32_t Finished;
  uint32_t Participants;
};

struct TaskReduction;

/// Every field is written by thread 0 in __kmpc_target_init, even those read
/// only after another write: link-time OpenMPOpt folds a load of team-shared
/// memory that no store reaches from the kernel's start (the memory starts
/// undefined), which deleted the software barrier's spin loop once and
/// broke reduction(task, ...) another time.
struct TeamState {
  KernelLaunchEnvironmentTy *LaunchEnv;
  /// ExecModeSPMD or ExecModeGeneric for this launch.
  uint8_t IsSPMD;
  /// Generic mode: who does what (see GenericLayout).
  uint32_t MainThreadId;
  uint32_t RegionCapacity;
  uint32_t StateMachineThreads;

  /// Generic mode: the parallel region the main thread hands to the workers.
  void *WorkFn;
  /// The region's wrapper, for a compiler-generated state machine.
  void *WorkWrapper;
  void **WorkArgs;
  uint64_t WorkNumArgs;
  uint32_t WorkTeamSize;
  uint32_t WorkSerial;
  /// Set by the main thread in __kmpc_target_deinit: workers leave.
  uint32_t KernelDone;

  /// Arguments published with __kmpc_begin_sharing_variables.
  void **SharedVars;

  /// A `reduction(task, ...)` being set up: thread 0's reduction, which
  /// the other threads of the region copy (TaskReduction.cpp). One for
  /// parallel constructs and one for worksharing ones, which may nest.
  TaskReduction *TaskModifierReduction[2];

  DispatchBuffer Dispatch[NumDispatchBuffers];

  /// What a thread with no ThreadState of its own sees (GPUs give a thread
  /// one only when it needs it, see ThreadState). RegionTeamSize is the
  /// size of the level-1 region in progress, 0 outside one: its members are
  /// the threads 0..RegionTeamSize-1 of the block, numbered by their id.
  uint32_t RegionTeamSize;
  /// Level-1 regions the team has started; names their dynamic loops.
  uint32_t RegionSerial;
  /// The ICVs of the team's sequential part, which its regions inherit.
  uint32_t NThreadsVar;
  int32_t RunSchedKind;
  int32_t RunSchedChunk;
};

/// Per-thread state of a dynamically scheduled loop.
struct DispatchState {
  uint64_t Key;          // key of the current shared loop
  int64_t Lower;         // first iteration value
  int64_t Stride;        // increment between iterations
  uint64_t TripCount;    // number of iterations
  uint64_t Chunk;        // chunk size (>= 1)
  int32_t Kind;          // ScheduleKind without modifiers
  uint32_t Participants; // threads sharing the loop
  uint64_t LocalNext;    // next iteration when the loop is not shared
  uint8_t Shared;        // iterations come from the team's buffer
  uint8_t Drained;       // this thread saw the end of the loop
};

/// What one thread remembers beyond its team's view. On the CPU device every
/// thread has one for the whole kernel. On GPUs a thread has one only from
/// the moment it needs one (a nested or serialized region, an ICV set inside
/// a region, a dynamically scheduled loop, a taskgroup, a pushed num_threads
/// clause) until the level-1 region it was made in ends, or the kernel ends:
/// a kernel that needs none keeps no per-thread memory at all (upstream's
/// runtime keeps its thread states lazily for the same reason: 256 threads
/// x 128 bytes of team-shared memory cost every kernel occupancy).
struct ThreadState {
  /// Nesting depth of parallel regions around the thread (omp_get_level).
  uint32_t Level;
  /// 1 when the outermost enclosing region runs on more than one thread.
  uint32_t ActiveLevel;
  /// omp_get_thread_num / omp_get_num_threads of the innermost region.
  uint32_t ThreadNum;
  uint32_t TeamSize;
  /// The same for the level-1 region (omp_get_ancestor_thread_num(1)).
  uint32_t Level1ThreadNum;
  uint32_t Level1TeamSize;
  /// nthreads-var ICV (omp_set_num_threads) and a pending num_threads clause.
  uint32_t NThreadsVar;
  int32_t PushedNumThreads;
  /// run-sched-var ICV.
  int32_t RunSchedKind;
  int32_t RunSchedChunk;
  /// Level-1 regions this thread has taken part in; the same on every
  /// member of a region, so it names the region's dynamic loops.
  uint32_t RegionSerial;
  /// Dynamically scheduled loops this thread started in its region.
  uint32_t LoopInRegion;
  /// Bytes of this thread's slice of the team scratch memory in use.
  uint32_t StackUsed;
  /// Taskgroups the thread is inside, and the task reductions they opened,
  /// innermost first (TaskReduction.cpp).
  uint32_t TaskgroupDepth;
  TaskReduction *TaskReductions;
  /// Made inside a level-1 region (GPUs): released when the region ends.
  uint8_t MadeInRegion;
  DispatchState Dispatch;
};

/// The roles of a generic-mode block of \p BlockSize threads that run in
/// lockstep groups of \p WarpSize. A thread spinning at a barrier keeps
/// every thread of its warp from progressing, so the main thread must not
/// share a warp with threads that wait for it:
///  - WarpSize 1 (threads progress independently): thread 0 is the main
///    thread and every other thread a worker; a parallel region runs on
///    threads 0..N-1, the main thread included.
///  - WarpSize W > 1: the main thread is the first thread of the last warp.
///    Threads 0..BlockSize-W-1 are the workers (all in warps before the
///    main thread's); every other thread ("idle": the rest of the main
///    thread's warp, and the tail of the warp before it when the block is
///    not a whole number of warps) leaves the kernel at once. A parallel region
///    runs on workers 0..N-1 while the main thread waits, so region thread
///    numbers are hardware ids 0..N-1 (what the GPU reductions and counted
///    barriers rely on). A block of at most one warp has no workers: its
///    regions run serialized on the main thread.
struct GenericLayout {
  uint32_t MainThreadId;
  /// Threads a parallel region may use: threads 0..RegionCapacity-1.
  uint32_t RegionCapacity;
  /// Threads that take part in the state machine's barriers.
  uint32_t StateMachineThreads;
};
GenericLayout genericLayout(uint32_t BlockSize, uint32_t WarpSize);

enum class GenericRole { Main, Worker, Idle };
GenericRole genericRole(const TeamState &Team, uint32_t Tid);

/// Threads a level-1 parallel region of the calling team may use (at
/// least 1).
uint32_t regionCapacity();

/// Whether the calling thread speaks for its team (holds the team's value
/// of a reduction): thread 0 in SPMD mode, the main thread in generic mode.
bool isTeamLeader();

/// Starts a thread's state for a new kernel.
void initThreadState(ThreadState &State);

/// The calling thread's state, made from its team's view when it has none
/// yet (see ThreadState). Use it to change what the thread remembers; the
/// queries below read without making one.
ThreadState &ownThreadState();

/// Releases the calling thread's state when it was made inside the level-1
/// region that is ending (GPUs), after its level went back to 0.
void releaseRegionThreadState();

/// The calling thread's view: its own state where it has one, else what
/// its team's state implies.
uint32_t currentLevel();
uint32_t currentActiveLevel();
uint32_t currentThreadNum();
uint32_t currentTeamSize();
uint32_t level1ThreadNum();
uint32_t level1TeamSize();
uint32_t currentNThreadsVar();
int32_t currentRunSchedKind();
int32_t currentRunSchedChunk();

/// The threads taking part in a barrier issued by the calling thread: the
/// innermost active region, or every thread of the block when an SPMD
/// kernel runs outside any parallel region. 1 means no synchronization.
uint32_t barrierParticipants();

/// Synchronizes the calling thread's current team (see above).
void teamBarrier();

/// The lock word inside a `kmp_critical_name` (critical sections and the
/// `__kmpc_reduce` lock). libomp keeps its own lock (or a pointer to it) in
/// the first words of the same storage, and one image may hold host-style
/// and device-style code naming the same critical section, so we use the
/// last word.
inline uint32_t *criticalWord(CriticalNameTy *Name) {
  return reinterpret_cast<uint32_t *>(&(*Name)[7]);
}

} // namespace ompx

#endif // OPENMP_DEVICE_SRC_STATE_H
