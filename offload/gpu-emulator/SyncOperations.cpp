//===- SyncOperations.cpp - Barriers and warp-synchronous operations ------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A waiting thread is marked and switches to the scheduler; the thread
// whose arrival completes an operation computes every participant's result
// and marks them runnable. Threads that have exited count as arrived, as on
// a GPU since Volta. Shuffle results follow the PTX definition of shfl.sync
// (source lane, segment clamp, in-range predicate).
//
//===----------------------------------------------------------------------===//

#include "BlockState.h"
#include "Checkers.h"
#include "gpu/CUDAABI.h"

#include "offload/GPUEmulation/EmulatorABI.h"

#include <algorithm>
#include <cstdint>

using namespace gpuemu;
using offload::gpuemu::ShuffleKind;
using offload::gpuemu::VoteKind;

namespace gpuemu {

uint64_t BlockState::warpLanes(uint32_t Warp) const {
  uint64_t First = uint64_t(Warp) * WarpSize;
  uint64_t Count = std::min<uint64_t>(WarpSize, Threads.size() - First);
  return Count >= 64 ? ~uint64_t(0) : (uint64_t(1) << Count) - 1;
}

namespace {

constexpr uint32_t SyncWarpKind = 0;
constexpr uint32_t ShuffleBase = 1;
constexpr uint32_t VoteBase = 16;
/// AMD's ds_bpermute and readlane: B is the source lane (~0u: the first
/// lane taking part).
constexpr uint32_t PermuteKind = 32;

void releaseBarrier(BlockState &Block, uint32_t Id) {
  for (GPUThread &T : Block.Threads)
    if (T.Wait == ThreadWait::Barrier && T.BarrierId == Id) {
      T.Wait = ThreadWait::None;
      if (enabledChecks())
        noteSynchronised(T);
    }
  Block.Barriers[Id] = HardwareBarrier();
}

void checkBarrier(BlockState &Block, uint32_t Id) {
  HardwareBarrier &B = Block.Barriers[Id];
  uint32_t Expected = B.Expected ? B.Expected : Block.Live;
  // Lanes of an AMD wavefront that wait to rejoin lanes of it in this
  // barrier are lanes it runs masked off (WavefrontLockstep.cpp).
  if (!B.Expected && Block.RejoinWaiters && B.Arrived)
    Expected -= maskedOffAtBarrier(Block, Id);
  if (B.Arrived && B.Arrived >= Expected)
    releaseBarrier(Block, Id);
}

/// The PTX source lane of a shuffle; sets \p InRange.
uint32_t shuffleSource(const WarpOperation &Op, uint32_t Lane, bool &InRange) {
  uint32_t BVal = Op.B & 0x1f, CVal = Op.C & 0x1f;
  uint32_t SegMask = (Op.C >> 8) & 0x1f;
  uint32_t MaxLane = (Lane & SegMask) | (CVal & ~SegMask);
  uint32_t MinLane = Lane & SegMask;
  int32_t J = 0;
  switch (ShuffleKind(Op.Kind - ShuffleBase)) {
  case ShuffleKind::Up:
    J = int32_t(Lane) - int32_t(BVal);
    InRange = J >= int32_t(MaxLane);
    break;
  case ShuffleKind::Down:
    J = int32_t(Lane + BVal);
    InRange = J <= int32_t(MaxLane);
    break;
  case ShuffleKind::Butterfly:
    J = int32_t(Lane ^ BVal);
    InRange = J <= int32_t(MaxLane);
    break;
  case ShuffleKind::Index:
    J = int32_t(MinLane | (BVal & ~SegMask));
    InRange = J <= int32_t(MaxLane);
    break;
  }
  return InRange ? uint32_t(J) : Lane;
}

/// Computes the results of the warp operation whose participants (in
/// \p Lanes of warp \p Warp) have all arrived, and releases them.
void completeWarpOperation(BlockState &Block, uint32_t Warp, uint64_t Lanes) {
  if (checking(SyncCheck))
    checkWarpAgreement(Block, Warp, Lanes);
  GPUThread *Base = &Block.Threads[uint64_t(Warp) * Block.WarpSize];
  uint64_t Ballot = 0;
  for (uint32_t L = 0; L < Block.WarpSize; ++L)
    if ((Lanes >> L & 1) && Base[L].Op.Value)
      Ballot |= uint64_t(1) << L;
  for (uint32_t L = 0; L < Block.WarpSize; ++L) {
    if (!(Lanes >> L & 1))
      continue;
    WarpOperation &Op = Base[L].Op;
    if (Op.Kind == PermuteKind) {
      uint32_t Source = Op.B == ~0u ? uint32_t(__builtin_ctzll(Lanes))
                                    : Op.B % Block.WarpSize;
      // A lane outside the operation has no value to give: the reader
      // keeps its own.
      Op.Result = (Lanes >> Source & 1) ? Base[Source].Op.Value : Op.Value;
    } else if (Op.Kind >= VoteBase) {
      switch (VoteKind(Op.Kind - VoteBase)) {
      case VoteKind::All:
        Op.Result = Ballot == Lanes;
        break;
      case VoteKind::Any:
        Op.Result = Ballot != 0;
        break;
      case VoteKind::Uniform:
        Op.Result = Ballot == 0 || Ballot == Lanes;
        break;
      case VoteKind::Ballot:
        Op.Result = Ballot;
        break;
      }
    } else if (Op.Kind >= ShuffleBase) {
      bool InRange = false;
      uint32_t Source = shuffleSource(Op, L, InRange);
      uint32_t Value = (Lanes >> Source & 1) ? Base[Source].Op.Value : Op.Value;
      Op.Result = uint64_t(Value) | (uint64_t(InRange) << 32);
    }
    Base[L].Wait = ThreadWait::None;
    if (enabledChecks())
      noteSynchronised(Base[L]);
  }
  Block.WarpWaiting[Warp] &= ~Lanes;
}

/// Completes the operation lane \p Lane of warp \p Warp waits in, if every
/// other lane of its mask has arrived or exited.
void checkWarp(BlockState &Block, uint32_t Warp, uint32_t Lane) {
  const GPUThread &Self = Block.Threads[uint64_t(Warp) * Block.WarpSize + Lane];
  uint64_t Needed =
      Self.Op.Mask & Block.warpLanes(Warp) & ~Block.WarpExited[Warp];
  if ((Block.WarpWaiting[Warp] & Needed) == Needed)
    completeWarpOperation(Block, Warp, Needed);
}

uint64_t warpOperation(uint32_t Kind, uint64_t Mask, uint32_t Value, uint32_t B,
                       uint32_t C) {
  BlockState &Block = *CurrentBlock;
  GPUThread &Self = *CurrentThread;
  Self.Op = WarpOperation{
      Kind, Mask | (uint64_t(1) << Block.laneOf(Self)), Value, B, C, 0};
  Self.Wait = ThreadWait::Warp;
  Block.WarpWaiting[Block.warpOf(Self)] |= uint64_t(1) << Block.laneOf(Self);
  checkWarp(Block, Block.warpOf(Self), Block.laneOf(Self));
  while (Self.Wait != ThreadWait::None)
    switchToScheduler();
  return Self.Op.Result;
}

/// Releases lanes \p Exec of warp \p Warp from activemask, with \p Exec as
/// their answer; when all of them wait for the same wavefront operation,
/// it runs over them now (the EXEC mask), sparing each lane a second wait.
void releaseExecMask(BlockState &Block, uint32_t Warp, uint64_t Exec) {
  GPUThread *Base = &Block.Threads[uint64_t(Warp) * Block.WarpSize];
  uint32_t First = uint32_t(__builtin_ctzll(Exec));
  bool SameOperation = true;
  for (uint32_t L = First; L < Block.WarpSize; ++L)
    if ((Exec >> L & 1) &&
        (!Base[L].WaveOpPending || Base[L].Op.Kind != Base[First].Op.Kind))
      SameOperation = false;
  for (uint32_t L = First; L < Block.WarpSize; ++L) {
    if (!(Exec >> L & 1))
      continue;
    if (SameOperation) {
      Base[L].Op.Mask = Exec;
      Base[L].WaveOpPending = false;
      continue;
    }
    Base[L].Op.Result = Exec;
    Base[L].Wait = ThreadWait::None;
  }
  if (SameOperation)
    completeWarpOperation(Block, Warp, Exec);
}

// While a lane waits in activemask, the lanes of its operation are not
// known yet: its Op.Mask holds the code address it waits at instead (the
// return address of the emulator call, the device code's program counter).
// Only lanes at the same address run together, as a GPU's lanes do only at
// the same instruction: lanes of a warp in another activemask (a diverged
// path) get their own mask. Merging them gave wrong masks and values: a
// ballot and a readfirstlane of the same wavefront taken as one operation
// (the host-service ticket of emulator/amdgpu/host-file-print.test).
uintptr_t siteOf(const GPUThread &T) { return uintptr_t(T.Op.Mask); }

/// The lanes of the calling thread's warp that reach activemask at \p Site
/// with it, i.e. in the same scheduling round.
uint64_t activeMaskAt(const void *Site) {
  GPUThread &Self = *CurrentThread;
  Self.Op.Mask = uint64_t(uintptr_t(Site));
  Self.Wait = ThreadWait::ActiveMask;
  Self.LastEvent = ++CurrentBlock->Events;
  while (Self.Wait != ThreadWait::None)
    switchToScheduler();
  return Self.Op.Result;
}

/// An AMD wavefront operation at \p Site over the lanes that reach it
/// together (the EXEC mask, as activemask defines it).
uint64_t waveOperation(const void *Site, uint32_t Kind, uint32_t Value,
                       uint32_t B) {
  GPUThread &Self = *CurrentThread;
  Self.Op = WarpOperation{Kind, 0, Value, B, 0, 0};
  Self.WaveOpPending = true;
  uint64_t Exec = activeMaskAt(Site);
  if (!Self.WaveOpPending)
    return Exec; // the operation's result
  // Lanes of another operation at the same address arrived too (a shared
  // helper's code): take part with Exec.
  Self.WaveOpPending = false;
  return warpOperation(Kind, Exec, Value, B, 0);
}

} // namespace

void arriveAtBarrier(uint32_t Id, uint32_t Count) {
  BlockState &Block = *CurrentBlock;
  if (Id >= NumBarriers)
    failLaunch(offload::cuda_abi::CUDA_ERROR_ILLEGAL_INSTRUCTION,
               "barrier id " + std::to_string(Id) + " is out of range");
  HardwareBarrier &B = Block.Barriers[Id];
  GPUThread &Self = *CurrentThread;
  ++B.Arrived;
  B.Expected = Count;
  Self.Wait = ThreadWait::Barrier;
  Self.BarrierId = Id;
  checkBarrier(Block, Id);
  while (Self.Wait != ThreadWait::None)
    switchToScheduler();
}

void recheckBarriers(BlockState &Block) {
  for (uint32_t Id = 0; Id < NumBarriers; ++Id)
    checkBarrier(Block, Id);
}

void recheckAfterExit(BlockState &Block, const GPUThread &Exited) {
  if (checking(SyncCheck))
    checkExitBeforeBarrier(Block, Exited);
  for (uint32_t Id = 0; Id < NumBarriers; ++Id)
    checkBarrier(Block, Id);
  // An exit changes only its own warp's operations. A completion clears its
  // lanes from the mask, so the next waiting lane is looked up afresh.
  uint32_t W = Block.warpOf(Exited);
  uint64_t Unchecked = Block.WarpWaiting[W];
  while (uint64_t Pending = Unchecked & Block.WarpWaiting[W]) {
    uint32_t L = uint32_t(__builtin_ctzll(Pending));
    Unchecked &= ~(uint64_t(1) << L);
    checkWarp(Block, W, L);
  }
}

bool releaseActiveMaskWaiters(BlockState &Block) {
  bool Released = false;
  uint32_t Warps = (Block.Threads.size() + Block.WarpSize - 1) / Block.WarpSize;
  for (uint32_t W = 0; W < Warps; ++W) {
    GPUThread *Base = &Block.Threads[uint64_t(W) * Block.WarpSize];
    uint64_t Lanes = Block.warpLanes(W);
    uint64_t Waiting = 0, LatestArrival = 0, EarliestSpin = UINT64_MAX;
    bool Settled = true;
    for (uint32_t L = 0; L < Block.WarpSize && (Lanes >> L & 1); ++L) {
      const GPUThread &T = Base[L];
      if (T.Wait == ThreadWait::ActiveMask) {
        Waiting |= uint64_t(1) << L;
        LatestArrival = std::max(LatestArrival, T.LastEvent);
      }
      // A lane that is runnable and not spinning (released by a barrier or
      // warp operation after its turn in this round) may be on its way to
      // the same activemask: wait for it.
      if (T.Wait == ThreadWait::None && !T.Spinning)
        Settled = false;
      if (T.Wait == ThreadWait::None && T.Spinning)
        EarliestSpin = std::min(EarliestSpin, T.PreviousEvent);
    }
    // A spinning lane whose look came before a lane arrived here may find
    // its wait over at its next look (the arriving lane, or one after it in
    // the round, ended it: a software barrier's last arrival) and come here
    // too; on an AMD GPU its wavefront reconverges before going on. Give it
    // two: only lanes that have yielded twice since the last arrival are
    // left out, as lanes diverged into a wait. One turn is not enough: the
    // image yields every so many looks of all the block's threads together
    // (SpinLoopYield.cpp), so a turn may end after a few looks of its own,
    // and a lane on its way through a branch its wavefront's other lanes
    // skipped (the device heap's compare-and-swap loops when one thread
    // frees memory) was left out of the parallel reduction its wavefront
    // waited in, where its lanes reconverge on the GPU: the lane then
    // combined its value with itself at each step of the reduction.
    if (EarliestSpin < LatestArrival)
      Settled = false;
    if (!Waiting || !Settled)
      continue;
    // One EXEC mask per code address the lanes wait at.
    while (Waiting) {
      uintptr_t Site = siteOf(Base[__builtin_ctzll(Waiting)]);
      uint64_t Exec = 0;
      for (uint32_t L = 0; L < Block.WarpSize; ++L)
        if ((Waiting >> L & 1) && siteOf(Base[L]) == Site)
          Exec |= uint64_t(1) << L;
      Waiting &= ~Exec;
      releaseExecMask(Block, W, Exec);
    }
    Released = true;
  }
  return Released;
}

} // namespace gpuemu

extern "C" {

__attribute__((visibility("default"))) void __gpuemu_barrier(uint32_t Id,
                                                             uint32_t Count) {
  arriveAtBarrier(Id, Count);
}

__attribute__((visibility("default"))) uint64_t __gpuemu_shfl(
    uint32_t Kind, uint32_t Mask, uint32_t Value, uint32_t B, uint32_t C) {
  return warpOperation(ShuffleBase + Kind, Mask, Value, B, C);
}

__attribute__((visibility("default"))) uint32_t
__gpuemu_vote(uint32_t Kind, uint32_t Mask, uint32_t Predicate) {
  return uint32_t(warpOperation(VoteBase + Kind, Mask, Predicate != 0, 0, 0));
}

__attribute__((visibility("default"))) void __gpuemu_syncwarp(uint32_t Mask) {
  warpOperation(SyncWarpKind, Mask, 0, 0, 0);
}

// The lanes that reach activemask in the same scheduling round are the ones
// that run together: a round runs every runnable thread until it waits, so
// converged lanes arrive together and diverged ones (in a barrier, still
// spinning after a look at memory that the arrivals wrote) do not.
__attribute__((visibility("default"))) uint64_t __gpuemu_activemask64() {
  return activeMaskAt(__builtin_return_address(0));
}

__attribute__((visibility("default"))) uint32_t __gpuemu_activemask() {
  return uint32_t(activeMaskAt(__builtin_return_address(0)));
}

// An AMD wavefront operation runs over the lanes of the EXEC mask: those
// that reach it together, as activemask defines them.
__attribute__((visibility("default"))) uint64_t
__gpuemu_wave_ballot(uint32_t Predicate) {
  return waveOperation(__builtin_return_address(0),
                       VoteBase + uint32_t(VoteKind::Ballot), Predicate != 0,
                       0);
}

__attribute__((visibility("default"))) uint32_t
__gpuemu_wave_permute(uint32_t SourceLane, uint32_t Value) {
  return uint32_t(waveOperation(__builtin_return_address(0), PermuteKind, Value,
                                SourceLane));
}
}
