//===- CPUBareKernel.cpp - ompx_bare kernels compiled host style ----------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Clang compiles a C/C++ `target teams ompx_bare` region for a CPU triple as
// a host-style kernel: __kmpc_push_num_teams, then __kmpc_fork_teams of the
// outlined region, in which <ompx.h>'s host fallbacks ask for thread ids and
// block extents with omp_get_ancestor_thread_num / omp_get_team_size and
// synchronize with `omp barrier`. The host plugin runs such a kernel on
// blocks of our device threads (CPUDeviceLaunch.h, BareBlock), each of which
// calls the kernel; here those threads run the region themselves instead of
// forking teams in libomp. Every other caller (host-style kernels on the
// plugin's initial threads) goes on to libomp.
//
// The CPU device's <ompx.h> (wrappers/ompx.h) sends device code's grid
// queries and ompx_sync_block here (__ompx_cpu_kernel_*). The plugin runs
// every block of the kernel's num_teams(x,y,z) grid, each as a team, and
// these answer with the block's place in it; outside a bare block they
// answer as clang's host fallbacks do (block 0 of a grid of one). That
// these functions are called is what marks a kernel as bare at
// compile time (CPUDeviceLaunch.h).
//
//===----------------------------------------------------------------------===//

#include "CPUDevice.h"
#include "DeviceRuntime.h"
#include "Parallel.h"

#include <stdarg.h>

using namespace ompx;

#include "InvokeRegion.inc"

namespace {

using ForkTeamsFn = void (*)(IdentTy *, int32_t, void *, ...);

/// Calls libomp's variadic __kmpc_fork_teams with the N captured variables
/// of \p Args, N being the length of the index list.
template <uint64_t... Is>
void forwardWith(ForkTeamsFn Host, IdentTy *Loc, void *Microtask, void **Args,
                 invoke_region::IndexList<Is...>) {
  Host(Loc, int32_t(sizeof...(Is)), Microtask, Args[Is]...);
}

template <uint64_t... Counts>
bool forwardToHost(ForkTeamsFn Host, IdentTy *Loc, void *Microtask, void **Args,
                   uint64_t NumArgs, invoke_region::IndexList<Counts...>) {
  return (
      (NumArgs == Counts && (forwardWith(Host, Loc, Microtask, Args,
                                         invoke_region::IndicesUpTo<Counts>{}),
                             true)) ||
      ...);
}

} // namespace

extern "C" void __kmpc_push_num_teams(IdentTy *Loc, int32_t Gtid,
                                      int32_t NumTeams, int32_t NumThreads) {
  OMPX_FORWARD_TO_HOST(__kmpc_push_num_teams, void,
                       (IdentTy *, int32_t, int32_t, int32_t), Loc, Gtid,
                       NumTeams, NumThreads);
  // On a device thread the launch itself is the league: nothing to keep.
}

extern "C" void __kmpc_fork_teams(IdentTy *Loc, int32_t Argc, void *Microtask,
                                  ...) {
  void *Args[MaxRegionArgs];
  if (Argc < 0 || uint64_t(Argc) > MaxRegionArgs)
    arch::fatal("teams region captures more variables than the device "
                "runtime supports (64)");
  va_list List;
  va_start(List, Microtask);
  for (int32_t I = 0; I < Argc; ++I)
    Args[I] = va_arg(List, void *);
  va_end(List);
  if (!arch::isDeviceThread()) {
    ForkTeamsFn Host = OMPX_HOST_FUNCTION(__kmpc_fork_teams, ForkTeamsFn);
    if (!Host)
      arch::fatal("a host-style teams region needs the host OpenMP runtime "
                  "(libomp), which is not loaded");
    forwardToHost(Host, Loc, Microtask, Args, uint64_t(Argc),
                  invoke_region::IndicesUpTo<MaxRegionArgs + 1>{});
    return;
  }
  uint32_t Id, Extent;
  if (!arch::bareThreadIdentity(0, Id, Extent))
    arch::fatal("__kmpc_fork_teams on a device thread outside an ompx_bare "
                "kernel");
  int32_t Gtid = __kmpc_global_thread_num(Loc);
  int32_t Zero = 0;
  invokeRegion(Microtask, &Gtid, &Zero, Args, uint64_t(Argc));
}

namespace {

/// Where ompx_sync_block's barrier is attributed in libomp's tools.
IdentTy SyncBlockLoc = {0, 2, 0, 0, ";unknown;ompx_sync_block;0;0;;"};

} // namespace

extern "C" {

int __ompx_cpu_kernel_thread_id(int Dim) {
  return omp_get_ancestor_thread_num(Dim + 1);
}
int __ompx_cpu_kernel_block_dim(int Dim) { return omp_get_team_size(Dim + 1); }
int __ompx_cpu_kernel_block_id(int Dim) {
  uint32_t Id, Extent;
  return arch::bareBlockIdentity(Dim, Id, Extent) ? int(Id) : 0;
}
int __ompx_cpu_kernel_grid_dim(int Dim) {
  uint32_t Id, Extent;
  return arch::bareBlockIdentity(Dim, Id, Extent) ? int(Extent) : 1;
}

void __ompx_cpu_kernel_sync_block(int) {
  // Every ordering gets the barrier's acquire-release.
  __kmpc_barrier(&SyncBlockLoc, __kmpc_global_thread_num(&SyncBlockLoc));
}

} // extern "C"
