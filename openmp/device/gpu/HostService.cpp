//===- HostService.cpp - Device side of the host-service channel ----------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The ring lives in host memory, so every access that orders the device's
// writes with the host's reads is a system-scope atomic.
//
//===----------------------------------------------------------------------===//

#include "HostService.h"
#include "ArchConfig.h"
#include "GPUPrimitives.h"

using namespace ompx;
using namespace ompx::hostservice;

/// Written by the plugin when it loads the image (null until then, and for
/// plugins without a server).
extern "C" OMPX_EXPORTED_GLOBAL HostServiceRing *__omp_rtl_host_service =
    nullptr;

namespace {

uint64_t loadSequence(Slot *S) {
  return __scoped_atomic_load_n(&S->Header.Sequence, __ATOMIC_ACQUIRE,
                                __MEMORY_SCOPE_SYSTEM);
}

/// \p Value as the lowest active lane of \p Mask has it.
uint64_t fromFirstLane(uint64_t Mask, uint64_t Value) {
#if defined(__AMDGPU__)
  (void)Mask;
  uint32_t Low = __builtin_amdgcn_readfirstlane(uint32_t(Value));
  uint32_t High = __builtin_amdgcn_readfirstlane(uint32_t(Value >> 32));
  return uint64_t(High) << 32 | Low;
#else
  int32_t Leader = __builtin_ctzll(Mask);
  uint32_t Low =
      __nvvm_shfl_sync_idx_i32(uint32_t(Mask), uint32_t(Value), Leader, 0x1f);
  uint32_t High = __nvvm_shfl_sync_idx_i32(uint32_t(Mask),
                                           uint32_t(Value >> 32), Leader, 0x1f);
  return uint64_t(High) << 32 | Low;
#endif
}

/// The next ticket of each active lane. One atomic per warp gives the
/// warp consecutive tickets: lanes of a wavefront that wait in lockstep
/// never wait for a slot another of its lanes holds, as long as the ring
/// has at least a warp's worth of slots.
uint64_t takeTicket(HostServiceRing *Ring) {
  uint64_t Mask = gpu::activeMask();
  uint32_t Lane = gpu::laneId();
  uint64_t Below = Lane ? Mask & (~uint64_t(0) >> (64 - Lane)) : 0;
  uint64_t First = 0;
  if (Below == 0)
    First = __scoped_atomic_fetch_add(&Ring->NextTicket,
                                      uint64_t(__builtin_popcountll(Mask)),
                                      __ATOMIC_RELAXED, __MEMORY_SCOPE_SYSTEM);
  return fromFirstLane(Mask, First) + __builtin_popcountll(Below);
}

} // namespace

Request hostservice::claim(uint32_t Op) {
  Request R;
  HostServiceRing *Ring = __omp_rtl_host_service;
  if (!Ring || Ring->Magic != RingMagic || Ring->NumSlots == 0)
    return R;
  R.Ticket = takeTicket(Ring);
  R.Claimed = &Ring->Slots[R.Ticket % Ring->NumSlots];
  // The host frees the slot when it has served the ticket one round before.
  while (loadSequence(R.Claimed) != R.Ticket)
    gpu::pause();
  SlotHeader &H = R.Claimed->Header;
  H.Opcode = Op;
  H.Bytes = 0;
  H.Result = 0;
  H.Flags = 0;
  H.Thread = gpu::threadId();
  H.Block = gpu::blockId();
  return R;
}

void hostservice::submit(Request &R) {
  if (!R.Claimed)
    return;
  __scoped_atomic_store_n(&R.Claimed->Header.Sequence, R.Ticket + 1,
                          __ATOMIC_RELEASE, __MEMORY_SCOPE_SYSTEM);
  R.Claimed = nullptr;
}

uint64_t hostservice::call(Request &R, void *Reply, uint32_t ReplyBytes) {
  if (!R.Claimed)
    return ~uint64_t(0);
  Slot *S = R.Claimed;
  S->Header.Flags |= FlagAnswer;
  uint64_t Ticket = R.Ticket;
  submit(R);
  while (loadSequence(S) != Ticket + 2)
    gpu::pause();
  uint64_t Result = S->Header.Result;
  if (Reply && Result <= PayloadBytes)
    __builtin_memcpy(Reply, S->Payload,
                     Result < ReplyBytes ? uint32_t(Result) : ReplyBytes);
  HostServiceRing *Ring = __omp_rtl_host_service;
  __scoped_atomic_store_n(&S->Header.Sequence, Ticket + Ring->NumSlots,
                          __ATOMIC_RELEASE, __MEMORY_SCOPE_SYSTEM);
  return Result;
}

void hostservice::append(Request &R, const void *Data, uint32_t Bytes) {
  if (!R.Claimed)
    return;
  SlotHeader &H = R.Claimed->Header;
  if (H.Flags & FlagTruncated)
    return;
  if (Bytes > PayloadBytes - H.Bytes) {
    H.Flags |= FlagTruncated;
    return;
  }
  __builtin_memcpy(R.Claimed->Payload + H.Bytes, Data, Bytes);
  H.Bytes += Bytes;
}
