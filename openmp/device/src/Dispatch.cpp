//===- Dispatch.cpp - Dynamically scheduled loops -------------------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// __kmpc_dispatch_init_* starts a loop, __kmpc_dispatch_next_* hands out the
// next chunk until it returns 0. Threads of an active region share the
// iterations of a dynamic or guided loop through one of the team's dispatch
// buffers; a loop run by a single thread, or a static schedule, needs no
// shared state.
//
// A buffer is reused for a later loop only once every participant of the
// loop it holds has drained it, so `nowait` loops can overlap up to
// NumDispatchBuffers deep.
//
//===----------------------------------------------------------------------===//

#include "Interface.h"
#include "LoopIterations.h"
#include "State.h"

using namespace ompx;

namespace {

bool isDynamicKind(int32_t Kind) {
  return Kind == SchedDynamicChunked || Kind == SchedGuidedChunked ||
         Kind == SchedGuidedIterative || Kind == SchedGuidedAnalytical ||
         Kind == SchedTrapezoidal || Kind == SchedStaticSteal ||
         Kind == SchedOrderedDynamicChunked ||
         Kind == SchedOrderedGuidedChunked;
}

bool isGuidedKind(int32_t Kind) {
  return Kind == SchedGuidedChunked || Kind == SchedGuidedIterative ||
         Kind == SchedGuidedAnalytical || Kind == SchedOrderedGuidedChunked;
}

/// Claims (or joins) the team buffer of loop \p Key.
DispatchBuffer &acquireBuffer(uint64_t Key, uint32_t LoopInRegion,
                              uint32_t Participants) {
  DispatchBuffer &Buffer =
      arch::teamExtras().Dispatch[LoopInRegion % NumDispatchBuffers];
  uint64_t Ready = (Key << 1) | 1;
  for (;;) {
    uint64_t Current = atomic::load(&Buffer.Key);
    if (Current == Ready)
      return Buffer;
    bool Drained =
        (Current & 1) && (Current >> 1) != Key &&
        atomic::load(&Buffer.Finished) == atomic::load(&Buffer.Participants);
    if (Drained && atomic::cas(&Buffer.Key, Current, Key << 1)) {
      // We own the set-up; others wait for the ready bit.
      atomic::store(&Buffer.Next, uint64_t(0));
      atomic::store(&Buffer.Finished, 0u);
      atomic::store(&Buffer.Participants, Participants);
      atomic::store(&Buffer.Key, Ready);
      return Buffer;
    }
    arch::pause();
  }
}

template <typename T, typename ST>
void dispatchInit(int32_t Sched, T Lower, T Upper, ST Stride, ST Chunk) {
  ThreadExtras &Extras = *threadExtras(/*Create=*/true);
  DispatchState &D = Extras.Dispatch;
  int32_t Kind = Sched & ~ScheduleModifierMask;
  if (Kind == SchedRuntime || Kind == SchedOrderedRuntime) {
    Kind = Extras.RunSchedKind;
    Chunk = ST(Extras.RunSchedChunk);
  }
  if (Kind == SchedAuto || Kind == SchedOrderedAuto)
    Kind = SchedStatic;
  uint64_t Trip = loopTripCount<T, ST>(Lower, Upper, Stride);
  D.Lower = int64_t(Lower);
  D.Stride = int64_t(Stride);
  D.TripCount = Trip;
  D.Chunk = Chunk > 0 ? uint64_t(Chunk) : 0;
  D.Kind = Kind;
  D.Participants = currentTeamSize();
  D.LocalNext = 0;
  D.Drained = 0;
  D.Shared = isDynamicKind(Kind) && D.Participants > 1;
  if (D.Shared) {
    // Shared loops only exist in the team's level-1 region: its serial
    // and the count of loops this thread started in it name the loop.
    uint32_t Serial = arch::teamState().WorkSerial;
    if (Extras.LoopRegionSerial != Serial) {
      Extras.LoopRegionSerial = Serial;
      Extras.LoopInRegion = 0;
    }
    uint32_t Loop = ++Extras.LoopInRegion;
    D.Key = (uint64_t(Serial) << 32) | Loop;
    acquireBuffer(D.Key, Loop, D.Participants);
  }
}

/// Next chunk of the loop \p D describes, as 0-based iteration numbers
/// [Begin, End); false when the calling thread has no more.
bool nextChunk(DispatchState &D, uint64_t &Begin, uint64_t &End) {
  uint64_t Trip = D.TripCount;
  uint64_t P = D.Participants ? D.Participants : 1;
  uint64_t Id = currentThreadNum();

  if (!D.Shared) {
    if (isDynamicKind(D.Kind)) {
      // Alone in the loop: everything that is left is one chunk.
      if (D.LocalNext >= Trip)
        return false;
      Begin = D.LocalNext;
      End = Trip;
      D.LocalNext = Trip;
      return true;
    }
    if (D.Chunk == 0) {
      // Static without chunk: one contiguous block per thread.
      if (D.LocalNext)
        return false;
      D.LocalNext = 1;
      blockOf<uint64_t>(Trip, P, Id, Begin, End);
      return Begin < End;
    }
    // Static with chunk: chunks Id, Id+P, Id+2P...
    uint64_t ChunkIndex = Id + D.LocalNext * P;
    if (ChunkIndex >= (Trip + D.Chunk - 1) / D.Chunk)
      return false;
    ++D.LocalNext;
    Begin = ChunkIndex * D.Chunk;
    End = Trip - Begin < D.Chunk ? Trip : Begin + D.Chunk;
    return true;
  }

  uint32_t Loop = uint32_t(D.Key);
  DispatchBuffer &Buffer =
      arch::teamExtras().Dispatch[Loop % NumDispatchBuffers];
  uint64_t MinChunk = D.Chunk ? D.Chunk : 1;
  if (isGuidedKind(D.Kind)) {
    uint64_t Current = atomic::load(&Buffer.Next);
    for (;;) {
      if (Current >= Trip)
        break;
      uint64_t Remaining = Trip - Current;
      uint64_t Size = Remaining / (2 * P);
      if (Size < MinChunk)
        Size = MinChunk;
      if (Size > Remaining)
        Size = Remaining;
      if (atomic::cas(&Buffer.Next, Current, Current + Size)) {
        Begin = Current;
        End = Current + Size;
        return true;
      }
    }
  } else {
    uint64_t Start = atomic::add(&Buffer.Next, MinChunk);
    if (Start < Trip) {
      Begin = Start;
      End = Trip - Start < MinChunk ? Trip : Start + MinChunk;
      return true;
    }
  }
  if (!D.Drained) {
    D.Drained = 1;
    atomic::add(&Buffer.Finished, 1u);
  }
  return false;
}

template <typename T, typename ST>
int32_t dispatchNext(int32_t *LastIter, T *Lower, T *Upper, ST *Stride) {
  uint64_t Begin, End;
  DispatchState &D = threadExtras(/*Create=*/true)->Dispatch;
  if (!nextChunk(D, Begin, End))
    return 0;
  *Lower = T(D.Lower + int64_t(Begin) * D.Stride);
  *Upper = T(D.Lower + int64_t(End - 1) * D.Stride);
  if (Stride)
    *Stride = ST(D.Stride);
  if (LastIter)
    *LastIter = End == D.TripCount;
  return 1;
}

} // namespace

extern "C" {
void __kmpc_dispatch_init_4(IdentTy *Loc, int32_t Gtid, int32_t Sched,
                            int32_t Lower, int32_t Upper, int32_t Stride,
                            int32_t Chunk) {
  OMPX_FORWARD_TO_HOST(
      __kmpc_dispatch_init_4, void,
      (IdentTy *, int32_t, int32_t, int32_t, int32_t, int32_t, int32_t), Loc,
      Gtid, Sched, Lower, Upper, Stride, Chunk);
  dispatchInit<int32_t, int32_t>(Sched, Lower, Upper, Stride, Chunk);
}
void __kmpc_dispatch_init_4u(IdentTy *Loc, int32_t Gtid, int32_t Sched,
                             uint32_t Lower, uint32_t Upper, int32_t Stride,
                             int32_t Chunk) {
  OMPX_FORWARD_TO_HOST(
      __kmpc_dispatch_init_4u, void,
      (IdentTy *, int32_t, int32_t, uint32_t, uint32_t, int32_t, int32_t), Loc,
      Gtid, Sched, Lower, Upper, Stride, Chunk);
  dispatchInit<uint32_t, int32_t>(Sched, Lower, Upper, Stride, Chunk);
}
void __kmpc_dispatch_init_8(IdentTy *Loc, int32_t Gtid, int32_t Sched,
                            int64_t Lower, int64_t Upper, int64_t Stride,
                            int64_t Chunk) {
  OMPX_FORWARD_TO_HOST(
      __kmpc_dispatch_init_8, void,
      (IdentTy *, int32_t, int32_t, int64_t, int64_t, int64_t, int64_t), Loc,
      Gtid, Sched, Lower, Upper, Stride, Chunk);
  dispatchInit<int64_t, int64_t>(Sched, Lower, Upper, Stride, Chunk);
}
void __kmpc_dispatch_init_8u(IdentTy *Loc, int32_t Gtid, int32_t Sched,
                             uint64_t Lower, uint64_t Upper, int64_t Stride,
                             int64_t Chunk) {
  OMPX_FORWARD_TO_HOST(
      __kmpc_dispatch_init_8u, void,
      (IdentTy *, int32_t, int32_t, uint64_t, uint64_t, int64_t, int64_t), Loc,
      Gtid, Sched, Lower, Upper, Stride, Chunk);
  dispatchInit<uint64_t, int64_t>(Sched, Lower, Upper, Stride, Chunk);
}
int32_t __kmpc_dispatch_next_4(IdentTy *Loc, int32_t Gtid, int32_t *LastIter,
                               int32_t *Lower, int32_t *Upper,
                               int32_t *Stride) {
  OMPX_FORWARD_TO_HOST(
      __kmpc_dispatch_next_4, int32_t,
      (IdentTy *, int32_t, int32_t *, int32_t *, int32_t *, int32_t *), Loc,
      Gtid, LastIter, Lower, Upper, Stride);
  return dispatchNext<int32_t, int32_t>(LastIter, Lower, Upper, Stride);
}
int32_t __kmpc_dispatch_next_4u(IdentTy *Loc, int32_t Gtid, int32_t *LastIter,
                                uint32_t *Lower, uint32_t *Upper,
                                int32_t *Stride) {
  OMPX_FORWARD_TO_HOST(
      __kmpc_dispatch_next_4u, int32_t,
      (IdentTy *, int32_t, int32_t *, uint32_t *, uint32_t *, int32_t *), Loc,
      Gtid, LastIter, Lower, Upper, Stride);
  return dispatchNext<uint32_t, int32_t>(LastIter, Lower, Upper, Stride);
}
int32_t __kmpc_dispatch_next_8(IdentTy *Loc, int32_t Gtid, int32_t *LastIter,
                               int64_t *Lower, int64_t *Upper,
                               int64_t *Stride) {
  OMPX_FORWARD_TO_HOST(
      __kmpc_dispatch_next_8, int32_t,
      (IdentTy *, int32_t, int32_t *, int64_t *, int64_t *, int64_t *), Loc,
      Gtid, LastIter, Lower, Upper, Stride);
  return dispatchNext<int64_t, int64_t>(LastIter, Lower, Upper, Stride);
}
int32_t __kmpc_dispatch_next_8u(IdentTy *Loc, int32_t Gtid, int32_t *LastIter,
                                uint64_t *Lower, uint64_t *Upper,
                                int64_t *Stride) {
  OMPX_FORWARD_TO_HOST(
      __kmpc_dispatch_next_8u, int32_t,
      (IdentTy *, int32_t, int32_t *, uint64_t *, uint64_t *, int64_t *), Loc,
      Gtid, LastIter, Lower, Upper, Stride);
  return dispatchNext<uint64_t, int64_t>(LastIter, Lower, Upper, Stride);
}
// Chunks complete in any order (ordered loops are not sequenced on the
// device), so finishing a chunk needs no bookkeeping.
void __kmpc_dispatch_fini_4(IdentTy *Loc, int32_t Gtid) {
  OMPX_FORWARD_TO_HOST(__kmpc_dispatch_fini_4, void, (IdentTy *, int32_t), Loc,
                       Gtid);
}
void __kmpc_dispatch_fini_4u(IdentTy *Loc, int32_t Gtid) {
  OMPX_FORWARD_TO_HOST(__kmpc_dispatch_fini_4u, void, (IdentTy *, int32_t), Loc,
                       Gtid);
}
void __kmpc_dispatch_fini_8(IdentTy *Loc, int32_t Gtid) {
  OMPX_FORWARD_TO_HOST(__kmpc_dispatch_fini_8, void, (IdentTy *, int32_t), Loc,
                       Gtid);
}
void __kmpc_dispatch_fini_8u(IdentTy *Loc, int32_t Gtid) {
  OMPX_FORWARD_TO_HOST(__kmpc_dispatch_fini_8u, void, (IdentTy *, int32_t), Loc,
                       Gtid);
}
void __kmpc_dispatch_deinit(IdentTy *Loc, int32_t Gtid) {
  OMPX_FORWARD_TO_HOST(__kmpc_dispatch_deinit, void, (IdentTy *, int32_t), Loc,
                       Gtid);
}
}
