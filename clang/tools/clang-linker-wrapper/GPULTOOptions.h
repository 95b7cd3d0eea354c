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
// The pipeline is LLVM's full-LTO pipeline. Its link-time OpenMPOpt pass is
// off by default (`-openmp-opt-disable`); `--offload-opt=
// -openmp-opt-disable=false` turns it on. On, it turns generic kernels whose
// sequential part is safe on every thread into SPMD kernels and moves
// globalised locals to shared memory. It used to be unaffordable: its
// Attributor specialised each of the device runtime's 65 indirect
// region-call sites (one per argument count, InvokeRegion.inc) into a
// comparison with every outlined region of the program, and the inliner
// copied the regions into all of them (a 33-kernel solver ran >10
// CPU-minutes for gfx90a). The runtime now hides the region pointer from the
// optimizer there (hideFromOptimizer in openmp/device/src/Parallel.h), so
// the pass costs time linear in the program, and the link always takes the
// runtime entry points the pass writes calls to (GPUBitcodeLTO.cpp).
//
// It stays off by default because, on, it still breaks programs that ran
// right without it (found on the GPU emulator, not yet fixed):
//  - the pass assumes a value in memory has no writer it cannot see: the
//    device half of the host-service channel (openmp/device/gpu/
//    HostService.cpp) spins on a slot the host writes, the pass folded that
//    load, and the kernel never left the loop (test/emulator/host-files.test);
//  - the state machine it writes into generic kernels deadlocked in kernels
//    whose parallel region has a reduction (the GPU kit's device_malloc and
//    reductions, 97 threads at the region barrier). Without that rewrite
//    (-openmp-opt-disable-state-machine-rewrite) a kernel it SPMD-ises keeps
//    UseGenericStateMachine, which our runtime reads as Flang's
//    Generic-SPMD and runs in generic mode, so that is no way out.
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
