//===- Workshare.cpp - Statically scheduled loops -------------------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// __kmpc_for_static_init_* and __kmpc_distribute_static_init_*: the runtime
// rewrites the bounds the compiled loop then runs. Without a chunk size every
// participant gets one contiguous block (the first TripCount % N participants
// one iteration more); with a chunk size, chunks go round-robin. (The
// OMPIRBuilder loop API, where the runtime owns the loop, is LoopAPI.cpp.)
//
//===----------------------------------------------------------------------===//

#include "Interface.h"
#include "LoopIterations.h"
#include "State.h"

using namespace ompx;

namespace {

/// Rewrites inclusive bounds [*Lower, *Upper] with increment \p Incr for
/// participant \p Id of \p N under schedule \p Sched.
template <typename T, typename ST>
OMPX_HOT void staticInit(int32_t Sched, int32_t *LastIter, T *Lower, T *Upper,
                         ST *Stride, ST Incr, ST Chunk, uint64_t N,
                         uint64_t Id) {
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
OMPX_HOT void forStaticInit(int32_t Sched, int32_t *LastIter, T *Lower,
                            T *Upper, ST *Stride, ST Incr, ST Chunk) {
  staticInit<T, ST>(Sched, LastIter, Lower, Upper, Stride, Incr, Chunk,
                    currentTeamSize(), currentThreadNum());
}

template <typename T, typename ST>
OMPX_HOT void distributeStaticInit(int32_t Sched, int32_t *LastIter, T *Lower,
                                   T *Upper, ST *Stride, ST Incr, ST Chunk) {
  staticInit<T, ST>(Sched, LastIter, Lower, Upper, Stride, Incr, Chunk,
                    arch::numBlocks(), arch::blockId());
}

} // namespace

extern "C" {
// libomp has the __kmpc_for_static_init_* names too; the CPU layer sends
// calls from host threads there.
OMPX_HOT void __kmpc_for_static_init_4(IdentTy *Loc, int32_t Gtid,
                                       int32_t Sched, int32_t *LastIter,
                                       int32_t *Lower, int32_t *Upper,
                                       int32_t *Stride, int32_t Incr,
                                       int32_t Chunk) {
  OMPX_FORWARD_TO_HOST(__kmpc_for_static_init_4, void,
                       (IdentTy *, int32_t, int32_t, int32_t *, int32_t *,
                        int32_t *, int32_t *, int32_t, int32_t),
                       Loc, Gtid, Sched, LastIter, Lower, Upper, Stride, Incr,
                       Chunk);
  forStaticInit<int32_t, int32_t>(Sched, LastIter, Lower, Upper, Stride, Incr,
                                  Chunk);
}
OMPX_HOT void __kmpc_for_static_init_4u(IdentTy *Loc, int32_t Gtid,
                                        int32_t Sched, int32_t *LastIter,
                                        uint32_t *Lower, uint32_t *Upper,
                                        int32_t *Stride, int32_t Incr,
                                        int32_t Chunk) {
  OMPX_FORWARD_TO_HOST(__kmpc_for_static_init_4u, void,
                       (IdentTy *, int32_t, int32_t, int32_t *, uint32_t *,
                        uint32_t *, int32_t *, int32_t, int32_t),
                       Loc, Gtid, Sched, LastIter, Lower, Upper, Stride, Incr,
                       Chunk);
  forStaticInit<uint32_t, int32_t>(Sched, LastIter, Lower, Upper, Stride, Incr,
                                   Chunk);
}
OMPX_HOT void __kmpc_for_static_init_8(IdentTy *Loc, int32_t Gtid,
                                       int32_t Sched, int32_t *LastIter,
                                       int64_t *Lower, int64_t *Upper,
                                       int64_t *Stride, int64_t Incr,
                                       int64_t Chunk) {
  OMPX_FORWARD_TO_HOST(__kmpc_for_static_init_8, void,
                       (IdentTy *, int32_t, int32_t, int32_t *, int64_t *,
                        int64_t *, int64_t *, int64_t, int64_t),
                       Loc, Gtid, Sched, LastIter, Lower, Upper, Stride, Incr,
                       Chunk);
  forStaticInit<int64_t, int64_t>(Sched, LastIter, Lower, Upper, Stride, Incr,
                                  Chunk);
}
OMPX_HOT void __kmpc_for_static_init_8u(IdentTy *Loc, int32_t Gtid,
                                        int32_t Sched, int32_t *LastIter,
                                        uint64_t *Lower, uint64_t *Upper,
                                        int64_t *Stride, int64_t Incr,
                                        int64_t Chunk) {
  OMPX_FORWARD_TO_HOST(__kmpc_for_static_init_8u, void,
                       (IdentTy *, int32_t, int32_t, int32_t *, uint64_t *,
                        uint64_t *, int64_t *, int64_t, int64_t),
                       Loc, Gtid, Sched, LastIter, Lower, Upper, Stride, Incr,
                       Chunk);
  forStaticInit<uint64_t, int64_t>(Sched, LastIter, Lower, Upper, Stride, Incr,
                                   Chunk);
}
OMPX_HOT void __kmpc_distribute_static_init_4(IdentTy *, int32_t, int32_t Sched,
                                              int32_t *LastIter, int32_t *Lower,
                                              int32_t *Upper, int32_t *Stride,
                                              int32_t Incr, int32_t Chunk) {
  distributeStaticInit<int32_t, int32_t>(Sched, LastIter, Lower, Upper, Stride,
                                         Incr, Chunk);
}
OMPX_HOT void __kmpc_distribute_static_init_4u(IdentTy *, int32_t,
                                               int32_t Sched, int32_t *LastIter,
                                               uint32_t *Lower, uint32_t *Upper,
                                               int32_t *Stride, int32_t Incr,
                                               int32_t Chunk) {
  distributeStaticInit<uint32_t, int32_t>(Sched, LastIter, Lower, Upper, Stride,
                                          Incr, Chunk);
}
OMPX_HOT void __kmpc_distribute_static_init_8(IdentTy *, int32_t, int32_t Sched,
                                              int32_t *LastIter, int64_t *Lower,
                                              int64_t *Upper, int64_t *Stride,
                                              int64_t Incr, int64_t Chunk) {
  distributeStaticInit<int64_t, int64_t>(Sched, LastIter, Lower, Upper, Stride,
                                         Incr, Chunk);
}
OMPX_HOT void __kmpc_distribute_static_init_8u(IdentTy *, int32_t,
                                               int32_t Sched, int32_t *LastIter,
                                               uint64_t *Lower, uint64_t *Upper,
                                               int64_t *Stride, int64_t Incr,
                                               int64_t Chunk) {
  distributeStaticInit<uint64_t, int64_t>(Sched, LastIter, Lower, Upper, Stride,
                                          Incr, Chunk);
}
OMPX_HOT void __kmpc_for_static_fini(IdentTy *Loc, int32_t Gtid) {
  OMPX_FORWARD_TO_HOST(__kmpc_for_static_fini, void, (IdentTy *, int32_t), Loc,
                       Gtid);
}
OMPX_HOT void __kmpc_distribute_static_fini(IdentTy *, int32_t) {}
}
