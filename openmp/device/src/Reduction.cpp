//===- Reduction.cpp - Parallel and teams reductions ----------------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The `__kmpc_reduce` protocol (what Flang emits for the CPU device, for
// parallel, worksharing and teams reductions alike): each thread asks to
// combine its private copy; a return of 1 means "combine into the shared
// variable now, then call __kmpc_end_reduce". The lock the compiler passes is
// one global per reduction site, shared by every team, so taking it makes
// the combination safe across threads and teams.
//
//===----------------------------------------------------------------------===//

#include "Interface.h"
#include "State.h"

using namespace ompx;

extern "C" {
int32_t __kmpc_reduce(IdentTy *Loc, int32_t Gtid, int32_t NumVars, size_t Size,
                      void *Data, ReduceFnTy Fn, CriticalNameTy *Lock) {
  OMPX_FORWARD_TO_HOST(__kmpc_reduce, int32_t,
                       (IdentTy *, int32_t, int32_t, size_t, void *, ReduceFnTy,
                        CriticalNameTy *),
                       Loc, Gtid, NumVars, Size, Data, Fn, Lock);
  arch::lock(criticalWord(Lock));
  return 1;
}

int32_t __kmpc_reduce_nowait(IdentTy *Loc, int32_t Gtid, int32_t NumVars,
                             size_t Size, void *Data, ReduceFnTy Fn,
                             CriticalNameTy *Lock) {
  OMPX_FORWARD_TO_HOST(__kmpc_reduce_nowait, int32_t,
                       (IdentTy *, int32_t, int32_t, size_t, void *, ReduceFnTy,
                        CriticalNameTy *),
                       Loc, Gtid, NumVars, Size, Data, Fn, Lock);
  arch::lock(criticalWord(Lock));
  return 1;
}

void __kmpc_end_reduce(IdentTy *Loc, int32_t Gtid, CriticalNameTy *Lock) {
  OMPX_FORWARD_TO_HOST(__kmpc_end_reduce, void,
                       (IdentTy *, int32_t, CriticalNameTy *), Loc, Gtid, Lock);
  arch::unlock(criticalWord(Lock));
  // The blocking form ends with the team's barrier, as on the host: after
  // it every contribution is in the shared variable.
  teamBarrier();
}

void __kmpc_end_reduce_nowait(IdentTy *Loc, int32_t Gtid,
                              CriticalNameTy *Lock) {
  OMPX_FORWARD_TO_HOST(__kmpc_end_reduce_nowait, void,
                       (IdentTy *, int32_t, CriticalNameTy *), Loc, Gtid, Lock);
  arch::unlock(criticalWord(Lock));
}
}
