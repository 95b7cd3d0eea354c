//===- CPUDevice.h - Device threads and teams on the CPU --------*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A launch runs NumTeams teams of NumThreads threads. The threads come from
// a persistent pool and form NumGroups groups of NumThreads; group G runs
// teams G, G+NumGroups, ... one after another, so any number of teams runs
// on the processors there are.
//
//===----------------------------------------------------------------------===//

#ifndef OPENMP_DEVICE_ARCH_CPU_CPUDEVICE_H
#define OPENMP_DEVICE_ARCH_CPU_CPUDEVICE_H

#include "State.h"

namespace ompx {
namespace cpu {

/// A barrier for a varying number of threads: the last of Count arrivals
/// starts a new generation; waiters spin briefly, then sleep on a futex.
struct Barrier {
  uint32_t Arrived;
  uint32_t Generation;
};
void barrierWait(Barrier &B, uint32_t Count);

/// Storage of one group of threads, reused by every team the group runs.
struct Group {
  TeamState State;
  GenericWork Work;
  TeamExtras Extras;
  /// arch::BlockBarrier, arch::RegionBarrier, and the one between teams.
  Barrier Barriers[3];
  char *Scratch;
  size_t ScratchSize;
  char *DynamicShared;
  size_t DynamicSharedSize;
};

struct Launch;

/// Identity and state of one device thread.
struct DeviceThread {
  ThreadState State;
  ThreadExtras Extras;
  /// Bytes of this thread's slice of its group's scratch memory in use.
  uint16_t StackUsed;
  Group *MyGroup;
  Launch *MyLaunch;
  uint32_t ThreadId;
  uint32_t NumThreads;
  uint32_t TeamId;
  uint32_t NumTeams;
  /// In the block of an ompx_bare kernel (CPUDeviceLaunch.h, BareBlock):
  /// the thread's 3-D id and the block's extents; BareExtent[0] is 0 in
  /// every other launch.
  uint32_t BareId[3];
  uint32_t BareExtent[3];
  /// The grid of blocks of that kernel (its teams, x fastest; TeamId is the
  /// block's linear number).
  uint32_t BareGrid[3];
};

/// Name of the kernel the calling device thread runs, for messages.
const char *currentKernelName();

/// Test hook: makes arch::warpSize() answer \p WarpSize (0 or 1: the CPU's
/// own answer, 1) for launches started afterwards, so unit tests run the
/// core's generic-mode rules for lockstep warps on CPU threads. CPU threads
/// never run in lockstep, so no real launch needs it. Not thread-safe with
/// respect to running launches.
void setSimulatedWarpSizeForTesting(uint32_t WarpSize);

} // namespace cpu
} // namespace ompx

#endif // OPENMP_DEVICE_ARCH_CPU_CPUDEVICE_H
