//===- BlockState.h - The state of a running block --------------*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// One block runs on one host thread: each GPU thread is a user-level context
// (Boost.Context's fcontext: a register switch without the signal-mask
// system call of ucontext's swapcontext) with its own stack, and the
// block's scheduler (SIMTExecutor.cpp) switches to the
// threads in turn. A thread runs until it waits (a barrier, a warp-
// synchronous operation), yields (nanosleep, spin-waits) or exits, so
// every switch point is a call into the emulator and the data below needs
// no locking: only one thread of a block runs at a time.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_GPU_EMULATOR_BLOCKSTATE_H
#define OFFLOAD_GPU_EMULATOR_BLOCKSTATE_H

#include "FiberAnnotations.h"
#include "Schedule.h"

#include <boost/context/detail/fcontext.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace gpuemu {

struct Dim3 {
  uint32_t X = 1, Y = 1, Z = 1;
  uint64_t count() const { return uint64_t(X) * Y * Z; }
};

enum class ThreadWait : uint8_t {
  None,       // runnable
  Barrier,    // in a block barrier
  Warp,       // in a shuffle, vote or syncwarp
  ActiveMask, // asking which lanes run with it
  Rejoin,     // AMD: where its wavefront's paths rejoin (WavefrontLockstep.cpp)
  Exited,
};

/// What a thread brings to a warp-synchronous operation and gets back.
struct WarpOperation {
  uint32_t Kind = 0; // 0: syncwarp, 1 + ShuffleKind, 16 + VoteKind
  uint64_t Mask = 0; // up to 64 lanes (AMD wavefronts)
  uint32_t Value = 0;
  uint32_t B = 0, C = 0;
  uint64_t Result = 0;
};

using Context = boost::context::detail::fcontext_t;

struct GPUThread {
  /// Where the thread resumes; valid while it does not run.
  Context Resume = nullptr;
#if GPUEMU_TSAN_FIBERS
  /// The TSan fiber of its stack (FiberAnnotations.h).
  void *Fiber = nullptr;
#endif
  uint32_t Index = 0; // linear id in the block
  Dim3 Id;
  ThreadWait Wait = ThreadWait::None;
  /// Its last run ended in a yield: it is spinning, not on its way to a
  /// point where its warp converges.
  bool Spinning = false;
  /// When it last yielded or arrived in activemask (BlockState::Events),
  /// and its event before that: tell whether a spinning lane has looked
  /// again since a lane of its warp arrived in activemask.
  uint64_t LastEvent = 0;
  uint64_t PreviousEvent = 0;
  /// It waits in activemask for an AMD wavefront operation (Op) over the
  /// lanes that arrive with it, which their release completes at once.
  bool WaveOpPending = false;
  uint32_t BarrierId = 0;
  WarpOperation Op;
  /// AMD: the branch regions around spin loops it is inside, innermost
  /// last, and the one it waits to rejoin its wavefront after.
  std::vector<const void *> Regions;
  const void *RejoinAt = nullptr;
};

struct HardwareBarrier {
  uint32_t Arrived = 0;
  /// Threads that complete the round; 0: every thread that has not exited.
  uint32_t Expected = 0;
};

constexpr uint32_t NumBarriers = 16;

struct BlockState {
  Dim3 Id, GridDim, BlockDim;
  uint32_t WarpSize = 32;
  const char *KernelName = "";
  char *Shared = nullptr;
  uint32_t DynamicSharedBytes = 0;
  std::vector<GPUThread> Threads;
  uint32_t Live = 0;
  /// Counts yields and activemask arrivals, ordering them within the block.
  uint64_t Events = 0;
  HardwareBarrier Barriers[NumBarriers];
  /// Per warp, the lanes waiting in a warp-synchronous operation and the
  /// lanes that have exited: kept beside each thread's Wait so that an
  /// arrival checks its operation with a mask test instead of a scan of the
  /// warp (a shuffle reduction's every step is such an arrival).
  std::vector<uint64_t> WarpWaiting, WarpExited;
  /// Set when a thread traps or fails an assertion; the block stops.
  bool Failed = false;
  std::string FailureMessage;
  int FailureCode = 0;
  /// Where the block's scheduler resumes while a GPU thread runs.
  Context Scheduler = nullptr;
#if GPUEMU_TSAN_FIBERS
  /// The TSan fiber the scheduler runs as: its host thread's.
  void *SchedulerFiber = nullptr;
#endif
  /// Index of the host worker running this block (reported as %smid).
  uint32_t Worker = 0, Workers = 1;
  /// The random schedule's numbers, and its order of the round being run
  /// (unused in order).
  ScheduleRandom Random;
  std::vector<uint32_t> Order;
  /// Threads waiting to rejoin their wavefront, and the rounds in a row in
  /// which, while some did, every thread that ran only spun.
  uint32_t RejoinWaiters = 0;
  uint32_t SpinOnlyRounds = 0;

  uint32_t warpOf(const GPUThread &T) const { return T.Index / WarpSize; }
  uint32_t laneOf(const GPUThread &T) const { return T.Index % WarpSize; }
  /// Lanes of warp \p Warp that exist in this block.
  uint64_t warpLanes(uint32_t Warp) const;
};

/// The block and thread running on this host thread. Every emulator call
/// of a kernel reads them: the initial-exec model makes that a plain
/// %fs-relative load instead of a __tls_get_addr call each time (a few
/// bytes of the static TLS that glibc keeps for dlopen'ed libraries).
#define GPUEMU_FAST_TLS __attribute__((tls_model("initial-exec")))
extern thread_local BlockState *CurrentBlock GPUEMU_FAST_TLS;
extern thread_local GPUThread *CurrentThread GPUEMU_FAST_TLS;

/// Switches back to the block's scheduler; returns when the scheduler
/// resumes the calling GPU thread.
void switchToScheduler();

/// Ends the launch: records the failure and never returns to the thread.
[[noreturn]] void failLaunch(int CudaError, const std::string &Message);

/// Barrier arrival, completion checks after a thread exits (both in
/// SyncOperations.cpp).
void arriveAtBarrier(uint32_t Id, uint32_t Count);
void recheckAfterExit(BlockState &Block, const GPUThread &Exited);
/// Completes the barriers that the threads now waiting to rejoin their
/// wavefronts no longer hold up.
void recheckBarriers(BlockState &Block);
/// Releases the threads waiting in activemask, at the end of a round.
bool releaseActiveMaskWaiters(BlockState &Block);
/// Releases the lanes waiting to rejoin their wavefront whose region no
/// lane is still inside, at the end of a round (WavefrontLockstep.cpp).
bool releaseRejoinWaiters(BlockState &Block);
/// The lanes waiting to rejoin lanes of their AMD wavefront that are in
/// barrier \p Id: the wavefront runs them masked off while its other lanes
/// reach s_barrier, which counts wavefronts, not lanes, on the GPU
/// (WavefrontLockstep.cpp).
uint32_t maskedOffAtBarrier(const BlockState &Block, uint32_t Id);
/// Why \p Block, whose threads wait to rejoin their wavefronts or spin and
/// have done only that for many rounds, can never go on.
std::string describeLockstepDeadlock(const BlockState &Block);

} // namespace gpuemu

#endif // OFFLOAD_GPU_EMULATOR_BLOCKSTATE_H
