//===- BareKernelMarker.h - The CPU device's ompx_bare kernels -*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// For a CPU triple clang compiles `target teams ompx_bare num_teams(N)
// thread_limit(M)` exactly as the same construct without ompx_bare (host
// style: __kmpc_push_num_teams, __kmpc_fork_teams of the outlined region),
// so nothing in the image tells the host plugin to run the region on a
// block of threads instead of once per team. What does tell a bare kernel
// apart is that its teams region asks for its thread id, block extent,
// block id or grid extent, or synchronizes its block: the CPU device's
// <ompx.h> turns those into calls of runtime functions named
// __ompx_cpu_kernel_* (offload/include/CPUDeviceLaunch.h).
//
// This pass, for OpenMP device modules of CPU targets, gives each kernel
// whose teams region calls such a function directly or through functions
// it calls directly (a parallel region's outlined function is an argument,
// not a call, so queries inside parallel regions do not count) a constant
// global `<kernel>_ompx_bare`, which the host plugin looks up.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_TRANSFORMS_BAREKERNELMARKER_H
#define OFFLOAD_TRANSFORMS_BAREKERNELMARKER_H

#include "llvm/IR/PassManager.h"

namespace llvm {
class Module;
} // namespace llvm

namespace offload {

/// Adds the markers to \p M; returns how many kernels it marked.
unsigned markBareKernels(llvm::Module &M);

class BareKernelMarkerPass : public llvm::PassInfoMixin<BareKernelMarkerPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

} // namespace offload

#endif // OFFLOAD_TRANSFORMS_BAREKERNELMARKER_H
