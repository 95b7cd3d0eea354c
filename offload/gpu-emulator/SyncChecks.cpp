//===- SyncChecks.cpp - Synccheck: barriers and warp operations -----------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The executor lets exited threads count as arrived at a barrier, as GPUs
// since Volta do, so a barrier that only some threads of a block reach
// (one in a thread-dependent branch) completes when the others exit, and
// threads at different barriers of the same hardware id pass each other:
// the program runs on, with wrong results on a GPU. Synccheck reports the
// exit of a thread while others wait in a whole-block barrier it never
// reached; a thread that waits in a counted barrier nobody else reaches is
// the deadlock the executor reports anyway. An AMD work-group barrier
// counts wavefronts, not work-items: a lane may exit while its wavefront's
// other lanes wait. And the lanes of a warp-synchronous operation (shuffle,
// vote, syncwarp, wavefront operation) must agree on what they do and on
// the mask.
//
//===----------------------------------------------------------------------===//

#include "Checkers.h"

#include <cstdio>

namespace gpuemu {
namespace {

constexpr uint32_t AMDWavefront = 64;

std::string hex(uint64_t V) {
  char Text[24];
  snprintf(Text, sizeof(Text), "0x%llx", (unsigned long long)V);
  return Text;
}

const char *operationName(uint32_t Kind) {
  // WarpOperation::Kind: 0 syncwarp, 1.. shuffles, 16.. votes, 32 permute.
  static const char *const Shuffles[] = {"shfl.up", "shfl.down", "shfl.bfly",
                                         "shfl.idx"};
  static const char *const Votes[] = {"vote.all", "vote.any", "vote.uni",
                                      "vote.ballot"};
  if (Kind == 0)
    return "syncwarp";
  if (Kind >= 1 && Kind <= 4)
    return Shuffles[Kind - 1];
  if (Kind >= 16 && Kind <= 19)
    return Votes[Kind - 16];
  return "permute";
}

} // namespace

void checkExitBeforeBarrier(const BlockState &Block, const GPUThread &Exited) {
  for (uint32_t Id = 0; Id < NumBarriers; ++Id) {
    const HardwareBarrier &B = Block.Barriers[Id];
    if (!B.Arrived || B.Expected)
      continue;
    uint32_t Waiting = 0;
    bool SameWave = false;
    for (const GPUThread &T : Block.Threads) {
      if (T.Wait != ThreadWait::Barrier || T.BarrierId != Id)
        continue;
      ++Waiting;
      SameWave |= Block.WarpSize == AMDWavefront &&
                  Block.warpOf(T) == Block.warpOf(Exited);
    }
    if (!Waiting || SameWave)
      continue;
    reportCheck("synccheck",
                "thread " + std::to_string(Exited.Index) + " exits while " +
                    std::to_string(Waiting) +
                    " threads of its block wait in barrier " +
                    std::to_string(Id) +
                    ", which it never reached (a barrier not every thread "
                    "of the block runs: in a thread-dependent branch, or "
                    "threads at different barriers)",
                nullptr);
  }
}

void checkWarpAgreement(const BlockState &Block, uint32_t Warp,
                        uint64_t Lanes) {
  const GPUThread *Base = &Block.Threads[uint64_t(Warp) * Block.WarpSize];
  uint32_t First = uint32_t(__builtin_ctzll(Lanes));
  const WarpOperation &Op = Base[First].Op;
  for (uint32_t L = First + 1; L < Block.WarpSize; ++L) {
    if (!(Lanes >> L & 1))
      continue;
    const WarpOperation &Other = Base[L].Op;
    if (Other.Kind == Op.Kind && Other.Mask == Op.Mask)
      continue;
    reportCheck("synccheck",
                "lanes of warp " + std::to_string(Warp) +
                    " disagree in a warp-synchronous operation: lane " +
                    std::to_string(First) + " does " + operationName(Op.Kind) +
                    " with mask " + hex(Op.Mask) + ", lane " +
                    std::to_string(L) + " does " + operationName(Other.Kind) +
                    " with mask " + hex(Other.Mask),
                nullptr);
  }
}

} // namespace gpuemu
