//===- SharedMemoryLimits.cpp - Static shared memory per kernel -----------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A GPU's link counts, for each kernel, the team-shared (LDS) variables the
// kernel can reach and refuses a kernel whose total is over the
// architecture's limit: nvlink for sm_90 (48 KiB of static shared memory),
// the AMDGPU code generator for gfx90a (64 KiB of LDS). The emulator lays
// every shared variable of the image out in one segment, which would hide
// such a kernel, so the same count and the same refusal happen here, in
// the tools' words. Each kernel's count is also exported, for the drivers'
// launch checks (static plus dynamic shared memory against the per-block
// limit).
//
// A kernel reaches the functions it calls and those whose address any
// reached function takes (a parallel region's outlined function, which the
// runtime calls through a pointer); variables are counted once each, at
// their alignment, as the segment lays them out.
//
//===----------------------------------------------------------------------===//

#include "offload/GPUEmulation/EmulatorABI.h"
#include "offload/GPUEmulation/HostRetarget.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace offload {
namespace gpuemu {
namespace {

/// Static shared memory a kernel may use: nvlink's limit for sm_90, the
/// AMDGPU backend's LDS limit for gfx90a.
constexpr uint64_t NVPTXStaticSharedLimit = 0xc000;
constexpr uint64_t AMDGPULocalMemoryLimit = 65536;

/// The functions and shared variables \p Kernel can reach.
class Reach {
public:
  Reach(Function &Kernel, unsigned SharedAddressSpace)
      : SharedAddressSpace(SharedAddressSpace) {
    Functions.insert(&Kernel);
    // Functions.size() grows as the walk finds more.
    for (size_t I = 0; I < Functions.size(); ++I)
      for (Instruction &Inst : instructions(*Functions[I]))
        for (Value *Operand : Inst.operands())
          visit(Operand);
  }

  SmallSetVector<GlobalVariable *, 16> Shared;

private:
  void visit(Value *V) {
    if (auto *F = dyn_cast<Function>(V)) {
      if (!F->isDeclaration())
        Functions.insert(F);
      return;
    }
    auto *C = dyn_cast<Constant>(V);
    if (!C || !Seen.insert(C).second)
      return;
    if (auto *G = dyn_cast<GlobalVariable>(C)) {
      if (G->getAddressSpace() == SharedAddressSpace) {
        if (!G->isDeclaration())
          Shared.insert(G);
      } else if (G->hasInitializer()) {
        // A table of function pointers (a vtable) makes its functions
        // callable.
        visit(G->getInitializer());
      }
      return;
    }
    for (Value *Operand : C->operands())
      visit(Operand);
  }

  unsigned SharedAddressSpace;
  SmallSetVector<Function *, 32> Functions;
  SmallPtrSet<Constant *, 32> Seen;
};

uint64_t sharedBytes(const SmallSetVector<GlobalVariable *, 16> &Shared,
                     const DataLayout &DL) {
  uint64_t Bytes = 0;
  for (GlobalVariable *G : Shared) {
    uint64_t Align =
        std::max<uint64_t>(G->getAlign().valueOrOne().value(),
                           DL.getABITypeAlign(G->getValueType()).value());
    Bytes = alignTo(Bytes, Align) + DL.getTypeAllocSize(G->getValueType());
  }
  return Bytes;
}

std::string tooMuch(const Function &Kernel, uint64_t Bytes, bool AMDGPU) {
  std::string Message;
  raw_string_ostream OS(Message);
  if (AMDGPU)
    OS << "local memory (" << Bytes << ") exceeds limit ("
       << AMDGPULocalMemoryLimit << ") in function '" << Kernel.getName()
       << "'";
  else
    OS << "nvlink error   : Entry function '" << Kernel.getName()
       << "' uses too much shared data (" << format_hex(Bytes, 0) << " bytes, "
       << format_hex(NVPTXStaticSharedLimit, 0) << " max)";
  return Message;
}

} // namespace

Error checkStaticSharedMemory(Module &M, unsigned SharedAddressSpace) {
  bool AMDGPU = M.getTargetTriple().isAMDGCN();
  CallingConv::ID KernelConv =
      AMDGPU ? CallingConv::AMDGPU_KERNEL : CallingConv::PTX_Kernel;
  uint64_t Limit = AMDGPU ? AMDGPULocalMemoryLimit : NVPTXStaticSharedLimit;
  std::vector<Function *> Kernels;
  for (Function &F : M)
    if (!F.isDeclaration() && F.getCallingConv() == KernelConv)
      Kernels.push_back(&F);
  Type *I64 = Type::getInt64Ty(M.getContext());
  for (Function *Kernel : Kernels) {
    uint64_t Bytes = sharedBytes(Reach(*Kernel, SharedAddressSpace).Shared,
                                 M.getDataLayout());
    if (Bytes > Limit)
      return createStringError(tooMuch(*Kernel, Bytes, AMDGPU));
    auto *Size = new GlobalVariable(
        M, I64, /*isConstant=*/true, GlobalValue::ExternalLinkage,
        ConstantInt::get(I64, Bytes),
        KernelSharedSizePrefix + Kernel->getName().str());
    Size->setVisibility(GlobalValue::DefaultVisibility);
  }
  return Error::success();
}

} // namespace gpuemu
} // namespace offload
