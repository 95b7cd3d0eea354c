//===- SIMTExecutor.h - Runs a grid of GPU threads on the host --*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Blocks are taken in order by host worker threads (GPUEMU_THREADS, default
// the machine's cores; 1 gives a deterministic run); each block runs its
// threads as user-level contexts (BlockState.h). A block whose threads all
// wait with none runnable is a deadlock: the launch fails naming the kernel
// and the waiting threads.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_GPU_EMULATOR_SIMTEXECUTOR_H
#define OFFLOAD_GPU_EMULATOR_SIMTEXECUTOR_H

#include "BlockState.h"

#include <cstddef>
#include <string>

namespace gpuemu {

struct LaunchConfig {
  std::string KernelName;
  void (*Entry)(void **Params) = nullptr;
  void **Params = nullptr;
  Dim3 Grid, Block;
  uint32_t WarpSize = 32;
  uint64_t StaticSharedBytes = 0;
  uint32_t DynamicSharedBytes = 0;
  size_t StackBytes = 64 * 1024;
};

struct LaunchResult {
  /// A CUDA error code; 0 on success.
  int Code = 0;
  std::string Message;
};

/// Runs every block of \p Config; returns when all have finished or one
/// failed.
LaunchResult runGrid(const LaunchConfig &Config);

} // namespace gpuemu

#endif // OFFLOAD_GPU_EMULATOR_SIMTEXECUTOR_H
