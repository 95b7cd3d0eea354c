//===- BareKernelMarker.cpp - Mark the CPU device's ompx_bare kernels -----===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "offload/Transforms/BareKernelMarker.h"
#include "offload/Transforms/IndirectCallRewriter.h"

#include "CPUDeviceLaunch.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

namespace {

/// The function \p Call calls by name, or null for an indirect call.
Function *directCallee(const CallBase &Call) {
  return dyn_cast<Function>(Call.getCalledOperand()->stripPointerCasts());
}

/// Whether \p Region, or a function it reaches through direct calls, calls
/// one of the runtime's kernel-language functions.
bool reachesKernelLanguage(Function &Region) {
  SmallVector<Function *, 8> Work{&Region};
  SmallPtrSet<Function *, 16> Seen{&Region};
  while (!Work.empty()) {
    Function *F = Work.pop_back_val();
    for (Instruction &I : instructions(*F)) {
      auto *Call = dyn_cast<CallBase>(&I);
      Function *Callee = Call ? directCallee(*Call) : nullptr;
      if (!Callee)
        continue;
      if (Callee->getName().starts_with(OMPX_CPU_KERNEL_LANGUAGE_PREFIX))
        return true;
      if (!Callee->isDeclaration() && Seen.insert(Callee).second)
        Work.push_back(Callee);
    }
  }
  return false;
}

/// Kernels are the image's exported `__omp_offloading_...` functions.
bool isKernel(const Function &F) {
  return F.getName().starts_with("__omp_offloading_") && !F.hasLocalLinkage() &&
         !F.isDeclaration();
}

void addMarker(Module &M, Function &Kernel) {
  std::string Name = (Kernel.getName() + OMPX_CPU_BARE_KERNEL_SUFFIX).str();
  if (M.getNamedGlobal(Name))
    return;
  Type *Byte = Type::getInt8Ty(M.getContext());
  auto *Marker = new GlobalVariable(M, Byte, /*isConstant=*/true,
                                    GlobalValue::WeakODRLinkage,
                                    ConstantInt::get(Byte, 1), Name);
  // Exported like the kernel, so the plugin finds it with dlsym.
  Marker->setVisibility(Kernel.getVisibility());
}

} // namespace

unsigned offload::markBareKernels(Module &M) {
  if (!M.getModuleFlag(OpenMPDeviceModuleFlag))
    return 0;
  // GPU kernels carry their mode in their kernel environment.
  Triple Target(M.getTargetTriple());
  if (Target.isNVPTX() || Target.isAMDGPU())
    return 0;
  Function *ForkTeams = M.getFunction("__kmpc_fork_teams");
  if (!ForkTeams)
    return 0;
  SmallVector<std::pair<Function *, Function *>, 8> Teams;
  for (User *U : ForkTeams->users()) {
    auto *Call = dyn_cast<CallBase>(U);
    if (!Call || directCallee(*Call) != ForkTeams || Call->arg_size() < 3)
      continue;
    auto *Region =
        dyn_cast<Function>(Call->getArgOperand(2)->stripPointerCasts());
    if (Region && isKernel(*Call->getFunction()))
      Teams.push_back({Call->getFunction(), Region});
  }
  unsigned Marked = 0;
  for (auto &[Kernel, Region] : Teams)
    if (!Region->isDeclaration() && reachesKernelLanguage(*Region)) {
      addMarker(M, *Kernel);
      ++Marked;
    }
  return Marked;
}

PreservedAnalyses offload::BareKernelMarkerPass::run(Module &M,
                                                     ModuleAnalysisManager &) {
  return markBareKernels(M) ? PreservedAnalyses::none()
                            : PreservedAnalyses::all();
}
