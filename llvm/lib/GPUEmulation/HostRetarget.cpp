//===- HostRetarget.cpp - Retarget GPU IR to the host emulator ------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The order matters: intrinsics first (they may reference shared memory
// through their users only), then the host data layout, which the shared
// segment's offsets are computed with, then the kernels' entry points.
// Address spaces 1, 4 and 5 stay in the IR: on x86-64 every address space
// below 256 is ordinary memory and a cast between them is a no-op, which
// is what they are on the emulator.
//
//===----------------------------------------------------------------------===//

#include "offload/GPUEmulation/HostRetarget.h"
#include "offload/GPUEmulation/EmulatorABI.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

#include <memory>

using namespace llvm;

namespace offload {
namespace gpuemu {
namespace {

/// Team-shared memory (LDS on AMD GPUs) on both targets.
constexpr unsigned SharedAddressSpace = 3;

/// Functions an emulated image may leave undefined: the emulator's, and the
/// C library's memory functions that code generation calls for llvm.mem*.
bool providedAtRunTime(StringRef Name) {
  return Name.starts_with("__gpuemu_") || Name == "memcpy" ||
         Name == "memmove" || Name == "memset";
}

/// Host calling conventions, no GPU target attributes or annotations.
void dropGPUTargetDetails(Module &M) {
  for (Function &F : M) {
    F.removeFnAttr("target-cpu");
    F.removeFnAttr("target-features");
    F.removeFnAttr("tune-cpu");
    if (F.getCallingConv() == CallingConv::PTX_Device)
      F.setCallingConv(CallingConv::C);
    for (User *U : F.users())
      if (auto *Call = dyn_cast<CallBase>(U))
        Call->setCallingConv(F.getCallingConv());
  }
  for (StringRef Name : {"nvvm.annotations", "amdgpu.printf.format",
                         "amdhsa.code.object.version"})
    if (NamedMDNode *Node = M.getNamedMetadata(Name))
      M.eraseNamedMetadata(Node);
  // The plugins write kernel and device environments after loading; a
  // read-only section would fault.
  for (GlobalVariable &G : M.globals())
    if (!G.hasLocalLinkage())
      G.setConstant(false);
}

Error setHostTarget(Module &M, const Triple &Host) {
  std::string Error;
  const Target *T = TargetRegistry::lookupTarget(Host, Error);
  if (!T)
    return createStringError("no code generator for the host triple '" +
                             Host.str() + "': " + Error);
  std::unique_ptr<TargetMachine> TM(
      T->createTargetMachine(Host, "", "", TargetOptions(), Reloc::PIC_));
  M.setTargetTriple(Host);
  M.setDataLayout(TM->createDataLayout());
  return Error::success();
}

} // namespace

bool lowerEmptyAsm(CallInst &Call) {
  auto *Asm = dyn_cast<InlineAsm>(Call.getCalledOperand());
  if (!Asm || !StringRef(Asm->getAsmString()).trim().empty())
    return false;
  unsigned Outputs = 0, TiedInputs = 0, Inputs = 0;
  for (const InlineAsm::ConstraintInfo &C : Asm->ParseConstraints()) {
    if (C.Type == InlineAsm::isOutput)
      ++Outputs;
    else if (C.Type == InlineAsm::isInput) {
      ++Inputs;
      TiedInputs +=
          C.hasMatchingInput() || (C.Codes.size() == 1 && C.Codes[0] == "0");
    }
  }
  if (Outputs == 0 && Inputs == 0 && Call.getType()->isVoidTy()) {
    Call.eraseFromParent();
    return true;
  }
  if (Outputs != 1 || Inputs != 1 || TiedInputs != 1 ||
      Call.getType() != Call.getArgOperand(0)->getType())
    return false;
  Call.replaceAllUsesWith(Call.getArgOperand(0));
  Call.eraseFromParent();
  return true;
}

Error checkNoUnresolvedCalls(const Module &M) {
  for (const Function &F : M) {
    if (!F.isDeclaration() || F.isIntrinsic() || F.use_empty() ||
        providedAtRunTime(F.getName()))
      continue;
    std::string User = "?";
    if (auto *I = dyn_cast<Instruction>(*F.user_begin()))
      User = I->getFunction()->getName().str();
    return createStringError(
        "the device code calls '" + F.getName().str() + "' (from '" + User +
        "'), which nothing defines and the GPU emulator does not provide");
  }
  for (const GlobalVariable &G : M.globals())
    if (G.isDeclaration() && !G.use_empty() &&
        !providedAtRunTime(G.getName()))
      return createStringError("the device code uses the global '" +
                               G.getName().str() + "', which nothing defines");
  return Error::success();
}

Error retargetToHost(Module &M, const Triple &Host) {
  bool AMDGPU = M.getTargetTriple().isAMDGCN();
  if (!M.getTargetTriple().isNVPTX() && !AMDGPU)
    return createStringError("the GPU emulator runs nvptx64 and amdgcn "
                             "images; this module is for '" +
                             M.getTargetTriple().str() + "'");
  if (Error E = AMDGPU ? lowerAMDGPUIntrinsics(M) : lowerNVPTXIntrinsics(M))
    return E;
  addSpinLoopYields(M);
  addWavefrontRejoins(M);
  addSchedulePoints(M);
  if (Error E = checkStaticSharedMemory(M, SharedAddressSpace))
    return E;
  dropGPUTargetDetails(M);
  if (Error E = setHostTarget(M, Host))
    return E;
  addAccessChecks(M);
  if (Error E = lowerSharedMemory(M, SharedAddressSpace))
    return E;
  if (Error E = AMDGPU ? addAMDGPUKernelEntries(M) : addKernelEntries(M))
    return E;
  auto *Version = new GlobalVariable(
      M, Type::getInt32Ty(M.getContext()), /*isConstant=*/true,
      GlobalValue::ExternalLinkage,
      ConstantInt::get(Type::getInt32Ty(M.getContext()), ABIVersion),
      ABIVersionSymbol);
  Version->setVisibility(GlobalValue::DefaultVisibility);
  if (Error E = checkNoUnresolvedCalls(M))
    return E;
  std::string Broken;
  raw_string_ostream OS(Broken);
  if (verifyModule(M, &OS))
    return createStringError("the module retargeted for the GPU emulator is "
                             "invalid: " +
                             Broken);
  return Error::success();
}

} // namespace gpuemu
} // namespace offload
