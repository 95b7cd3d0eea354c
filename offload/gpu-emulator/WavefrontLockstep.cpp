//===- WavefrontLockstep.cpp - AMD wavefronts rejoining after spin loops --===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// An AMD wavefront runs its lanes in lockstep: lanes that a branch sent
// different ways run on together only from the branch's immediate
// post-dominator. Around spin loops, the amdgcn image marks such branches
// (__gpuemu_wave_enter) and their post-dominators (__gpuemu_wave_rejoin;
// llvm/lib/GPUEmulation/WavefrontRejoins.cpp). A lane reaching a rejoin
// waits there until no lane of its wavefront is still inside the branch's
// region, and the lanes that might still enter it (runnable ones that are
// not spinning) have had their turn. A lane that spins inside the region
// for a store that a waiting lane would make after the rejoin keeps both
// there for good, as on the GPU: the scheduler reports a deadlock.
//
// Only under GPUEMU_WAVEFRONT_LOCKSTEP=1. A lane held at a rejoin that no
// lane is still inside is on its way: each round's end releases it before
// it forms the EXEC masks of wavefront operations (SIMTExecutor.cpp), so
// that the wavefront's other lanes, which took no marked branch (the spin
// loops were in a function that an unmarked branch calls), wait for it
// there as on the GPU.
//
//===----------------------------------------------------------------------===//

#include "BlockState.h"
#include "Schedule.h"

#include <algorithm>

namespace gpuemu {
namespace {

bool inside(const GPUThread &T, const void *Region) {
  return std::find(T.Regions.begin(), T.Regions.end(), Region) !=
         T.Regions.end();
}

/// Releases the lanes of warp \p Warp waiting to rejoin, region by region,
/// when no lane is inside the region and every lane is settled.
bool releaseWarp(BlockState &Block, uint32_t Warp) {
  GPUThread *Base = &Block.Threads[uint64_t(Warp) * Block.WarpSize];
  uint64_t Lanes = Block.warpLanes(Warp);
  bool Waiting = false;
  for (uint32_t L = 0; L < Block.WarpSize && (Lanes >> L & 1); ++L) {
    const GPUThread &T = Base[L];
    // A runnable lane that did not end its turn spinning may be on its way
    // into a region (it has not reached the branch yet): wait for it.
    if (T.Wait == ThreadWait::None && !T.Spinning)
      return false;
    Waiting |= T.Wait == ThreadWait::Rejoin;
  }
  if (!Waiting)
    return false;
  bool Released = false;
  for (uint32_t L = 0; L < Block.WarpSize && (Lanes >> L & 1); ++L) {
    GPUThread &Waiter = Base[L];
    if (Waiter.Wait != ThreadWait::Rejoin)
      continue;
    bool Left = true;
    for (uint32_t O = 0; O < Block.WarpSize && (Lanes >> O & 1) && Left; ++O)
      Left = Base[O].Wait == ThreadWait::Exited ||
             !inside(Base[O], Waiter.RejoinAt);
    if (!Left)
      continue;
    Waiter.Wait = ThreadWait::None;
    --Block.RejoinWaiters;
    Released = true;
  }
  return Released;
}

} // namespace

bool releaseRejoinWaiters(BlockState &Block) {
  bool Released = false;
  uint32_t Warps = (Block.Threads.size() + Block.WarpSize - 1) / Block.WarpSize;
  for (uint32_t W = 0; W < Warps && Block.RejoinWaiters; ++W)
    Released |= releaseWarp(Block, W);
  return Released;
}

uint32_t maskedOffAtBarrier(const BlockState &Block, uint32_t Id) {
  uint32_t Count = 0;
  for (size_t First = 0; First < Block.Threads.size();
       First += Block.WarpSize) {
    size_t End = std::min(Block.Threads.size(), First + Block.WarpSize);
    for (size_t W = First; W < End; ++W) {
      const GPUThread &Waiter = Block.Threads[W];
      if (Waiter.Wait != ThreadWait::Rejoin)
        continue;
      for (size_t I = First; I < End; ++I) {
        const GPUThread &T = Block.Threads[I];
        if (T.Wait == ThreadWait::Barrier && T.BarrierId == Id &&
            inside(T, Waiter.RejoinAt)) {
          ++Count;
          break;
        }
      }
    }
  }
  return Count;
}

std::string describeLockstepDeadlock(const BlockState &Block) {
  std::string Waiters, Spinners;
  unsigned Waiting = 0, Spinning = 0;
  auto Add = [](std::string &List, unsigned &Count, const GPUThread &T) {
    if (Count++ < 8)
      List += (List.empty() ? "" : ", ") + std::to_string(T.Index);
    else if (Count == 9)
      List += ", ...";
  };
  for (const GPUThread &T : Block.Threads) {
    if (T.Wait == ThreadWait::Rejoin)
      Add(Waiters, Waiting, T);
    else if (T.Wait == ThreadWait::None)
      Add(Spinners, Spinning, T);
  }
  return "deadlock in block " + std::to_string(Block.Id.X) + "," +
         std::to_string(Block.Id.Y) + "," + std::to_string(Block.Id.Z) + ": " +
         (Waiting == 1 ? "thread " : "threads ") + Waiters +
         (Waiting == 1 ? " waits" : " wait") +
         " where its wavefront's paths rejoin for lanes of it that spin in a "
         "loop before that point (" +
         (Spinning == 1 ? "thread " : "threads ") + Spinners + "; " +
         std::to_string(Spinning) +
         " in all): an AMD wavefront runs its lanes in lockstep, so no lane "
         "gets past the loop while another still goes round it, and the "
         "spinning lanes wait for what only a lane past it would do";
}

} // namespace gpuemu

using namespace gpuemu;

extern "C" {

// A lane is inside a region from the first time it takes the region's
// branch to its rejoin: a branch inside a loop is taken each time round
// (with other regions' branches in between), but entered once.
__attribute__((visibility("default"))) void
__gpuemu_wave_enter(const void *Region) {
  if (!scheduleSettings().WavefrontLockstep)
    return;
  GPUThread &Self = *CurrentThread;
  if (!inside(Self, Region))
    Self.Regions.push_back(Region);
}

// Every path from a region's branch to the function's return passes its
// rejoin (its post-dominator), so a lane leaves the regions it is inside
// last entered first, but for regions that rejoin at one block.
__attribute__((visibility("default"))) void
__gpuemu_wave_rejoin(const void *Region) {
  if (!scheduleSettings().WavefrontLockstep)
    return;
  GPUThread &Self = *CurrentThread;
  auto It = std::find(Self.Regions.begin(), Self.Regions.end(), Region);
  if (It == Self.Regions.end())
    return; // it came another way, not through the branch
  Self.Regions.erase(It);
  Self.RejoinAt = Region;
  Self.Wait = ThreadWait::Rejoin;
  ++CurrentBlock->RejoinWaiters;
  recheckBarriers(*CurrentBlock);
  while (Self.Wait != ThreadWait::None)
    switchToScheduler();
}
}
