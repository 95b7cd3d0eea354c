//===- CPUInPlace.cpp - Host-style kernels run inside a host team ---------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A host-style kernel (clang's C/C++ code for the CPU device, which asks the
// host's libomp who it is) launched by a thread of an active host parallel
// region runs here, on the launching thread, as on upstream's runtime. Every
// other way costs a hand-off to another thread per kernel while the host
// team's idle threads keep spinning for the cores (docs/Benchmarks.md,
// launch patterns). The region must still see the device's initial thread:
//  * it runs inside a serialized parallel region of libomp's, a team of one
//    of which the launching thread is thread 0: omp_get_thread_num() and
//    omp_get_num_threads() answer 0 and 1, and a barrier, `single` or
//    worksharing loop in the region binds to that team, not the host's;
//  * libomp still counts the host's levels, so the level queries
//    (omp_get_level, omp_get_active_level, omp_in_parallel, and the level
//    argument of omp_get_ancestor_thread_num and omp_get_team_size) answer
//    relative to the start of the region (DeviceAPI.cpp, through
//    arch::inPlaceHostNesting).
// The kernel's own `teams` and `parallel` are nested in the host's active
// region, which libomp serializes unless max-active-levels allows more: the
// device team has one thread, as upstream's has. Only then does this run a
// kernel: threads of an active nested team would answer the level queries
// from libomp unadjusted (the base is the launching thread's), so the
// plugin hands such launches to a thread of its own.
//
//===----------------------------------------------------------------------===//

#include "CPUDevice.h"
#include "CPUDeviceLaunch.h"
#include "DeviceRuntime.h"

using namespace ompx;

namespace {

using GlobalThreadNumFn = int32_t (*)(IdentTy *);
using SerializedParallelFn = void (*)(IdentTy *, int32_t);
using LevelQueryFn = int (*)();

/// The source location libomp records for the region (KMP_IDENT_KMPC).
IdentTy InPlaceLocation = {0, 0x2, 0, 0, ";unknown;unknown;0;0;;"};

} // namespace

namespace ompx {
namespace arch {
__thread HostNestingBase InPlaceHostNesting;
} // namespace arch
} // namespace ompx

extern "C" __attribute__((visibility("default"))) int
__ompx_cpu_run_in_place(ompx_cpu_in_place_body_t Body, void *Context) {
  // Null on device threads (they answer from the runtime's own state and
  // never reach libomp; no plugin sends their kernels here) and where
  // libomp lacks one.
  auto GlobalThreadNum =
      OMPX_HOST_FUNCTION(__kmpc_global_thread_num, GlobalThreadNumFn);
  auto Begin =
      OMPX_HOST_FUNCTION(__kmpc_serialized_parallel, SerializedParallelFn);
  auto End =
      OMPX_HOST_FUNCTION(__kmpc_end_serialized_parallel, SerializedParallelFn);
  auto Level = OMPX_HOST_FUNCTION(omp_get_level, LevelQueryFn);
  auto ActiveLevel = OMPX_HOST_FUNCTION(omp_get_active_level, LevelQueryFn);
  auto MaxActiveLevels =
      OMPX_HOST_FUNCTION(omp_get_max_active_levels, LevelQueryFn);
  if (!GlobalThreadNum || !Begin || !End || !Level || !ActiveLevel ||
      !MaxActiveLevels || ActiveLevel() < MaxActiveLevels())
    return 1;
  int32_t Gtid = GlobalThreadNum(&InPlaceLocation);
  Begin(&InPlaceLocation, Gtid);
  arch::HostNestingBase Outer = arch::InPlaceHostNesting;
  arch::InPlaceHostNesting = {true, Level(), ActiveLevel()};
  Body(Context);
  arch::InPlaceHostNesting = Outer;
  End(&InPlaceLocation, Gtid);
  return 0;
}
