//===- GPUKernelLanguage.cpp - The ompx kernel language on GPUs -----------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The functions clang-22's <ompx.h> declares for GPU targets: 3-D thread and
// block ids and sizes, block barriers, warp ballots and shuffles. User code
// calls them in `ompx_bare` kernels (which never run __kmpc_target_init, so
// nothing here may use the runtime's team or thread state) and in ordinary
// target regions alike. The header defines the _x/_y/_z forms inline over
// these, and its own host fallbacks for CPU targets, so the CPU device needs
// none of them.
//
// Names and signatures are the header's: C linkage, `int` dimensions and
// orderings (the __ATOMIC_* values), 64-bit lane masks.
//
//===----------------------------------------------------------------------===//

#include "GPUPrimitives.h"

using namespace ompx;

namespace {

/// A team-scope fence with the ordering of an __ATOMIC_* value (the fence
/// builtin wants a constant).
void fenceTeam(int Ordering) {
  switch (Ordering) {
  case __ATOMIC_ACQUIRE:
    __scoped_atomic_thread_fence(__ATOMIC_ACQUIRE, __MEMORY_SCOPE_WRKGRP);
    break;
  case __ATOMIC_RELEASE:
    __scoped_atomic_thread_fence(__ATOMIC_RELEASE, __MEMORY_SCOPE_WRKGRP);
    break;
  case __ATOMIC_ACQ_REL:
    __scoped_atomic_thread_fence(__ATOMIC_ACQ_REL, __MEMORY_SCOPE_WRKGRP);
    break;
  case __ATOMIC_SEQ_CST:
    __scoped_atomic_thread_fence(__ATOMIC_SEQ_CST, __MEMORY_SCOPE_WRKGRP);
    break;
  default: // relaxed: the barrier alone
    break;
  }
}

/// Hardware barrier 0 over the whole block, as CUDA's __syncthreads: the
/// same barrier as the runtime's whole-block barriers (GPUArch.cpp), as in
/// upstream's runtime.
void syncBlock(int Ordering) {
  fenceTeam(Ordering);
  gpu::blockBarrier(0);
  fenceTeam(Ordering);
}

/// A shuffle width the hardware accepts: a power of two up to the warp size
/// (the header's C++ API passes the warp size; C callers pass their own).
uint32_t shuffleWidth(int Width) {
  uint32_t Warp = gpu::warpSize();
  if (Width <= 0 || uint32_t(Width) > Warp)
    return Warp;
  uint32_t PowerOfTwo = 1;
  while (PowerOfTwo * 2 <= uint32_t(Width))
    PowerOfTwo *= 2;
  return PowerOfTwo;
}

/// 64-bit values travel as two 32-bit halves.
uint64_t shuffleDown64(uint64_t Mask, uint64_t Value, uint32_t Delta,
                       uint32_t Width) {
  uint32_t Low =
      uint32_t(gpu::shuffleDown(Mask, int32_t(uint32_t(Value)), Delta, Width));
  uint32_t High = uint32_t(
      gpu::shuffleDown(Mask, int32_t(uint32_t(Value >> 32)), Delta, Width));
  return (uint64_t(High) << 32) | Low;
}

} // namespace

extern "C" {

int ompx_thread_id(int Dim) { return int(gpu::threadId(Dim)); }
int ompx_block_dim(int Dim) { return int(gpu::blockSize(Dim)); }
int ompx_block_id(int Dim) { return int(gpu::blockId(Dim)); }
int ompx_grid_dim(int Dim) { return int(gpu::gridSize(Dim)); }

void ompx_sync_block(int Ordering) { syncBlock(Ordering); }
void ompx_sync_block_acq_rel() { syncBlock(__ATOMIC_ACQ_REL); }
// Our block barrier is the non-aligned form (NVPTX barrier.sync, AMD
// s_barrier with every wavefront arriving once), which threads may reach
// from different points of the code, as long as all of them arrive.
void ompx_sync_block_divergent(int Ordering) { syncBlock(Ordering); }

uint64_t ompx_ballot_sync(uint64_t Mask, int Predicate) {
  return gpu::ballot(Mask, Predicate != 0);
}

int ompx_shfl_down_sync_i(uint64_t Mask, int Value, unsigned Delta, int Width) {
  return gpu::shuffleDown(Mask, Value, Delta, shuffleWidth(Width));
}

float ompx_shfl_down_sync_f(uint64_t Mask, float Value, unsigned Delta,
                            int Width) {
  int32_t Bits = __builtin_bit_cast(int32_t, Value);
  return __builtin_bit_cast(
      float, gpu::shuffleDown(Mask, Bits, Delta, shuffleWidth(Width)));
}

long ompx_shfl_down_sync_l(uint64_t Mask, long Value, unsigned Delta,
                           int Width) {
  return long(shuffleDown64(Mask, uint64_t(Value), Delta, shuffleWidth(Width)));
}

double ompx_shfl_down_sync_d(uint64_t Mask, double Value, unsigned Delta,
                             int Width) {
  uint64_t Bits = __builtin_bit_cast(uint64_t, Value);
  return __builtin_bit_cast(
      double, shuffleDown64(Mask, Bits, Delta, shuffleWidth(Width)));
}
}
