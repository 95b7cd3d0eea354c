//===- UnreadTeamMemory.cpp - Stores no thread of the block reads ---------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "offload/Transforms/UnreadTeamMemory.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/CallingConv.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/ModRef.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;

namespace offload {
namespace {

/// Team-shared ("shared" on NVIDIA, LDS on AMD) memory's address space on
/// both GPU families.
constexpr unsigned TeamAddressSpace = 3;

bool isKernel(const Function &F) {
  return F.hasFnAttribute("kernel") ||
         F.getCallingConv() == CallingConv::PTX_Kernel ||
         F.getCallingConv() == CallingConv::AMDGPU_KERNEL;
}

/// Whether \p Call can only run code the pass sees, or code that cannot
/// read a team-shared variable: a direct call of a definition or an
/// intrinsic; of a declaration that touches no memory but its arguments'
/// and memory the program cannot name (`free`), since no variable the pass
/// changes has its address passed anywhere; or an assembler statement that
/// does not say it touches memory (the runtime's hidden region pointers
/// pass through empty ones).
bool staysInModule(const CallBase &Call) {
  if (const auto *Asm = dyn_cast<InlineAsm>(Call.getCalledOperand()))
    return !StringRef(Asm->getConstraintString()).contains("~{memory}");
  const Function *Callee = Call.getCalledFunction();
  if (!Callee)
    return false;
  if (Callee->isIntrinsic() || !Callee->isDeclaration())
    return true;
  // The device runtime's hardware queries, which OpenMPOpt's state machines
  // and guards call after the runtime was linked in (so only declared, and
  // without attributes), read no memory.
  if (is_contained({"__kmpc_get_hardware_thread_id_in_block",
                    "__kmpc_get_hardware_num_threads_in_block",
                    "__kmpc_get_warp_size"},
                   Callee->getName()))
    return true;
  return !isModOrRefSet(
      Call.getMemoryEffects().getModRef(IRMemLocation::Other));
}

/// Collects in \p Reached the functions \p Kernel can run, itself included;
/// false when it can run code the module does not have.
bool collectReachable(Function &Kernel, SmallPtrSetImpl<Function *> &Reached) {
  SmallVector<Function *, 16> Work{&Kernel};
  Reached.insert(&Kernel);
  while (!Work.empty()) {
    Function *F = Work.pop_back_val();
    for (Instruction &I : instructions(*F)) {
      auto *Call = dyn_cast<CallBase>(&I);
      if (!Call)
        continue;
      if (!staysInModule(*Call))
        return false;
      Function *Callee = Call->getCalledFunction();
      if (Callee && !Callee->isIntrinsic() && Reached.insert(Callee).second)
        Work.push_back(Callee);
    }
  }
  return true;
}

/// How a team-shared variable is used: the stores into it, and the
/// functions that read it (a load, an atomic update).
struct TeamVariableUses {
  SmallVector<StoreInst *, 8> Stores;
  SmallPtrSet<Function *, 8> Readers;
  /// Its address goes anywhere else (into memory, a call, a comparison, a
  /// phi, an initializer...), where code might read through it that the
  /// pass cannot see: nothing is removed.
  bool Escapes = false;
};

void collectUses(Value *Address, TeamVariableUses &Uses) {
  for (User *U : Address->users()) {
    if (auto *Expr = dyn_cast<ConstantExpr>(U)) {
      if (Expr->getOpcode() == Instruction::GetElementPtr || Expr->isCast())
        collectUses(Expr, Uses);
      else
        Uses.Escapes = true;
      continue;
    }
    auto *I = dyn_cast<Instruction>(U);
    if (!I) {
      Uses.Escapes = true;
      continue;
    }
    if (isa<GetElementPtrInst>(I) || isa<CastInst>(I)) {
      collectUses(I, Uses);
      continue;
    }
    auto *Store = dyn_cast<StoreInst>(I);
    if (Store && Store->getPointerOperand() == Address &&
        Store->getValueOperand() != Address && !Store->isVolatile())
      Uses.Stores.push_back(Store);
    else if (isa<LoadInst>(I) ||
             (isa<AtomicRMWInst>(I) &&
              cast<AtomicRMWInst>(I)->getPointerOperand() == Address) ||
             (isa<AtomicCmpXchgInst>(I) &&
              cast<AtomicCmpXchgInst>(I)->getPointerOperand() == Address))
      Uses.Readers.insert(I->getFunction());
    else
      Uses.Escapes = true;
  }
}

} // namespace

unsigned removeUnreadTeamMemoryStores(Module &M) {
  SmallVector<std::pair<GlobalVariable *, TeamVariableUses>, 8> Variables;
  for (GlobalVariable &G : M.globals()) {
    if (G.getAddressSpace() != TeamAddressSpace)
      continue;
    TeamVariableUses Uses;
    collectUses(&G, Uses);
    if (!Uses.Escapes && !Uses.Stores.empty())
      Variables.emplace_back(&G, std::move(Uses));
  }
  if (Variables.empty())
    return 0;

  unsigned Removed = 0;
  for (Function &Kernel : M) {
    if (Kernel.isDeclaration() || !isKernel(Kernel))
      continue;
    SmallPtrSet<Function *, 16> Reached;
    if (!collectReachable(Kernel, Reached))
      continue;
    for (auto &[Variable, Uses] : Variables) {
      if (any_of(Uses.Readers,
                 [&](Function *F) { return Reached.contains(F); }))
        continue;
      // Only the kernel's own stores go: a function it calls may be another
      // kernel's too, which may read what it stores.
      for (StoreInst *&Store : Uses.Stores) {
        if (!Store || Store->getFunction() != &Kernel)
          continue;
        Value *Address = Store->getPointerOperand();
        Store->eraseFromParent();
        Store = nullptr;
        RecursivelyDeleteTriviallyDeadInstructions(Address);
        ++Removed;
      }
    }
  }
  for (auto &[Variable, Uses] : Variables)
    Variable->removeDeadConstantUsers();
  return Removed;
}

} // namespace offload
