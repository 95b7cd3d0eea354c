//===- SpinLoopYield.cpp - Let spin loops yield on the emulator -----------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The emulator runs one thread of a block at a time and switches only where
// a thread waits or yields. A GPU runs the threads of a block side by side,
// so device code may wait for another thread by re-reading memory in a loop:
//
//   while (!flag) { #pragma omp atomic read  flag = Ready; }
//
// Such a loop needs no nanosleep on a GPU, but on the emulator it would
// spin forever when the writer has not had its turn yet. A look that can
// see another thread's write is an atomic or volatile load, a
// compare-and-swap or other atomic update (a lock's `while (CAS(&L, 0, 1))`),
// or a fence (after `#pragma omp flush`, or PTX's `fence.sc`, a plain load
// is read afresh; `while (!flag) { #pragma omp flush }` completes on a GPU).
// A plain load with no fence in its loop may be hoisted out of the loop on
// a GPU too, and is not a look. After each look inside a loop the image
// counts it and calls __gpuemu_yield every LooksPerYield looks, which lets
// the writer run. Looks outside loops, and loops that already wait or yield
// somewhere (a call that may reach a barrier, a warp operation or a yield)
// are left as they are.
//
//===----------------------------------------------------------------------===//

#include "SpinLoopYield.h"
#include "offload/GPUEmulation/HostRetarget.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#include <vector>

using namespace llvm;

namespace offload {
namespace gpuemu {
namespace {

/// Whether \p I may observe a store by another thread that the loop around
/// it waits for.
bool isLook(const Instruction &I) {
  if (auto *Load = dyn_cast<LoadInst>(&I))
    return Load->isAtomic() || Load->isVolatile();
  return isa<AtomicCmpXchgInst>(I) || isa<AtomicRMWInst>(I) ||
         isa<FenceInst>(I);
}

/// The emulator's functions where the calling thread may give up its turn:
/// it waits (barriers, warp and wavefront operations) or yields.
bool isSwitchPoint(StringRef Name) {
  return Name == "__gpuemu_yield" || Name == "__gpuemu_barrier" ||
         Name == "__gpuemu_syncwarp" || Name == "__gpuemu_shfl" ||
         Name == "__gpuemu_vote" || Name == "__gpuemu_activemask" ||
         Name == "__gpuemu_activemask64" || Name == "__gpuemu_wave_ballot" ||
         Name == "__gpuemu_wave_permute";
}

using FunctionSet = DenseSet<const Function *>;

/// Whether \p I calls a function in \p Switching or through a pointer.
bool callMaySwitch(const Instruction &I, const FunctionSet &Switching) {
  auto *Call = dyn_cast<CallBase>(&I);
  if (!Call || Call->isInlineAsm())
    return false;
  const Function *Callee = Call->getCalledFunction();
  return !Callee || Switching.contains(Callee);
}

/// The functions of \p M a call of which may let another thread of the
/// block run: the switch points, and whatever calls one (or calls through
/// a pointer).
FunctionSet switchingFunctions(Module &M) {
  FunctionSet Switching;
  for (Function &F : M)
    if (F.isDeclaration() && isSwitchPoint(F.getName()))
      Switching.insert(&F);
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (Function &F : M) {
      if (F.isDeclaration() || Switching.contains(&F))
        continue;
      if (any_of(instructions(F), [&](const Instruction &I) {
            return callMaySwitch(I, Switching);
          })) {
        Switching.insert(&F);
        Changed = true;
      }
    }
  }
  return Switching;
}

/// Whether a thread going round \p L already gives the others their turn
/// (the device runtime's spin-waits call nanosleep, barriers wait). Such a
/// loop gets no more yields: on an AMD wavefront, a lane that yields again
/// after the look that ends its wait would be taken as still spinning
/// (diverged) by the next wavefront operation.
bool switchesThreads(const Loop &L, const FunctionSet &Switching) {
  for (const BasicBlock *BB : L.blocks())
    for (const Instruction &I : *BB)
      if (callMaySwitch(I, Switching))
        return true;
  return false;
}

/// The looks of \p F that need a yield after them.
std::vector<Instruction *> spinLooks(Function &F,
                                     const FunctionSet &Switching) {
  std::vector<Instruction *> Looks;
  DominatorTree DT(F);
  LoopInfo LI(DT);
  if (LI.empty())
    return Looks;
  // Asked once per loop: a loop holds many blocks and loads.
  DenseMap<const Loop *, bool> Switches;
  for (BasicBlock &BB : F) {
    const Loop *L = LI.getLoopFor(&BB);
    if (!L)
      continue;
    auto [It, New] = Switches.try_emplace(L, false);
    if (New)
      It->second = switchesThreads(*L, Switching);
    if (It->second)
      continue;
    for (Instruction &I : BB)
      if (isLook(I))
        Looks.push_back(&I);
  }
  return Looks;
}

/// Looks at memory between two yields: enough that a loop that merely
/// reads an atomic or volatile variable (or updates one) many times (a delay
/// loop, a bounded poll) costs little more than on a GPU, few enough that a
/// waiting thread soon lets the writer run.
constexpr uint32_t LooksPerYield = 256;

} // namespace

bool callsYield(const BasicBlock &BB) {
  for (const Instruction &I : BB)
    if (auto *Call = dyn_cast<CallInst>(&I))
      if (const Function *Callee = Call->getCalledFunction())
        if (Callee->getName() == "__gpuemu_yield")
          return true;
  return false;
}

unsigned addSpinLoopYields(Module &M) {
  LLVMContext &Ctx = M.getContext();
  Type *I32 = Type::getInt32Ty(Ctx);
  FunctionSet Switching = switchingFunctions(M);
  std::vector<Instruction *> SpinLooks;
  for (Function &F : M)
    if (!F.isDeclaration())
      for (Instruction *Look : spinLooks(F, Switching))
        SpinLooks.push_back(Look);
  if (SpinLooks.empty())
    return 0;

  FunctionCallee Yield = M.getOrInsertFunction(
      "__gpuemu_yield", FunctionType::get(Type::getVoidTy(Ctx), false));
  // Counted per host thread, i.e. per block: the threads of a block share
  // the count, which is all a yield every so many looks needs.
  auto *Looks = new GlobalVariable(
      M, I32, /*isConstant=*/false, GlobalValue::InternalLinkage,
      ConstantInt::get(I32, 0), "__gpuemu_spin_looks", nullptr,
      GlobalValue::GeneralDynamicTLSModel);
  for (Instruction *Look : SpinLooks) {
    IRBuilder<> B(Look->getNextNode());
    Value *Count = B.CreateAdd(B.CreateLoad(I32, Looks), B.getInt32(1));
    B.CreateStore(Count, Looks);
    Value *Due = B.CreateICmpEQ(
        B.CreateAnd(Count, B.getInt32(LooksPerYield - 1)), B.getInt32(0));
    Instruction *Then = SplitBlockAndInsertIfThen(Due, &*B.GetInsertPoint(),
                                                  /*Unreachable=*/false);
    IRBuilder<>(Then).CreateCall(Yield);
  }
  return unsigned(SpinLooks.size());
}

} // namespace gpuemu
} // namespace offload
