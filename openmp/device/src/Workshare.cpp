//===- Workshare.cpp - Statically scheduled loops -------------------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Two interfaces divide a loop among threads and teams:
//  - the OMPIRBuilder loop API (__kmpc_*_static_loop_*): the runtime owns the
//    loop and calls the body once per logical iteration 0..TripCount-1;
//  - the older __kmpc_*_static_init_*: the runtime rewrites the bounds the
//    compiled loop then runs.
// Without a chunk size every participant gets one contiguous block (the
// first TripCount % N participants one iteration more); with a chunk size,
// chunks go round-robin.
//
//===----------------------------------------------------------------------===//

#include "Interface.h"
#include "LoopIterations.h"
#include "State.h"

using namespace ompx;

namespace {

/// Calls Visit(From, To) for each range of iterations 0..Count-1 that
/// participant \p Id of \p N owns: one contiguous block when Chunk is 0,
/// round-robin chunks else.
template <typename T, typename VisitFn>
void forEachOwnRange(T Count, T N, T Id, T Chunk, VisitFn Visit) {
  if (Count <= 0 || N == 0)
    return;
  if (Chunk <= 0) {
    T From, To;
    blockOf<T>(Count, N, Id, From, To);
    Visit(From, To);
    return;
  }
  for (T Start = Id * Chunk; Start < Count; Start += N * Chunk) {
    Visit(Start, Count - Start < Chunk ? Count : Start + Chunk);
    if (Count - Start <= N * Chunk)
      break; // the next step would overflow T
  }
}

/// Calls Body(IV, Arg) for the iterations [Begin, End) participant \p Id of
/// \p N owns (see forEachOwnRange).
template <typename T>
void runShare(void (*Body)(T, void *), void *Arg, T Begin, T End, T N, T Id,
              T Chunk) {
  if (End <= Begin)
    return;
  forEachOwnRange<T>(End - Begin, N, Id, Chunk, [&](T From, T To) {
    for (T I = From; I < To; ++I)
      Body(Begin + I, Arg);
  });
}

template <typename T>
void forStaticLoop(void *Body, void *Arg, T TripCount, T NumThreads, T Chunk) {
  using BodyTy = void (*)(T, void *);
  T N = NumThreads > 0 ? NumThreads : T(currentTeamSize());
  T Id = T(currentThreadNum());
  if (Id >= N)
    return;
  runShare<T>(reinterpret_cast<BodyTy>(Body), Arg, T(0), TripCount, N, Id,
              Chunk);
}

template <typename T>
void distributeStaticLoop(void *Body, void *Arg, T TripCount, T BlockChunk) {
  using BodyTy = void (*)(T, void *);
  runShare<T>(reinterpret_cast<BodyTy>(Body), Arg, T(0), TripCount,
              T(arch::numBlocks()), T(arch::blockId()), BlockChunk);
}

template <typename T>
void distributeForStaticLoop(void *Body, void *Arg, T TripCount, T NumThreads,
                             T BlockChunk, T ThreadChunk) {
  using BodyTy = void (*)(T, void *);
  BodyTy Fn = reinterpret_cast<BodyTy>(Body);
  T Teams = T(arch::numBlocks());
  T Team = T(arch::blockId());
  T N = NumThreads > 0 ? NumThreads : T(currentTeamSize());
  T Id = T(currentThreadNum());
  if (Id >= N)
    return;
  // Each of the team's blocks or chunks is shared by its threads.
  forEachOwnRange<T>(TripCount, Teams, Team, BlockChunk, [&](T Begin, T End) {
    runShare<T>(Fn, Arg, Begin, End, N, Id, ThreadChunk);
  });
}

/// Rewrites inclusive bounds [*Lower, *Upper] with increment \p Incr for
/// participant \p Id of \p N under schedule \p Sched.
template <typename T, typename ST>
void staticInit(int32_t Sched, int32_t *LastIter, T *Lower, T *Upper,
                ST *Stride, ST Incr, ST Chunk, uint64_t N, uint64_t Id) {
  Sched &= ~ScheduleModifierMask;
  uint64_t Trip = loopTripCount<T, ST>(*Lower, *Upper, Incr);
  T Base = *Lower;
  if (LastIter)
    *LastIter = 0;
  if (Trip == 0) {
    *Stride = Incr;
    return;
  }
  bool Chunked =
      (Sched == SchedStaticChunked || Sched == SchedDistributeStaticChunked ||
       Sched == SchedOrderedStaticChunked ||
       Sched == SchedStaticBalancedChunked) &&
      Chunk > 0;
  if (!Chunked) {
    uint64_t Begin, End;
    blockOf<uint64_t>(Trip, N, Id, Begin, End);
    if (Begin >= End) {
      // No iterations: an empty range the compiled loop skips.
      *Lower = T(Base + T(int64_t(Trip) * int64_t(Incr)));
      *Upper = T(*Lower - T(Incr));
    } else {
      *Lower = T(Base + T(int64_t(Begin) * int64_t(Incr)));
      *Upper = T(Base + T(int64_t(End - 1) * int64_t(Incr)));
    }
    if (LastIter)
      *LastIter = End == Trip && Begin < End;
    // One block each: the loop's next "chunk" lies beyond the bounds.
    *Stride = ST(int64_t(Trip) * int64_t(Incr));
    return;
  }
  uint64_t C = uint64_t(Chunk);
  uint64_t First = Id * C;
  *Lower = T(Base + T(int64_t(First) * int64_t(Incr)));
  *Upper = T(*Lower + T(int64_t(C - 1) * int64_t(Incr)));
  *Stride = ST(int64_t(N * C) * int64_t(Incr));
  if (LastIter)
    *LastIter = ((Trip - 1) / C) % N == Id;
}

template <typename T, typename ST>
void forStaticInit(int32_t Sched, int32_t *LastIter, T *Lower, T *Upper,
                   ST *Stride, ST Incr, ST Chunk) {
  staticInit<T, ST>(Sched, LastIter, Lower, Upper, Stride, Incr, Chunk,
                    currentTeamSize(), currentThreadNum());
}

template <typename T, typename ST>
void distributeStaticInit(int32_t Sched, int32_t *LastIter, T *Lower, T *Upper,
                          ST *Stride, ST Incr, ST Chunk) {
  staticInit<T, ST>(Sched, LastIter, Lower, Upper, Stride, Incr, Chunk,
                    arch::numBlocks(), arch::blockId());
}

} // namespace

// Loop API. The trip count arrives in the loop's own type; the one
// iteration-per-thread hint is ignored: looping is always correct.
extern "C" {
void __kmpc_for_static_loop_4(IdentTy *, void *Body, void *Arg, int32_t Trip,
                              int32_t NumThreads, int32_t Chunk, int8_t) {
  forStaticLoop<int32_t>(Body, Arg, Trip, NumThreads, Chunk);
}
void __kmpc_for_static_loop_4u(IdentTy *, void *Body, void *Arg, uint32_t Trip,
                               uint32_t NumThreads, uint32_t Chunk, int8_t) {
  forStaticLoop<uint32_t>(Body, Arg, Trip, NumThreads, Chunk);
}
void __kmpc_for_static_loop_8(IdentTy *, void *Body, void *Arg, int64_t Trip,
                              int64_t NumThreads, int64_t Chunk, int8_t) {
  forStaticLoop<int64_t>(Body, Arg, Trip, NumThreads, Chunk);
}
void __kmpc_for_static_loop_8u(IdentTy *, void *Body, void *Arg, uint64_t Trip,
                               uint64_t NumThreads, uint64_t Chunk, int8_t) {
  forStaticLoop<uint64_t>(Body, Arg, Trip, NumThreads, Chunk);
}
void __kmpc_distribute_static_loop_4(IdentTy *, void *Body, void *Arg,
                                     int32_t Trip, int32_t BlockChunk, int8_t) {
  distributeStaticLoop<int32_t>(Body, Arg, Trip, BlockChunk);
}
void __kmpc_distribute_static_loop_4u(IdentTy *, void *Body, void *Arg,
                                      uint32_t Trip, uint32_t BlockChunk,
                                      int8_t) {
  distributeStaticLoop<uint32_t>(Body, Arg, Trip, BlockChunk);
}
void __kmpc_distribute_static_loop_8(IdentTy *, void *Body, void *Arg,
                                     int64_t Trip, int64_t BlockChunk, int8_t) {
  distributeStaticLoop<int64_t>(Body, Arg, Trip, BlockChunk);
}
void __kmpc_distribute_static_loop_8u(IdentTy *, void *Body, void *Arg,
                                      uint64_t Trip, uint64_t BlockChunk,
                                      int8_t) {
  distributeStaticLoop<uint64_t>(Body, Arg, Trip, BlockChunk);
}
void __kmpc_distribute_for_static_loop_4(IdentTy *, void *Body, void *Arg,
                                         int32_t Trip, int32_t NumThreads,
                                         int32_t BlockChunk,
                                         int32_t ThreadChunk, int8_t) {
  distributeForStaticLoop<int32_t>(Body, Arg, Trip, NumThreads, BlockChunk,
                                   ThreadChunk);
}
void __kmpc_distribute_for_static_loop_4u(IdentTy *, void *Body, void *Arg,
                                          uint32_t Trip, uint32_t NumThreads,
                                          uint32_t BlockChunk,
                                          uint32_t ThreadChunk, int8_t) {
  distributeForStaticLoop<uint32_t>(Body, Arg, Trip, NumThreads, BlockChunk,
                                    ThreadChunk);
}
void __kmpc_distribute_for_static_loop_8(IdentTy *, void *Body, void *Arg,
                                         int64_t Trip, int64_t NumThreads,
                                         int64_t BlockChunk,
                                         int64_t ThreadChunk, int8_t) {
  distributeForStaticLoop<int64_t>(Body, Arg, Trip, NumThreads, BlockChunk,
                                   ThreadChunk);
}
void __kmpc_distribute_for_static_loop_8u(IdentTy *, void *Body, void *Arg,
                                          uint64_t Trip, uint64_t NumThreads,
                                          uint64_t BlockChunk,
                                          uint64_t ThreadChunk, int8_t) {
  distributeForStaticLoop<uint64_t>(Body, Arg, Trip, NumThreads, BlockChunk,
                                    ThreadChunk);
}

// Older interface. libomp has the __kmpc_for_static_init_* names too; the
// CPU layer sends calls from host threads there.
void __kmpc_for_static_init_4(IdentTy *Loc, int32_t Gtid, int32_t Sched,
                              int32_t *LastIter, int32_t *Lower, int32_t *Upper,
                              int32_t *Stride, int32_t Incr, int32_t Chunk) {
  OMPX_FORWARD_TO_HOST(__kmpc_for_static_init_4, void,
                       (IdentTy *, int32_t, int32_t, int32_t *, int32_t *,
                        int32_t *, int32_t *, int32_t, int32_t),
                       Loc, Gtid, Sched, LastIter, Lower, Upper, Stride, Incr,
                       Chunk);
  forStaticInit<int32_t, int32_t>(Sched, LastIter, Lower, Upper, Stride, Incr,
                                  Chunk);
}
void __kmpc_for_static_init_4u(IdentTy *Loc, int32_t Gtid, int32_t Sched,
                               int32_t *LastIter, uint32_t *Lower,
                               uint32_t *Upper, int32_t *Stride, int32_t Incr,
                               int32_t Chunk) {
  OMPX_FORWARD_TO_HOST(__kmpc_for_static_init_4u, void,
                       (IdentTy *, int32_t, int32_t, int32_t *, uint32_t *,
                        uint32_t *, int32_t *, int32_t, int32_t),
                       Loc, Gtid, Sched, LastIter, Lower, Upper, Stride, Incr,
                       Chunk);
  forStaticInit<uint32_t, int32_t>(Sched, LastIter, Lower, Upper, Stride, Incr,
                                   Chunk);
}
void __kmpc_for_static_init_8(IdentTy *Loc, int32_t Gtid, int32_t Sched,
                              int32_t *LastIter, int64_t *Lower, int64_t *Upper,
                              int64_t *Stride, int64_t Incr, int64_t Chunk) {
  OMPX_FORWARD_TO_HOST(__kmpc_for_static_init_8, void,
                       (IdentTy *, int32_t, int32_t, int32_t *, int64_t *,
                        int64_t *, int64_t *, int64_t, int64_t),
                       Loc, Gtid, Sched, LastIter, Lower, Upper, Stride, Incr,
                       Chunk);
  forStaticInit<int64_t, int64_t>(Sched, LastIter, Lower, Upper, Stride, Incr,
                                  Chunk);
}
void __kmpc_for_static_init_8u(IdentTy *Loc, int32_t Gtid, int32_t Sched,
                               int32_t *LastIter, uint64_t *Lower,
                               uint64_t *Upper, int64_t *Stride, int64_t Incr,
                               int64_t Chunk) {
  OMPX_FORWARD_TO_HOST(__kmpc_for_static_init_8u, void,
                       (IdentTy *, int32_t, int32_t, int32_t *, uint64_t *,
                        uint64_t *, int64_t *, int64_t, int64_t),
                       Loc, Gtid, Sched, LastIter, Lower, Upper, Stride, Incr,
                       Chunk);
  forStaticInit<uint64_t, int64_t>(Sched, LastIter, Lower, Upper, Stride, Incr,
                                   Chunk);
}
void __kmpc_distribute_static_init_4(IdentTy *, int32_t, int32_t Sched,
                                     int32_t *LastIter, int32_t *Lower,
                                     int32_t *Upper, int32_t *Stride,
                                     int32_t Incr, int32_t Chunk) {
  distributeStaticInit<int32_t, int32_t>(Sched, LastIter, Lower, Upper, Stride,
                                         Incr, Chunk);
}
void __kmpc_distribute_static_init_4u(IdentTy *, int32_t, int32_t Sched,
                                      int32_t *LastIter, uint32_t *Lower,
                                      uint32_t *Upper, int32_t *Stride,
                                      int32_t Incr, int32_t Chunk) {
  distributeStaticInit<uint32_t, int32_t>(Sched, LastIter, Lower, Upper, Stride,
                                          Incr, Chunk);
}
void __kmpc_distribute_static_init_8(IdentTy *, int32_t, int32_t Sched,
                                     int32_t *LastIter, int64_t *Lower,
                                     int64_t *Upper, int64_t *Stride,
                                     int64_t Incr, int64_t Chunk) {
  distributeStaticInit<int64_t, int64_t>(Sched, LastIter, Lower, Upper, Stride,
                                         Incr, Chunk);
}
void __kmpc_distribute_static_init_8u(IdentTy *, int32_t, int32_t Sched,
                                      int32_t *LastIter, uint64_t *Lower,
                                      uint64_t *Upper, int64_t *Stride,
                                      int64_t Incr, int64_t Chunk) {
  distributeStaticInit<uint64_t, int64_t>(Sched, LastIter, Lower, Upper, Stride,
                                          Incr, Chunk);
}
void __kmpc_for_static_fini(IdentTy *Loc, int32_t Gtid) {
  OMPX_FORWARD_TO_HOST(__kmpc_for_static_fini, void, (IdentTy *, int32_t), Loc,
                       Gtid);
}
void __kmpc_distribute_static_fini(IdentTy *, int32_t) {}
}
