//===- SchedulePoints.cpp - Where a random schedule may switch threads ----===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The emulator's threads of a block take turns, switching only where one
// waits or yields, so a race between them (a shared `sum += i` without a
// reduction) gives the same, usually right, answer every run. Under
// GPUEMU_SCHEDULE=random the executor may also end a thread's turn before
// any access to memory that other threads can see: the image calls
// __gpuemu_schedule_point there.
//
// Those calls are only in a copy of each function that has such accesses.
// The function itself starts by reading __gpuemu_schedule_points (set by
// the executor in random mode) and, when it is set, hands its arguments to
// the copy. The in-order schedule, the default, thus runs the code as it
// was, for one load and a branch per call rather than per access.
//
//===----------------------------------------------------------------------===//

#include "SpinLoopYield.h"
#include "offload/GPUEmulation/EmulatorABI.h"
#include "offload/GPUEmulation/HostRetarget.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <vector>

using namespace llvm;

namespace offload {
namespace gpuemu {
namespace {

/// Address spaces no other thread can see or write: AMD's private (5) and
/// the constant space (4) of both GPUs.
bool isPrivateOrConstant(unsigned AddressSpace) {
  return AddressSpace == 4 || AddressSpace == 5;
}

/// Whether another thread of the block may access what \p Ptr points to:
/// not a stack variable, a constant, a private address or the emulator's
/// per-host-thread variables (the spin-look count, AMD's launch slots).
bool mayBeShared(const Value *Ptr) {
  if (isPrivateOrConstant(Ptr->getType()->getPointerAddressSpace()))
    return false;
  const Value *Object = getUnderlyingObject(Ptr);
  if (isa<AllocaInst>(Object))
    return false;
  if (auto *G = dyn_cast<GlobalVariable>(Object))
    return !G->isConstant() && !G->isThreadLocal() &&
           !isPrivateOrConstant(G->getType()->getAddressSpace());
  return true;
}

/// The blocks of \p F's spin loops (loops that yield, SpinLoopYield.cpp).
/// Their accesses get no schedule points: the loop switches where it
/// yields, and a thread that loses its turn there, not at its yield, would
/// not count as spinning (which the executor tells waits from progress by).
SmallPtrSet<const BasicBlock *, 16> spinBlocks(Function &F) {
  SmallPtrSet<const BasicBlock *, 16> Blocks;
  if (none_of(F, callsYield))
    return Blocks;
  DominatorTree DT(F);
  LoopInfo LI(DT);
  for (const Loop *L : LI.getLoopsInPreorder())
    if (any_of(L->blocks(),
               [](const BasicBlock *BB) { return callsYield(*BB); }))
      Blocks.insert(L->block_begin(), L->block_end());
  return Blocks;
}

/// The accesses of \p F before which a random schedule may switch.
std::vector<Instruction *> sharedAccesses(Function &F) {
  std::vector<Instruction *> Accesses;
  SmallPtrSet<const BasicBlock *, 16> Spin = spinBlocks(F);
  for (Instruction &I : instructions(F)) {
    if (Spin.contains(I.getParent()))
      continue;
    const Value *Ptr = nullptr;
    if (auto *Load = dyn_cast<LoadInst>(&I)) {
      if (!Load->hasMetadata(LLVMContext::MD_invariant_load))
        Ptr = Load->getPointerOperand();
    } else if (auto *Store = dyn_cast<StoreInst>(&I)) {
      Ptr = Store->getPointerOperand();
    } else if (auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
      Ptr = RMW->getPointerOperand();
    } else if (auto *CAS = dyn_cast<AtomicCmpXchgInst>(&I)) {
      Ptr = CAS->getPointerOperand();
    }
    if (Ptr && mayBeShared(Ptr))
      Accesses.push_back(&I);
  }
  return Accesses;
}

/// Makes \p F call \p Copy with its arguments, and return what it returns,
/// when \p Flag is set: after F's static stack variables, so that they stay
/// in the entry block.
void forwardWhenSet(Function &F, Function &Copy, GlobalVariable &Flag) {
  BasicBlock &Entry = F.getEntryBlock();
  BasicBlock::iterator Split = Entry.getFirstNonPHIOrDbgOrAlloca();
  BasicBlock *Body = SplitBlock(&Entry, Split);
  Entry.getTerminator()->eraseFromParent();
  LLVMContext &Ctx = F.getContext();
  BasicBlock *Forward = BasicBlock::Create(Ctx, "schedule.points", &F, Body);
  IRBuilder<> B(&Entry);
  Value *Set =
      B.CreateICmpNE(B.CreateLoad(B.getInt32Ty(), &Flag), B.getInt32(0));
  B.CreateCondBr(Set, Forward, Body);
  B.SetInsertPoint(Forward);
  std::vector<Value *> Args;
  for (Argument &A : F.args())
    Args.push_back(&A);
  CallInst *Call = B.CreateCall(&Copy, Args);
  Call->setCallingConv(Copy.getCallingConv());
  // The verifier wants a location on a call of a function with debug info.
  if (DISubprogram *SP = F.getSubprogram())
    Call->setDebugLoc(DILocation::get(Ctx, SP->getScopeLine(), 0, SP));
  if (F.getReturnType()->isVoidTy())
    B.CreateRetVoid();
  else
    B.CreateRet(Call);
}

} // namespace

unsigned addSchedulePoints(Module &M) {
  LLVMContext &Ctx = M.getContext();
  std::vector<std::pair<Function *, std::vector<Instruction *>>> Work;
  for (Function &F : M) {
    if (F.isDeclaration() || F.isVarArg() || F.hasFnAttribute(Attribute::Naked))
      continue;
    std::vector<Instruction *> Accesses = sharedAccesses(F);
    if (!Accesses.empty())
      Work.emplace_back(&F, std::move(Accesses));
  }
  if (Work.empty())
    return 0;
  auto *Flag = cast<GlobalVariable>(
      M.getOrInsertGlobal(SchedulePointsFlag, Type::getInt32Ty(Ctx)));
  FunctionCallee Point = M.getOrInsertFunction(
      SchedulePointFunction, FunctionType::get(Type::getVoidTy(Ctx), false));
  unsigned Points = 0;
  for (auto &[F, Accesses] : Work) {
    ValueToValueMapTy Map;
    Function *Copy = CloneFunction(F, Map);
    Copy->setName(F->getName() + ".schedule_points");
    Copy->setLinkage(GlobalValue::InternalLinkage);
    Copy->setVisibility(GlobalValue::DefaultVisibility);
    // A kernel's copy is an ordinary function that the kernel calls.
    Copy->setCallingConv(CallingConv::C);
    for (Instruction *I : Accesses) {
      auto *Access = cast<Instruction>(Map[I]);
      IRBuilder<>(Access).CreateCall(Point)->setDebugLoc(Access->getDebugLoc());
      ++Points;
    }
    forwardWhenSet(*F, *Copy, *Flag);
  }
  return Points;
}

} // namespace gpuemu
} // namespace offload
