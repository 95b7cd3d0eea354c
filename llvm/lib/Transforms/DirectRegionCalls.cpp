//===- DirectRegionCalls.cpp - Direct calls of hidden region pointers -----===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "offload/Transforms/DirectRegionCalls.h"
#include "offload/Transforms/UnreadTeamMemory.h"

#include "DeviceABI.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Pass.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"
#include "llvm/Transforms/Utils/Cloning.h"

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

/// Replaces \p Call with a direct call of \p Target and returns it; nullptr
/// when the prototypes cannot be reconciled.
CallInst *makeDirect(CallInst &Call, Function &Target) {
  FunctionType *Want = Target.getFunctionType();
  if (Call.getFunctionType() == Want) {
    Call.setCalledOperand(&Target);
    return &Call;
  }
  const DataLayout &DL = Call.getModule()->getDataLayout();
  if (Want->isVarArg() || Call.getFunctionType()->isVarArg() ||
      Want->getNumParams() != Call.arg_size() ||
      Want->getReturnType() != Call.getType())
    return nullptr;
  for (unsigned I = 0; I < Call.arg_size(); ++I)
    if (!convertible(DL, Call.getArgOperand(I)->getType(),
                     Want->getParamType(I)))
      return nullptr;
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
  return Direct;
}

/// Makes the hidden region calls of \p F direct (DirectRegionCalls.h),
/// collecting the direct calls in \p Made; returns how many it made.
unsigned makeDirectIn(Function &F, SmallVectorImpl<CallInst *> &Made) {
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
  unsigned Count = 0;
  for (auto [Call, Target] : Work) {
    auto *Asm = cast<CallInst>(Call->getCalledOperand());
    CallInst *Direct = makeDirect(*Call, *Target);
    if (!Direct)
      continue;
    ++Count;
    Made.push_back(Direct);
    if (Asm->use_empty())
      Asm->eraseFromParent();
  }
  return Count;
}

/// A region body bigger than this, called from more than one place, is
/// left a call: inlining it twice would double a large kernel's code.
constexpr unsigned MaxDuplicatedInstructions = 2000;

unsigned instructionCount(const Function &F) {
  unsigned Count = 0;
  for (const BasicBlock &BB : F)
    Count += BB.size();
  return Count;
}

bool worthInlining(const CallInst &Call, const Function &Callee) {
  if (Callee.isDeclaration() || &Callee == Call.getFunction() ||
      Callee.hasFnAttribute(Attribute::NoInline) || Callee.isVarArg())
    return false;
  return Callee.hasOneUse() ||
         instructionCount(Callee) <= MaxDuplicatedInstructions;
}

/// What the optimizer would have done after inlining, function by function:
/// the region's captures, passed by address, become registers again.
void cleanUp(ArrayRef<Function *> Functions) {
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PassBuilder PB;
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  FunctionPassManager FPM;
  FPM.addPass(SROAPass(SROAOptions::ModifyCFG));
  FPM.addPass(EarlyCSEPass(/*UseMemorySSA=*/true));
  FPM.addPass(InstCombinePass());
  FPM.addPass(SimplifyCFGPass());
  for (Function *F : Functions)
    FPM.run(*F, FAM);
}

/// The device runtime's execution-mode query (behind isSPMDMode in the
/// runtime's State.h; a function of its own, which OpenMPOpt leaves
/// noinline), and the fields of a kernel's environment (the
/// ConfigurationEnvironmentTy at its start) its answer comes from: the
/// struct's leading bytes, so their offsets are their operand numbers.
constexpr StringLiteral ModeQueryName = "__ompx_team_is_spmd";
constexpr unsigned UseGenericStateMachineField = 0;
constexpr unsigned ExecModeField = 2;
static_assert(offsetof(ompx::ConfigurationEnvironmentTy,
                       UseGenericStateMachine) == UseGenericStateMachineField &&
                  offsetof(ompx::ConfigurationEnvironmentTy, ExecMode) ==
                      ExecModeField,
              "layout of ConfigurationEnvironmentTy changed");

/// The mode the device runtime gives kernel \p K, decided from its
/// environment as __kmpc_target_init decides it (Kernel.cpp, isSPMDMode):
/// SPMD mode bit set, and not Flang's "Generic-SPMD" that still asks for the
/// state machine. std::nullopt when \p K is not a kernel with a constant
/// environment.
std::optional<bool> runsInSPMDMode(const Function &K) {
  const Module &M = *K.getParent();
  const GlobalVariable *Env =
      M.getNamedGlobal((K.getName() + "_kernel_environment").str());
  if (!Env || !Env->isConstant() || !Env->hasDefinitiveInitializer())
    return std::nullopt;
  auto *Kernel = dyn_cast<ConstantStruct>(Env->getInitializer());
  auto *Config = Kernel ? dyn_cast<ConstantStruct>(Kernel->getOperand(0))
                        : nullptr;
  if (!Config || Config->getNumOperands() <= ExecModeField)
    return std::nullopt;
  auto *UseStateMachine =
      dyn_cast<ConstantInt>(Config->getOperand(UseGenericStateMachineField));
  auto *Mode = dyn_cast<ConstantInt>(Config->getOperand(ExecModeField));
  if (!UseStateMachine || !Mode)
    return std::nullopt;
  uint64_t Bits = Mode->getZExtValue();
  if (!(Bits & ompx::ExecModeSPMD))
    return false;
  return Bits != ompx::ExecModeGenericSPMD || UseStateMachine->isZero();
}

/// Folds the mode query in every kernel with a known mode and inlines the
/// calls left; adds the functions it changed to \p Changed.
unsigned foldModeQueries(Module &M, SetVector<Function *> &Changed) {
  Function *Query = M.getFunction(ModeQueryName);
  if (!Query || Query->isDeclaration())
    return 0;
  SmallVector<CallInst *, 16> Calls;
  for (User *U : Query->users())
    if (auto *Call = dyn_cast<CallInst>(U))
      if (Call->getCalledFunction() == Query)
        Calls.push_back(Call);
  unsigned Folded = 0;
  for (CallInst *Call : Calls) {
    Function *Caller = Call->getFunction();
    if (std::optional<bool> SPMD = runsInSPMDMode(*Caller)) {
      Call->replaceAllUsesWith(ConstantInt::get(Call->getType(), *SPMD));
      Call->eraseFromParent();
      ++Folded;
    } else {
      InlineFunctionInfo IFI;
      if (!InlineFunction(*Call, IFI).isSuccess())
        continue;
    }
    Changed.insert(Caller);
  }
  return Folded;
}

class DirectRegionCallsPass : public ModulePass {
public:
  static char ID;
  DirectRegionCallsPass() : ModulePass(ID) {}
  StringRef getPassName() const override {
    return "Direct, inlined calls of the device runtime's hidden region "
           "pointers";
  }
  bool runOnModule(Module &M) override {
    return makeRegionCallsDirectAndInline(M).changedModule();
  }
};
char DirectRegionCallsPass::ID = 0;

} // namespace

DirectRegionCallStats makeRegionCallsDirectAndInline(Module &M) {
  DirectRegionCallStats Stats;
  SmallVector<CallInst *, 16> Made;
  for (Function &F : M)
    if (!F.isDeclaration())
      Stats.Direct += makeDirectIn(F, Made);
  // Every call of a function that was behind a hidden pointer is inlined,
  // not only the calls made direct here: inlining a region into its kernel
  // copies the region's own (already direct) calls of the reduction helpers
  // into the kernel. An inlined body may also hold hidden calls of its own
  // (a nested region's), which become direct in the caller; so this repeats
  // until nothing changes.
  SetVector<Function *> Targets, Callers;
  for (CallInst *Call : Made)
    Targets.insert(Call->getCalledFunction());
  for (unsigned Round = 0; Round < 8; ++Round) {
    SmallVector<CallInst *, 16> Work;
    for (Function *Target : Targets)
      for (User *U : Target->users())
        if (auto *Call = dyn_cast<CallInst>(U))
          if (Call->getCalledFunction() == Target)
            Work.push_back(Call);
    bool Changed = false;
    for (CallInst *Call : Work) {
      Function *Callee = Call->getCalledFunction();
      Function *Caller = Call->getFunction();
      if (!worthInlining(*Call, *Callee))
        continue;
      InlineFunctionInfo IFI;
      if (!InlineFunction(*Call, IFI).isSuccess())
        continue;
      ++Stats.Inlined;
      Changed = true;
      Callers.insert(Caller);
      SmallVector<CallInst *, 4> Exposed;
      Stats.Direct += makeDirectIn(*Caller, Exposed);
      for (CallInst *Direct : Exposed)
        Targets.insert(Direct->getCalledFunction());
    }
    if (!Changed)
      break;
  }
  // A region function nothing calls any more goes, and is not cleaned up.
  SmallVector<Function *, 16> Dead;
  for (Function *F : Targets)
    if (F->hasLocalLinkage() && F->use_empty())
      Dead.push_back(F);
  for (Function *F : Dead)
    Callers.remove(F);
  Stats.FoldedModeQueries = foldModeQueries(M, Callers);
  cleanUp(Callers.getArrayRef());
  for (Function *F : Dead)
    F->eraseFromParent();
  // Last: the cleanup has removed what folded branches left unreachable,
  // which may have been a kernel's only reads of the runtime's team state.
  Stats.RemovedTeamMemoryStores = removeUnreadTeamMemoryStores(M);
  return Stats;
}

ModulePass *createDirectRegionCallsPass() {
  return new DirectRegionCallsPass();
}

} // namespace offload
