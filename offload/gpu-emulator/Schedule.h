//===- Schedule.h - The order the threads of a block take turns -*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// GPUEMU_SCHEDULE picks how the scheduler of a block (SIMTExecutor.cpp)
// orders its threads:
//   in-order (default)  each round runs the runnable threads in index
//                       order, and a thread runs until it waits or yields;
//   random[:SEED]       each round runs them in a random order, and a
//                       thread may also lose its turn at any access to
//                       global or shared memory (the images' schedule
//                       points, SchedulePoints.cpp in llvm/lib/GPUEmulation),
//                       so that races and ordering bugs that a GPU's
//                       threads running side by side would show, show.
// The seed is printed once, so that a failing run can be replayed.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_GPU_EMULATOR_SCHEDULE_H
#define OFFLOAD_GPU_EMULATOR_SCHEDULE_H

#include <cstdint>

namespace gpuemu {

struct ScheduleSettings {
  bool Random = false;
  uint64_t Seed = 0;
  /// GPUEMU_WAVEFRONT_LOCKSTEP=1: AMD wavefronts' lanes rejoin after the
  /// branches around spin loops (WavefrontLockstep.cpp); off by default.
  bool WavefrontLockstep = false;
  /// Why GPUEMU_SCHEDULE is not one of the above; every launch then fails
  /// with it, so that a misspelt setting cannot quietly test nothing.
  const char *Error = nullptr;
};

/// GPUEMU_SCHEDULE, read (and in random mode the seed printed to stderr)
/// on the first call.
const ScheduleSettings &scheduleSettings();

/// The random numbers of one block's schedule (SplitMix64): a block's
/// schedule depends only on the seed, the launch's number and the block's.
struct ScheduleRandom {
  uint64_t State = 0;

  void start(uint64_t Seed, uint64_t Launch, uint64_t Block);
  uint64_t next();
  /// A number in [0, Bound).
  uint32_t below(uint32_t Bound) {
    return uint32_t((next() >> 32) * Bound >> 32);
  }
};

} // namespace gpuemu

#endif // OFFLOAD_GPU_EMULATOR_SCHEDULE_H
