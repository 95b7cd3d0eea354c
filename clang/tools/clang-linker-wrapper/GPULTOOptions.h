//===- GPULTOOptions.h - LLVM options of the GPU LTO ------------*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The GPU device links run LLVM's LTO inside the wrapper, so LLVM's own
// command-line options (`-mllvm X` / `--offload-opt=X` given to the wrapper,
// `-Wl,--offload-opt=X` given to the driver) steer it, as upstream's device
// link forwards them to ld.lld's LTO.
//
// The pipeline is LLVM's full-LTO pipeline, link-time OpenMPOpt included:
// it turns generic kernels whose sequential part is safe on every thread
// into SPMD kernels, gives the others a state machine that calls their
// parallel regions directly, and moves globalised locals to shared memory.
// It used to be off here: its Attributor specialised each of the device
// runtime's 65 indirect region-call sites (one per argument count,
// InvokeRegion.inc) into a comparison with every outlined region of the
// program, and the inliner copied the regions into all of them (a 33-kernel
// solver ran >10 CPU-minutes for gfx90a). The runtime now hides the region
// pointer from the optimizer at those calls (hideFromOptimizer in
// openmp/device/src/Parallel.h), so the pass costs time linear in the
// program, and the link always takes the runtime entry points the pass
// writes calls to (GPUBitcodeLTO.cpp). A user can still turn it off with
// `--offload-opt=-openmp-opt-disable` (docs/LinkerWrapper.md).
//===----------------------------------------------------------------------===//

#ifndef CLANG_LINKER_WRAPPER_GPULTOOPTIONS_H
#define CLANG_LINKER_WRAPPER_GPULTOOPTIONS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace wrapper {

/// The LLVM options the GPU LTO runs with: \p UserArgs (the wrapper adds
/// none of its own).
std::vector<std::string> gpuLTOOptions(llvm::ArrayRef<std::string> UserArgs);

/// Sets gpuLTOOptions(\p UserArgs) in LLVM's option registry, once per
/// process (LLVM's options are global; every link of one wrapper run has the
/// same -mllvm values). Later calls return the first call's result. The
/// error names an option LLVM does not know.
llvm::Error applyGPULTOOptions(llvm::ArrayRef<std::string> UserArgs);

} // namespace wrapper

#endif // CLANG_LINKER_WRAPPER_GPULTOOPTIONS_H
