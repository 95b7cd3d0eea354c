//===- IndirectCallPlugin.cpp - The indirect-call pass as a pass plugin ---===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// <prefix>/lib/OffloadIndirectCalls.so, loadable by Debian's clang-22
// (`-fpass-plugin=`), opt-22 (`-load-pass-plugin=`) and lld (`--load-pass-
// plugin=`). It
//  * names the pass `offload-indirect-calls` (`offload-indirect-calls<force>`
//    rewrites modules that are not marked as OpenMP device code) for
//    `-passes=`;
//  * appends it to the end of every default optimisation pipeline (any -O
//    level, including -O0 and LTO pre-link), where it rewrites OpenMP device
//    modules and leaves host modules alone. Running last means the optimiser
//    has already turned every call it can prove direct into a direct call;
//  * appends it to the end of the full LTO link pipeline, for device code
//    linked as bitcode;
//  * runs the CPU device's ompx_bare kernel marker (BareKernelMarker.h,
//    `offload-bare-kernel-marker`) at the same two places: it marks kernels
//    of CPU device modules only.
//
//===----------------------------------------------------------------------===//

#include "offload/Transforms/BareKernelMarker.h"
#include "offload/Transforms/IndirectCallRewriter.h"

#include "llvm/Passes/PassBuilder.h"
#include "llvm/Plugins/PassPlugin.h"

using namespace llvm;

namespace {

bool parsePipelineElement(StringRef Name, ModulePassManager &MPM,
                          ArrayRef<PassBuilder::PipelineElement>) {
  if (Name == "offload-bare-kernel-marker") {
    MPM.addPass(offload::BareKernelMarkerPass());
    return true;
  }
  offload::IndirectCallRewriterOptions Options;
  if (Name == "offload-indirect-calls<force>")
    Options.Force = true;
  else if (Name == "offload-indirect-calls<no-vtables>")
    Options.TranslateVTables = false;
  else if (Name != "offload-indirect-calls")
    return false;
  MPM.addPass(offload::IndirectCallRewriterPass(Options));
  return true;
}

void registerCallbacks(PassBuilder &PB) {
  PB.registerPipelineParsingCallback(parsePipelineElement);
  PB.registerOptimizerLastEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel, ThinOrFullLTOPhase) {
        MPM.addPass(offload::IndirectCallRewriterPass());
        MPM.addPass(offload::BareKernelMarkerPass());
      });
  PB.registerFullLinkTimeOptimizationLastEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel) {
        MPM.addPass(offload::IndirectCallRewriterPass());
        MPM.addPass(offload::BareKernelMarkerPass());
      });
}

} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "OffloadIndirectCalls", "0.1",
          registerCallbacks};
}
