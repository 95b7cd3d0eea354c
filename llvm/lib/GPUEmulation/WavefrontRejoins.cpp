//===- WavefrontRejoins.cpp - Where an AMD wavefront's lanes wait ---------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The lanes of an AMD wavefront share one program counter: where a branch
// sends them different ways, the wavefront runs one way with some lanes
// masked off, then the other, and the lanes run on together from the
// branch's immediate post-dominator. A lane cannot get past that point while
// another lane of its wavefront still goes round a loop between the branch
// and it, so
//
//   if (Wait[Lane]) while (!atomic_load(&Flag)) ;   // lanes 1-63
//   if (Lane == 0) atomic_store(&Flag, 1);           // lane 0
//
// hangs an AMD GPU, while sm_70 and later GPUs (independent thread
// scheduling) and the emulator's independent threads run it to the end.
//
// The emulator models this where it matters, around spin loops (loops that
// yield, SpinLoopYield.cpp, or sleep): a branch whose region (the blocks
// between it and its immediate post-dominator) holds a spin loop, or that
// leaves one, calls __gpuemu_wave_enter(R) before it, and its
// post-dominator starts with __gpuemu_wave_rejoin(R), where a lane waits
// for every lane of its wavefront still inside R (under
// GPUEMU_WAVEFRONT_LOCKSTEP=1, as it is partial: WavefrontLockstep.cpp in
// offload/gpu-emulator). Elsewhere the lanes still
// run independently: code without spin loops ends whichever order its
// lanes run in, and the lanes of a spin loop go round it independently.
// Both sides of a branch run before the rejoin in no set order, where a GPU
// runs one side first, so a program that hangs only when the GPU happens
// to run one side first is not caught.
//
//===----------------------------------------------------------------------===//

#include "SpinLoopYield.h"
#include "offload/GPUEmulation/HostRetarget.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

#include <optional>
#include <utility>
#include <vector>

using namespace llvm;

namespace offload {
namespace gpuemu {
namespace {

/// \p F's loops that yield (spin loops).
std::vector<const Loop *> spinLoops(const LoopInfo &LI) {
  std::vector<const Loop *> Loops;
  for (const Loop *L : LI.getLoopsInPreorder())
    if (any_of(L->blocks(),
               [](const BasicBlock *BB) { return callsYield(*BB); }))
      Loops.push_back(L);
  return Loops;
}

/// The blocks between \p Branch and \p Join (exclusive).
SmallPtrSet<const BasicBlock *, 16> region(const BasicBlock &Branch,
                                           const BasicBlock *Join) {
  SmallPtrSet<const BasicBlock *, 16> Seen;
  std::vector<const BasicBlock *> Work(succ_begin(&Branch), succ_end(&Branch));
  while (!Work.empty()) {
    const BasicBlock *BB = Work.back();
    Work.pop_back();
    if (BB == Join || !Seen.insert(BB).second)
      continue;
    Work.insert(Work.end(), succ_begin(BB), succ_end(BB));
  }
  return Seen;
}

/// Whether lanes that \p Branch (with post-dominator \p Join) sends
/// different ways can be kept apart by a spin loop of \p Loops: one lies
/// between them (a lane spins in it while another waits at the join), or
/// the branch leaves one (a lane that left it waits for the others). A
/// branch inside a spin loop whose paths meet again inside it (the yield
/// every so many looks, an `if` in the loop's body) is not such a branch:
/// the lanes of a spin loop go round it independently.
bool separatesBySpinLoop(const BasicBlock &Branch, const BasicBlock *Join,
                         const std::vector<const Loop *> &Loops) {
  std::optional<SmallPtrSet<const BasicBlock *, 16>> Between;
  for (const Loop *L : Loops) {
    if (L->contains(&Branch)) {
      if (!L->contains(Join))
        return true;
      continue;
    }
    if (!Between)
      Between = region(Branch, Join);
    if (Between->contains(L->getHeader()))
      return true;
  }
  return false;
}

/// The branches of \p F that need a rejoin, with their post-dominators.
std::vector<std::pair<Instruction *, BasicBlock *>> spinRegions(Function &F) {
  std::vector<std::pair<Instruction *, BasicBlock *>> Regions;
  if (none_of(F, callsYield))
    return Regions;
  DominatorTree DT(F);
  LoopInfo LI(DT);
  std::vector<const Loop *> Loops = spinLoops(LI);
  if (Loops.empty())
    return Regions;
  PostDominatorTree PDT(F);
  for (BasicBlock &BB : F) {
    Instruction *Branch = BB.getTerminator();
    if (!isa<BranchInst>(Branch) && !isa<SwitchInst>(Branch))
      continue;
    if (Branch->getNumSuccessors() < 2)
      continue;
    DomTreeNode *Node = PDT.getNode(&BB);
    // Paths that never meet again (one returns, one traps) have no rejoin.
    if (!Node || !Node->getIDom() || !Node->getIDom()->getBlock())
      continue;
    BasicBlock *Join = Node->getIDom()->getBlock();
    if (separatesBySpinLoop(BB, Join, Loops))
      Regions.emplace_back(Branch, Join);
  }
  return Regions;
}

} // namespace

unsigned addWavefrontRejoins(Module &M) {
  if (!M.getTargetTriple().isAMDGCN())
    return 0;
  LLVMContext &Ctx = M.getContext();
  Type *Ptr = PointerType::get(Ctx, 0);
  FunctionType *Hook = FunctionType::get(Type::getVoidTy(Ctx), {Ptr}, false);
  unsigned Count = 0;
  for (Function &F : M) {
    if (F.isDeclaration())
      continue;
    for (auto [Branch, Join] : spinRegions(F)) {
      // The region's identity: the address of a byte of its own, unique in
      // the process however many images are loaded.
      auto *Id = new GlobalVariable(
          M, Type::getInt8Ty(Ctx), /*isConstant=*/true,
          GlobalValue::PrivateLinkage,
          ConstantInt::get(Type::getInt8Ty(Ctx), 0), "__gpuemu_wave_region");
      // Globals are in the GPU's global address space: the same memory.
      Constant *Arg = ConstantExpr::getPointerBitCastOrAddrSpaceCast(Id, Ptr);
      IRBuilder<>(Branch).CreateCall(
          M.getOrInsertFunction("__gpuemu_wave_enter", Hook), {Arg});
      IRBuilder<>(&*Join->getFirstInsertionPt())
          .CreateCall(M.getOrInsertFunction("__gpuemu_wave_rejoin", Hook),
                      {Arg});
      ++Count;
    }
  }
  return Count;
}

} // namespace gpuemu
} // namespace offload
