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
// The pipeline is LLVM's full-LTO pipeline, link-time OpenMPOpt included,
// as upstream's device link runs it, for NVIDIA and AMD GPUs alike
// (`--offload-opt=-openmp-opt-disable` turns the pass off). Seeing the
// whole program with the device runtime, it
// turns generic kernels whose sequential part is safe on every thread into
// SPMD kernels, writes a state machine of its own into the other generic
// kernels (direct calls of their parallel regions), and moves globalised
// locals to shared memory. What it needs of the rest of the toolchain:
//  - time linear in the program: the device runtime hides the region
//    pointer from the optimizer at its 65 region-call sites
//    (hideFromOptimizer in openmp/device/src/Parallel.h); the Attributor
//    once compared each site with every region of the program and the
//    inliner copied the regions into all of them (a 33-kernel solver ran
//    >10 CPU-minutes for gfx90a);
//  - the runtime entry points the code it writes calls, which the link
//    always takes (GPUBitcodeLTO.cpp);
//  - launches no larger than the kernel's compiled block bound: the pass
//    folds the block size its state machine reads to the kernel's
//    thread_limit (the CUDA driver refuses larger blocks and the CUDA
//    plugin caps by it; the GPU emulator once did not, and the state
//    machine deadlocked);
//  - its state-machine rewrite when it SPMD-ises: that rewrite is what
//    clears an SPMD-ised kernel's UseGenericStateMachine, and a kernel left
//    with it runs in generic mode (our runtime's reading of Flang's
//    Generic-SPMD) and computes a wrong result. So
//    `-openmp-opt-disable-state-machine-rewrite` also turns SPMD-isation
//    off, unless the user sets `-openmp-opt-disable-spmdization` explicitly;
//  - a device runtime whose spin loops read memory it wrote first: its
//    Attributor takes a loop comparing reads of never-written team-shared
//    memory as endless and deletes it (the software barrier, which AMD
//    region barriers use, until __kmpc_target_init initialised it).
//===----------------------------------------------------------------------===//

#ifndef CLANG_LINKER_WRAPPER_GPULTOOPTIONS_H
#define CLANG_LINKER_WRAPPER_GPULTOOPTIONS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace wrapper {

/// The LLVM options the GPU LTO runs with: \p UserArgs, plus
/// `-openmp-opt-disable-spmdization` when they turn OpenMPOpt's
/// state-machine rewrite off without saying anything of SPMD-isation.
std::vector<std::string> gpuLTOOptions(llvm::ArrayRef<std::string> UserArgs);

/// Sets gpuLTOOptions(\p UserArgs) in LLVM's option registry, once per
/// process (LLVM's options are global; every link of one wrapper run has the
/// same -mllvm values). Later calls return the first call's result. The
/// error names an option LLVM does not know.
llvm::Error applyGPULTOOptions(llvm::ArrayRef<std::string> UserArgs);

} // namespace wrapper

#endif // CLANG_LINKER_WRAPPER_GPULTOOPTIONS_H
