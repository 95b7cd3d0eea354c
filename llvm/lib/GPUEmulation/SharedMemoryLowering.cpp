//===- SharedMemoryLowering.cpp - Team-shared globals per block -----------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A team-shared global exists once per block on a GPU, but once per process
// in a host shared object. The emulator gives each block a segment; every
// team-shared global becomes a fixed offset in it, computed here, and each
// function that uses one asks the emulator for its block's segment once on
// entry (a thread never changes blocks).
//
//===----------------------------------------------------------------------===//

#include "offload/GPUEmulation/EmulatorABI.h"
#include "offload/GPUEmulation/HostRetarget.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ReplaceConstant.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

namespace offload {
namespace gpuemu {
namespace {

/// Offsets of the shared globals; external (dynamic) ones share the end.
struct SharedLayout {
  DenseMap<GlobalVariable *, uint64_t> Offsets;
  uint64_t StaticBytes = 0;
};

SharedLayout layOut(ArrayRef<GlobalVariable *> Globals, const DataLayout &DL) {
  SharedLayout Layout;
  for (GlobalVariable *G : Globals) {
    if (G->isDeclaration())
      continue;
    uint64_t Align = G->getAlign().valueOrOne().value();
    Align = std::max<uint64_t>(Align,
                               DL.getABITypeAlign(G->getValueType()).value());
    Layout.StaticBytes = alignTo(Layout.StaticBytes, Align);
    Layout.Offsets[G] = Layout.StaticBytes;
    Layout.StaticBytes += DL.getTypeAllocSize(G->getValueType());
  }
  // Dynamic shared memory follows, 16-byte aligned as CUDA guarantees.
  Layout.StaticBytes = alignTo(Layout.StaticBytes, 16);
  for (GlobalVariable *G : Globals)
    if (G->isDeclaration())
      Layout.Offsets[G] = Layout.StaticBytes;
  return Layout;
}

/// The instruction before which a value used by \p U must be available.
Instruction *insertionPointFor(Use &U) {
  auto *User = cast<Instruction>(U.getUser());
  if (auto *Phi = dyn_cast<PHINode>(User))
    return Phi->getIncomingBlock(U)->getTerminator();
  return User;
}

// Flang can emit a second used list under a suffixed name
// (`llvm.compiler.used22`), which no linker merges and LLVM does not treat
// as special; like the real lists it lives in section llvm.metadata and only
// keeps its entries alive. Its references to shared globals become null
// pointers, so nothing outside a function uses them.
void dropFromMetadataArrays(Module &M, function_ref<bool(Constant *)> Drop) {
  for (GlobalVariable &List : M.globals()) {
    if (List.getSection() != "llvm.metadata" || !List.hasInitializer())
      continue;
    auto *Init = dyn_cast<ConstantArray>(List.getInitializer());
    if (!Init)
      continue;
    SmallVector<Constant *> Entries;
    bool Changed = false;
    for (Use &Entry : Init->operands()) {
      auto *C = cast<Constant>(Entry.get());
      if (Drop(C->stripPointerCasts())) {
        C = Constant::getNullValue(C->getType());
        Changed = true;
      }
      Entries.push_back(C);
    }
    if (Changed)
      List.setInitializer(ConstantArray::get(Init->getType(), Entries));
  }
}

/// A team-shared pointer's integer value is its offset in the block's
/// shared memory on a GPU (the AMDGPU runtime finds the size of dynamic
/// LDS from its start's address). Here a team-shared pointer is a host
/// address in the block's segment, so its integers are made relative to
/// the segment, both ways.
void makeSharedIntegersOffsets(Module &M, unsigned SharedAddressSpace) {
  LLVMContext &Ctx = M.getContext();
  Type *I64 = Type::getInt64Ty(Ctx);
  FunctionCallee Base =
      M.getOrInsertFunction("__gpuemu_shared_base", PointerType::get(Ctx, 0));
  for (Function &F : M) {
    std::vector<Instruction *> Casts;
    for (Instruction &I : instructions(F))
      if ((isa<PtrToIntInst>(I) &&
           I.getOperand(0)->getType()->getPointerAddressSpace() ==
               SharedAddressSpace) ||
          (isa<IntToPtrInst>(I) &&
           I.getType()->getPointerAddressSpace() == SharedAddressSpace))
        Casts.push_back(&I);
    if (Casts.empty())
      continue;
    IRBuilder<> Entry(&*F.getEntryBlock().getFirstInsertionPt());
    Value *Segment = Entry.CreateCall(Base, {}, "shared.segment");
    for (Instruction *Cast : Casts) {
      IRBuilder<> B(Cast);
      Value *Result;
      if (isa<PtrToIntInst>(Cast)) {
        Value *Offset = B.CreateSub(B.CreatePtrToInt(Cast->getOperand(0), I64),
                                    B.CreatePtrToInt(Segment, I64));
        Result = B.CreateZExtOrTrunc(Offset, Cast->getType());
      } else {
        Value *Offset = B.CreateZExtOrTrunc(Cast->getOperand(0), I64);
        Result = B.CreateAddrSpaceCast(
            B.CreateGEP(Type::getInt8Ty(Ctx), Segment, Offset),
            Cast->getType());
      }
      Cast->replaceAllUsesWith(Result);
      Cast->eraseFromParent();
    }
  }
}

} // namespace

Error lowerSharedMemory(Module &M, unsigned SharedAddressSpace) {
  std::vector<GlobalVariable *> Globals;
  for (GlobalVariable &G : M.globals())
    if (G.getAddressSpace() == SharedAddressSpace)
      Globals.push_back(&G);
  SharedLayout Layout = layOut(Globals, M.getDataLayout());

  LLVMContext &Ctx = M.getContext();
  auto *SizeGlobal = new GlobalVariable(
      M, Type::getInt64Ty(Ctx), /*isConstant=*/true,
      GlobalValue::ExternalLinkage,
      ConstantInt::get(Type::getInt64Ty(Ctx), Layout.StaticBytes),
      SharedSizeSymbol);
  SizeGlobal->setVisibility(GlobalValue::DefaultVisibility);
  if (Globals.empty()) {
    makeSharedIntegersOffsets(M, SharedAddressSpace);
    return Error::success();
  }

  // Shared globals listed in llvm.used must not keep their (now unused)
  // storage alive; the segment holds them.
  auto IsShared = [&](Constant *C) {
    return isa<GlobalVariable>(C) &&
           cast<GlobalVariable>(C)->getAddressSpace() == SharedAddressSpace;
  };
  removeFromUsedLists(M, IsShared);
  dropFromMetadataArrays(M, IsShared);
  for (GlobalVariable *G : Globals)
    G->removeDeadConstantUsers();
  SmallVector<Constant *> AsConstants(Globals.begin(), Globals.end());
  convertUsersOfConstantsToInstructions(AsConstants);

  FunctionCallee Base =
      M.getOrInsertFunction("__gpuemu_shared_base", PointerType::get(Ctx, 0));
  DenseMap<Function *, Value *> BaseOf;
  for (GlobalVariable *G : Globals) {
    for (Use &U : make_early_inc_range(G->uses())) {
      auto *User = dyn_cast<Instruction>(U.getUser());
      if (!User)
        return createStringError(
            "the GPU emulator cannot place the team-shared variable '" +
            G->getName().str() +
            "': it is used outside a function (in another global's "
            "initializer)");
      Function *F = User->getFunction();
      Value *&SegmentBase = BaseOf[F];
      if (!SegmentBase) {
        IRBuilder<> Entry(&*F->getEntryBlock().getFirstInsertionPt());
        SegmentBase = Entry.CreateCall(Base, {}, "shared.segment");
      }
      IRBuilder<> B(insertionPointFor(U));
      Value *Address = B.CreateConstInBoundsGEP1_64(
          Type::getInt8Ty(Ctx), SegmentBase, Layout.Offsets.lookup(G),
          G->getName() + ".shared");
      U.set(B.CreateAddrSpaceCast(Address, G->getType()));
    }
    G->eraseFromParent();
  }
  makeSharedIntegersOffsets(M, SharedAddressSpace);
  return Error::success();
}

} // namespace gpuemu
} // namespace offload
