//===- DirectRegionCalls.cpp - Direct calls of hidden region pointers -----===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "offload/Transforms/DirectRegionCalls.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Pass.h"

using namespace llvm;

namespace offload {

Value *passThroughAsmOperand(Value *V) {
  auto *Call = dyn_cast<CallInst>(V);
  if (!Call || Call->arg_size() != 1)
    return nullptr;
  auto *Asm = dyn_cast<InlineAsm>(Call->getCalledOperand());
  if (!Asm || !Asm->getAsmString().empty())
    return nullptr;
  StringRef Constraints = Asm->getConstraintString();
  if (!Constraints.starts_with("=") || !Constraints.ends_with(",0") ||
      Constraints.count(',') != 1)
    return nullptr;
  return Call->getArgOperand(0);
}

namespace {

bool is64BitPointer(const DataLayout &DL, Type *T) {
  return T->isPointerTy() &&
         DL.getPointerSizeInBits(T->getPointerAddressSpace()) == 64;
}

/// Whether an argument of type \p From can be passed as \p To: the same
/// type, or a 64-bit pointer and a 64-bit integer.
bool convertible(const DataLayout &DL, Type *From, Type *To) {
  return From == To || (is64BitPointer(DL, From) && To->isIntegerTy(64)) ||
         (From->isIntegerTy(64) && is64BitPointer(DL, To));
}

/// Replaces \p Call with a direct call of \p Target; false when the
/// prototypes cannot be reconciled.
bool makeDirect(CallInst &Call, Function &Target) {
  FunctionType *Want = Target.getFunctionType();
  if (Call.getFunctionType() == Want) {
    Call.setCalledOperand(&Target);
    return true;
  }
  const DataLayout &DL = Call.getModule()->getDataLayout();
  if (Want->isVarArg() || Call.getFunctionType()->isVarArg() ||
      Want->getNumParams() != Call.arg_size() ||
      Want->getReturnType() != Call.getType())
    return false;
  for (unsigned I = 0; I < Call.arg_size(); ++I)
    if (!convertible(DL, Call.getArgOperand(I)->getType(),
                     Want->getParamType(I)))
      return false;
  IRBuilder<> Builder(&Call);
  SmallVector<Value *, 16> Args;
  for (unsigned I = 0; I < Call.arg_size(); ++I) {
    Value *Arg = Call.getArgOperand(I);
    Type *To = Want->getParamType(I);
    if (Arg->getType() != To)
      Arg = To->isPointerTy() ? Builder.CreateIntToPtr(Arg, To)
                              : Builder.CreatePtrToInt(Arg, To);
    Args.push_back(Arg);
  }
  // Only the call's function attributes carry over: a parameter attribute
  // of a pointer (nonnull, noalias) means nothing on the integer it became.
  CallInst *Direct = Builder.CreateCall(Want, &Target, Args);
  Direct->setCallingConv(Call.getCallingConv());
  Direct->setTailCallKind(Call.getTailCallKind());
  Direct->setAttributes(AttributeList::get(
      Call.getContext(), AttributeList::FunctionIndex,
      AttrBuilder(Call.getContext(), Call.getAttributes().getFnAttrs())));
  Direct->setDebugLoc(Call.getDebugLoc());
  Call.replaceAllUsesWith(Direct);
  Call.eraseFromParent();
  return true;
}

class DirectRegionCallsPass : public FunctionPass {
public:
  static char ID;
  DirectRegionCallsPass() : FunctionPass(ID) {}
  StringRef getPassName() const override {
    return "Direct calls of the device runtime's hidden region pointers";
  }
  bool runOnFunction(Function &F) override {
    return makeRegionCallsDirect(F) != 0;
  }
};
char DirectRegionCallsPass::ID = 0;

} // namespace

unsigned makeRegionCallsDirect(Function &F) {
  SmallVector<std::pair<CallInst *, Function *>, 8> Work;
  for (Instruction &I : instructions(F)) {
    auto *Call = dyn_cast<CallInst>(&I);
    if (!Call || Call->isInlineAsm() || Call->getCalledFunction())
      continue;
    Value *Hidden = passThroughAsmOperand(Call->getCalledOperand());
    if (!Hidden)
      continue;
    if (auto *Target = dyn_cast<Function>(Hidden->stripPointerCasts()))
      Work.push_back({Call, Target});
  }
  unsigned Made = 0;
  for (auto [Call, Target] : Work) {
    auto *Asm = cast<CallInst>(Call->getCalledOperand());
    if (!makeDirect(*Call, *Target))
      continue;
    ++Made;
    if (Asm->use_empty())
      Asm->eraseFromParent();
  }
  return Made;
}

FunctionPass *createDirectRegionCallsPass() {
  return new DirectRegionCallsPass();
}

} // namespace offload
