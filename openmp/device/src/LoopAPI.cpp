//===- LoopAPI.cpp - The OMPIRBuilder loop API ----------------------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// __kmpc_for_static_loop_*, __kmpc_distribute_static_loop_* and
// __kmpc_distribute_for_static_loop_*: the runtime owns the loop and calls
// the compiler's outlined body once per logical iteration 0..TripCount-1.
// Without a chunk size every participant gets one contiguous block (the
// first TripCount % N participants one iteration more); with a chunk size,
// chunks go round-robin.
//
// This file is also compiled to LLVM bitcode for the CPU device
// (libompdevice-loops.bc), which the flang shims link into CPU device
// compilations: the optimizer then inlines these loops into the kernel and
// the body into the loop, so the loop vectorizes instead of making one
// indirect call per iteration. It must therefore depend only on what the
// image's copy of the runtime exports to itself (arch::threadState,
// arch::numBlocks, arch::blockId).
//
//===----------------------------------------------------------------------===//

#include "Interface.h"
#include "LoopIterations.h"
#include "State.h"

using namespace ompx;

// In the bitcode for the compiler (OMPX_LOOP_API_BITCODE) every function
// here must inline into the kernel whatever the inliner's cost model says
// (a kernel with several loops calls an entry point from several places):
// only inlined is the body's address a constant, so the body inlines too.
#ifdef OMPX_LOOP_API_BITCODE
#define LOOP_API_INLINE __attribute__((always_inline))
#else
#define LOOP_API_INLINE
#endif

namespace {

/// Calls Visit(From, To) for each range of iterations 0..Count-1 that
/// participant \p Id of \p N owns: one contiguous block when Chunk is 0,
/// round-robin chunks else.
template <typename T, typename VisitFn>
LOOP_API_INLINE void forEachOwnRange(T Count, T N, T Id, T Chunk,
                                     VisitFn Visit) {
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
LOOP_API_INLINE void runShare(void (*Body)(T, void *), void *Arg, T Begin,
                              T End, T N, T Id, T Chunk) {
  if (End <= Begin)
    return;
  forEachOwnRange<T>(End - Begin, N, Id, Chunk,
                     [&](T From, T To) LOOP_API_INLINE {
                       for (T I = From; I < To; ++I)
                         Body(Begin + I, Arg);
                     });
}

template <typename T>
LOOP_API_INLINE void forStaticLoop(void *Body, void *Arg, T TripCount,
                                   T NumThreads, T Chunk) {
  using BodyTy = void (*)(T, void *);
  T N = NumThreads > 0 ? NumThreads : T(currentTeamSize());
  T Id = T(currentThreadNum());
  if (Id >= N)
    return;
  runShare<T>(reinterpret_cast<BodyTy>(Body), Arg, T(0), TripCount, N, Id,
              Chunk);
}

template <typename T>
LOOP_API_INLINE void distributeStaticLoop(void *Body, void *Arg, T TripCount,
                                          T BlockChunk) {
  using BodyTy = void (*)(T, void *);
  runShare<T>(reinterpret_cast<BodyTy>(Body), Arg, T(0), TripCount,
              T(arch::numBlocks()), T(arch::blockId()), BlockChunk);
}

template <typename T>
LOOP_API_INLINE void distributeForStaticLoop(void *Body, void *Arg, T TripCount,
                                             T NumThreads, T BlockChunk,
                                             T ThreadChunk) {
  using BodyTy = void (*)(T, void *);
  BodyTy Fn = reinterpret_cast<BodyTy>(Body);
  T Teams = T(arch::numBlocks());
  T Team = T(arch::blockId());
  T N = NumThreads > 0 ? NumThreads : T(currentTeamSize());
  T Id = T(currentThreadNum());
  if (Id >= N)
    return;
  // Each of the team's blocks or chunks is shared by its threads.
  forEachOwnRange<T>(TripCount, Teams, Team, BlockChunk,
                     [&](T Begin, T End) LOOP_API_INLINE {
                       runShare<T>(Fn, Arg, Begin, End, N, Id, ThreadChunk);
                     });
}
} // namespace

// Loop API. The trip count arrives in the loop's own type; the one
// iteration-per-thread hint is ignored: looping is always correct.
extern "C" {
LOOP_API_INLINE void __kmpc_for_static_loop_4(IdentTy *, void *Body, void *Arg,
                                              int32_t Trip, int32_t NumThreads,
                                              int32_t Chunk, int8_t) {
  forStaticLoop<int32_t>(Body, Arg, Trip, NumThreads, Chunk);
}
LOOP_API_INLINE void __kmpc_for_static_loop_4u(IdentTy *, void *Body, void *Arg,
                                               uint32_t Trip,
                                               uint32_t NumThreads,
                                               uint32_t Chunk, int8_t) {
  forStaticLoop<uint32_t>(Body, Arg, Trip, NumThreads, Chunk);
}
LOOP_API_INLINE void __kmpc_for_static_loop_8(IdentTy *, void *Body, void *Arg,
                                              int64_t Trip, int64_t NumThreads,
                                              int64_t Chunk, int8_t) {
  forStaticLoop<int64_t>(Body, Arg, Trip, NumThreads, Chunk);
}
LOOP_API_INLINE void __kmpc_for_static_loop_8u(IdentTy *, void *Body, void *Arg,
                                               uint64_t Trip,
                                               uint64_t NumThreads,
                                               uint64_t Chunk, int8_t) {
  forStaticLoop<uint64_t>(Body, Arg, Trip, NumThreads, Chunk);
}
LOOP_API_INLINE void __kmpc_distribute_static_loop_4(IdentTy *, void *Body,
                                                     void *Arg, int32_t Trip,
                                                     int32_t BlockChunk,
                                                     int8_t) {
  distributeStaticLoop<int32_t>(Body, Arg, Trip, BlockChunk);
}
LOOP_API_INLINE void __kmpc_distribute_static_loop_4u(IdentTy *, void *Body,
                                                      void *Arg, uint32_t Trip,
                                                      uint32_t BlockChunk,
                                                      int8_t) {
  distributeStaticLoop<uint32_t>(Body, Arg, Trip, BlockChunk);
}
LOOP_API_INLINE void __kmpc_distribute_static_loop_8(IdentTy *, void *Body,
                                                     void *Arg, int64_t Trip,
                                                     int64_t BlockChunk,
                                                     int8_t) {
  distributeStaticLoop<int64_t>(Body, Arg, Trip, BlockChunk);
}
LOOP_API_INLINE void __kmpc_distribute_static_loop_8u(IdentTy *, void *Body,
                                                      void *Arg, uint64_t Trip,
                                                      uint64_t BlockChunk,
                                                      int8_t) {
  distributeStaticLoop<uint64_t>(Body, Arg, Trip, BlockChunk);
}
LOOP_API_INLINE void __kmpc_distribute_for_static_loop_4(
    IdentTy *, void *Body, void *Arg, int32_t Trip, int32_t NumThreads,
    int32_t BlockChunk, int32_t ThreadChunk, int8_t) {
  distributeForStaticLoop<int32_t>(Body, Arg, Trip, NumThreads, BlockChunk,
                                   ThreadChunk);
}
LOOP_API_INLINE void __kmpc_distribute_for_static_loop_4u(
    IdentTy *, void *Body, void *Arg, uint32_t Trip, uint32_t NumThreads,
    uint32_t BlockChunk, uint32_t ThreadChunk, int8_t) {
  distributeForStaticLoop<uint32_t>(Body, Arg, Trip, NumThreads, BlockChunk,
                                    ThreadChunk);
}
LOOP_API_INLINE void __kmpc_distribute_for_static_loop_8(
    IdentTy *, void *Body, void *Arg, int64_t Trip, int64_t NumThreads,
    int64_t BlockChunk, int64_t ThreadChunk, int8_t) {
  distributeForStaticLoop<int64_t>(Body, Arg, Trip, NumThreads, BlockChunk,
                                   ThreadChunk);
}
LOOP_API_INLINE void __kmpc_distribute_for_static_loop_8u(
    IdentTy *, void *Body, void *Arg, uint64_t Trip, uint64_t NumThreads,
    uint64_t BlockChunk, uint64_t ThreadChunk, int8_t) {
  distributeForStaticLoop<uint64_t>(Body, Arg, Trip, NumThreads, BlockChunk,
                                    ThreadChunk);
}
}
