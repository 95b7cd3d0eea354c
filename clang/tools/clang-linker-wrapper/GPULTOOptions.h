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
// On top of LLVM's defaults the wrapper turns the link-time OpenMPOpt pass
// off (`-openmp-opt-disable`). With our device runtime its Attributor does
// not settle on programs with more than a few kernels, and what it does
// reach is harmful: it specialises each of the runtime's 65 indirect calls
// that start a parallel region (callRegion, openmp/device/src/Parallel.cpp)
// into a comparison with every outlined region of the program, and the
// inliner then copies every region into that one function (TeaLeaf: a
// 37,850-line function, >10 CPU-minutes in the AMDGPU backend). Bounding
// its iterations (`-openmp-opt-max-iterations=32`) does not stop that. The
// kernel modes (SPMD, generic with or without the generic state machine)
// are chosen by clang and Flang when they compile each translation unit;
// the link-time pass changed none of them in our measurements (docs/GPU.md).
// A user can turn it back on with `--offload-opt=-openmp-opt-disable=false`.
//===----------------------------------------------------------------------===//

#ifndef CLANG_LINKER_WRAPPER_GPULTOOPTIONS_H
#define CLANG_LINKER_WRAPPER_GPULTOOPTIONS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace wrapper {

/// The LLVM options the GPU LTO runs with: the wrapper's defaults, then
/// \p UserArgs (which therefore win).
std::vector<std::string> gpuLTOOptions(llvm::ArrayRef<std::string> UserArgs);

/// Sets gpuLTOOptions(\p UserArgs) in LLVM's option registry, once per
/// process (LLVM's options are global; every link of one wrapper run has the
/// same -mllvm values). Later calls return the first call's result. The
/// error names an option LLVM does not know.
llvm::Error applyGPULTOOptions(llvm::ArrayRef<std::string> UserArgs);

} // namespace wrapper

#endif // CLANG_LINKER_WRAPPER_GPULTOOPTIONS_H
