//===- Synchronization.cpp - Barriers, critical, single, masked, locks ----===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Debug.h"
#include "Interface.h"
#include "State.h"

using namespace ompx;

namespace {

uint32_t *lockWord(void *Lock) { return static_cast<uint32_t *>(Lock); }

} // namespace

extern "C" {
void __kmpc_barrier(IdentTy *Loc, int32_t Gtid) {
  OMPX_FORWARD_TO_HOST(__kmpc_barrier, void, (IdentTy *, int32_t), Loc, Gtid);
  teamBarrier();
}

void __kmpc_barrier_simple_spmd(IdentTy *, int32_t) {
  arch::barrier(arch::BlockBarrier, arch::numThreadsInBlock());
}

void __kmpc_barrier_simple_generic(IdentTy *, int32_t) {
  if (isSPMDMode()) {
    arch::barrier(arch::BlockBarrier, arch::numThreadsInBlock());
    return;
  }
  // The main thread and its workers; an idle thread (one that entered the
  // compiler's state machine) does not take part and is sent away by
  // __kmpc_kernel_parallel.
  GenericLayout Layout = teamLayout();
  if (genericRole(Layout, arch::threadIdInBlock()) == GenericRole::Idle)
    return;
  arch::barrier(arch::BlockBarrier, Layout.StateMachineThreads);
}

int32_t __kmpc_cancel_barrier(IdentTy *Loc, int32_t Gtid) {
  OMPX_FORWARD_TO_HOST(__kmpc_cancel_barrier, int32_t, (IdentTy *, int32_t),
                       Loc, Gtid);
  teamBarrier();
  return 0; // cancellation is not supported on the device
}

void __kmpc_flush(IdentTy *Loc) {
  OMPX_FORWARD_TO_HOST(__kmpc_flush, void, (IdentTy *), Loc);
  atomic::fence();
}

void __kmpc_critical(IdentTy *Loc, int32_t Gtid, CriticalNameTy *Name) {
  OMPX_FORWARD_TO_HOST(__kmpc_critical, void,
                       (IdentTy *, int32_t, CriticalNameTy *), Loc, Gtid, Name);
  arch::lock(criticalWord(Name));
}

void __kmpc_critical_with_hint(IdentTy *Loc, int32_t Gtid, CriticalNameTy *Name,
                               uint32_t Hint) {
  OMPX_FORWARD_TO_HOST(__kmpc_critical_with_hint, void,
                       (IdentTy *, int32_t, CriticalNameTy *, uint32_t), Loc,
                       Gtid, Name, Hint);
  arch::lock(criticalWord(Name));
}

void __kmpc_end_critical(IdentTy *Loc, int32_t Gtid, CriticalNameTy *Name) {
  OMPX_FORWARD_TO_HOST(__kmpc_end_critical, void,
                       (IdentTy *, int32_t, CriticalNameTy *), Loc, Gtid, Name);
  OMPX_ASSERT(atomic::load(criticalWord(Name)) != 0,
              "__kmpc_end_critical of a critical section nobody holds");
  arch::unlock(criticalWord(Name));
}

// `single` is run by thread 0 of the region: any one thread satisfies the
// construct, and this choice needs no shared state.
int32_t __kmpc_single(IdentTy *Loc, int32_t Gtid) {
  OMPX_FORWARD_TO_HOST(__kmpc_single, int32_t, (IdentTy *, int32_t), Loc, Gtid);
  return currentThreadNum() == 0;
}

void __kmpc_end_single(IdentTy *Loc, int32_t Gtid) {
  OMPX_FORWARD_TO_HOST(__kmpc_end_single, void, (IdentTy *, int32_t), Loc,
                       Gtid);
}

int32_t __kmpc_masked(IdentTy *Loc, int32_t Gtid, int32_t Filter) {
  OMPX_FORWARD_TO_HOST(__kmpc_masked, int32_t, (IdentTy *, int32_t, int32_t),
                       Loc, Gtid, Filter);
  return int32_t(currentThreadNum()) == Filter;
}

void __kmpc_end_masked(IdentTy *Loc, int32_t Gtid) {
  OMPX_FORWARD_TO_HOST(__kmpc_end_masked, void, (IdentTy *, int32_t), Loc,
                       Gtid);
}

int32_t __kmpc_master(IdentTy *Loc, int32_t Gtid) {
  OMPX_FORWARD_TO_HOST(__kmpc_master, int32_t, (IdentTy *, int32_t), Loc, Gtid);
  return currentThreadNum() == 0;
}

void __kmpc_end_master(IdentTy *Loc, int32_t Gtid) {
  OMPX_FORWARD_TO_HOST(__kmpc_end_master, void, (IdentTy *, int32_t), Loc,
                       Gtid);
}

// Ordered sections are not sequenced on the device (chunks may complete in
// any order); the region itself still runs.
void __kmpc_ordered(IdentTy *Loc, int32_t Gtid) {
  OMPX_FORWARD_TO_HOST(__kmpc_ordered, void, (IdentTy *, int32_t), Loc, Gtid);
}

void __kmpc_end_ordered(IdentTy *Loc, int32_t Gtid) {
  OMPX_FORWARD_TO_HOST(__kmpc_end_ordered, void, (IdentTy *, int32_t), Loc,
                       Gtid);
}

void omp_init_lock(void *Lock) {
  OMPX_FORWARD_TO_HOST(omp_init_lock, void, (void *), Lock);
  atomic::store(lockWord(Lock), 0u);
}

void omp_destroy_lock(void *Lock) {
  OMPX_FORWARD_TO_HOST(omp_destroy_lock, void, (void *), Lock);
}

void omp_set_lock(void *Lock) {
  OMPX_FORWARD_TO_HOST(omp_set_lock, void, (void *), Lock);
  arch::lock(lockWord(Lock));
}

void omp_unset_lock(void *Lock) {
  OMPX_FORWARD_TO_HOST(omp_unset_lock, void, (void *), Lock);
  OMPX_ASSERT(atomic::load(lockWord(Lock)) != 0,
              "omp_unset_lock of a lock that is not set");
  arch::unlock(lockWord(Lock));
}

int omp_test_lock(void *Lock) {
  OMPX_FORWARD_TO_HOST(omp_test_lock, int, (void *), Lock);
  return arch::tryLock(lockWord(Lock));
}
}
