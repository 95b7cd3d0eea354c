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
// one thread. The architecture layer owns the storage (arch::teamState(),
// arch::threadState()); the core initializes it in __kmpc_target_init.
//
//===----------------------------------------------------------------------===//

#ifndef OPENMP_DEVICE_SRC_STATE_H
#define OPENMP_DEVICE_SRC_STATE_H

#include "Arch.h"

extern "C" int8_t __kmpc_is_spmd_exec_mode();

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

/// What every kernel's team keeps in team-shared memory. Every field is
/// written by thread 0 in __kmpc_target_init, even those read only after
/// another write: link-time OpenMPOpt folds a load of team-shared memory
/// that no store reaches from the kernel's start (the memory starts
/// undefined), which deleted the software barrier's spin loop once and
/// broke reduction(task, ...) another time. Only what SPMD kernels use too
/// is here (GenericWork has the rest): in the default NVPTX flow every
/// field a kernel's code names counts in its static shared memory.
/// Sized to 16 bytes: teams have at most 1024 threads on every device.
struct TeamState {
  KernelLaunchEnvironmentTy *LaunchEnv;
  /// Both modes: the team's level-1 region, current or last: its serial
  /// number (which names its dynamic loops) and its number of threads.
  /// Written by the thread that starts the region before the barrier that
  /// opens it, read by its members only.
  uint32_t WorkSerial;
  uint16_t WorkTeamSize;
  /// ExecModeSPMD or ExecModeGeneric for this launch.
  uint8_t IsSPMD;
  /// Generic mode: set by the main thread in __kmpc_target_deinit: workers
  /// leave.
  uint8_t KernelDone;
};

/// Generic mode: the parallel region the main thread hands to its workers.
/// Kept apart from TeamState because only generic kernels name it, so that
/// SPMD kernels do not pay for it in team-shared memory. Set before each
/// region; thread 0 zeroes it in __kmpc_target_init of a generic kernel.
struct GenericWork {
  void *Fn;
  /// The region's wrapper, for a compiler-generated state machine.
  void *Wrapper;
  /// The region's arguments, in team memory, after a slot holding their
  /// count (Args[-1]: no field for it here, where each byte costs every
  /// generic kernel); also the array of __kmpc_begin_sharing_variables,
  /// which __kmpc_get_shared_variables returns (the wrapper's way to
  /// them).
  void **Args;
};

/// What a team needs only for some constructs (dynamically scheduled
/// loops). A GPU team makes it in the device heap the first time a thread
/// needs it (arch::teamExtras), so that team-shared memory, which every
/// kernel pays for in occupancy, holds only what every kernel uses.
struct TeamExtras {
  DispatchBuffer Dispatch[NumDispatchBuffers];
  /// A `reduction(task, ...)` being set up: thread 0's reduction, which
  /// the other threads of the region copy (TaskReduction.cpp). One for
  /// parallel constructs and one for worksharing ones, which may nest.
  TaskReduction *TaskModifierReduction[2];
};
void initTeamExtras(TeamExtras &Extras);

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

/// What a thread needs only for some constructs: a dynamically scheduled
/// loop, taskgroups, a run-sched-var it set. Kept out of ThreadState, which
/// every thread of every kernel has; a GPU thread gets its ThreadExtras from
/// the device heap the first time it needs them, for the rest of the kernel
/// (ompx::threadExtras).
struct ThreadExtras {
  /// run-sched-var ICV.
  int32_t RunSchedKind;
  int32_t RunSchedChunk;
  /// nthreads-var ICV (omp_set_num_threads; 0: none) and a pending
  /// num_threads clause (__kmpc_push_num_threads; -1: none).
  uint32_t NThreadsVar;
  int32_t PushedNumThreads;
  /// Dynamically scheduled loops this thread started in level-1 region
  /// number LoopRegionSerial (they name the team's loop buffers).
  uint32_t LoopRegionSerial;
  uint32_t LoopInRegion;
  /// __kmpc_serialized_parallel regions entered beyond
  /// arch::MaxCountedLevel (ThreadState::Level), which their end must not
  /// count down.
  uint32_t UncountedLevels;
  /// Taskgroups the thread is inside, and the task reductions they opened,
  /// innermost first (TaskReduction.cpp).
  uint32_t TaskgroupDepth;
  TaskReduction *TaskReductions;
  DispatchState Dispatch;
};

/// What a thread keeps for itself: a GPU block keeps it in one byte per
/// thread of team-shared memory (arch::threadState), because every byte
/// there costs every kernel occupancy. The rest of a thread's view is the
/// team's: a thread inside its team's level-1 region is region thread number
/// threadIdInBlock() of TeamState::WorkTeamSize (the region's members are
/// threads 0..N-1 of the block, see GenericLayout), and any other region around
/// it runs on it alone. What only some constructs need lives in ThreadExtras.
/// Upstream's runtime does the same with its team ICVs and lazily made thread
/// states.
struct ThreadState {
  /// Nesting depth of parallel regions around the thread (omp_get_level),
  /// up to arch::MaxCountedLevel (63 on GPUs); regions nested deeper still
  /// run, but do not count.
  uint8_t Level = 0;
  /// Whether level 1 is the team's region (the thread is one of its
  /// members, numbered by its id) rather than a region serialized on this
  /// thread.
  bool InTeamRegion = false;
};
/// omp_get_level of the calling thread, whose state is \p State: its
/// counted level and the __kmpc_serialized_parallel levels beyond it.
uint32_t currentLevel(ThreadState State);

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

/// The calling team's layout: computed, not stored, since team-shared
/// memory costs every kernel occupancy and the arithmetic is a few
/// instructions.
inline GenericLayout teamLayout() {
  return genericLayout(arch::numThreadsInBlock(), arch::warpSize());
}

enum class GenericRole { Main, Worker, Idle };
GenericRole genericRole(const GenericLayout &Layout, uint32_t Tid);

/// Threads a level-1 parallel region of the calling team may use (at
/// least 1).
uint32_t regionCapacity();

/// Whether the calling thread speaks for its team (holds the team's value
/// of a reduction): thread 0 in SPMD mode, the main thread in generic mode.
bool isTeamLeader();

/// Starts a thread's extras for a new team.
void initThreadExtras(ThreadExtras &Extras);

/// The calling thread's extras, made when it has none yet; or, with
/// \p Create false, nullptr then.
ThreadExtras *threadExtras(bool Create);

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

/// Device thread-number queries the API and the worksharing code share.
/// Whether the kernel runs in SPMD mode, asked through the runtime entry
/// point rather than by loading TeamState::IsSPMD: OpenMPOpt folds a call of
/// __kmpc_is_spmd_exec_mode to the mode of the kernels that reach it. The
/// load is never folded in the default NVPTX flow, where each unit only
/// declares the team memory and the barriers and fences after
/// __kmpc_target_init's store clobber it: every SPMD kernel kept the
/// generic-mode paths (the region arguments' copy to the heap, the worker
/// release) and their registers and stack. (OpenMPOpt cannot fold the call
/// in a region reached through a hidden pointer (Parallel.h); the device
/// link's DirectRegionCalls step does, once the region is in its kernel.)
inline bool isSPMDMode() { return __kmpc_is_spmd_exec_mode() != 0; }

/// Whether \p State is in its team's level-1 region itself (not in a
/// region nested in it).
inline bool atTeamRegionLevel(ThreadState State) {
  return State.Level == 1 && State.InTeamRegion;
}

/// omp_get_thread_num / omp_get_num_threads of the innermost region.
inline uint32_t currentThreadNum() {
  return atTeamRegionLevel(arch::threadState()) ? arch::threadIdInBlock() : 0;
}
inline uint32_t currentTeamSize() {
  return atTeamRegionLevel(arch::threadState()) ? arch::teamState().WorkTeamSize
                                                : 1;
}

/// omp_get_active_level: 1 inside the team's region (at any depth) when it
/// has more than one thread; nested regions are serialized.
inline uint32_t currentActiveLevel() {
  ThreadState State = arch::threadState();
  return State.Level >= 1 && State.InTeamRegion &&
         arch::teamState().WorkTeamSize > 1;
}

} // namespace ompx

#endif // OPENMP_DEVICE_SRC_STATE_H
