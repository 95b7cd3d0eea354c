//===- AccessChecks.cpp - Memory access checks of emulated images ---------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Every image carries its checks, so that GPUEMU_CHECK selects them when the
// program runs, without a new link. Each device memory access (load, store,
// atomic, memcpy/memmove/memset, fence) is preceded by a call of
// __gpuemu_check_access, taken only when the image's __gpuemu_check_flags is
// non-zero; the loader sets it from GPUEMU_CHECK. With checks off an access
// costs a test of a value loaded once per function and a branch the code
// generator lays out of line.
//
// Left out, because they cannot be wrong in a way the checks see: private
// (address space 5) and constant (address space 4: kernel arguments, the
// dispatch packet) accesses, and accesses to the function's own stack
// variables or, but for atomics, to a global variable other than a
// team-shared one.
//
//===----------------------------------------------------------------------===//

#include "offload/GPUEmulation/EmulatorABI.h"
#include "offload/GPUEmulation/HostRetarget.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#include <cstdlib>
#include <vector>

using namespace llvm;

namespace offload {
namespace gpuemu {
namespace {

constexpr unsigned SharedAS = 3, ConstantAS = 4, PrivateAS = 5;

/// One access to check: the pointer, its size in bytes, AccessKind bits,
/// and for a store of up to 8 bytes the value stored (else null).
struct Access {
  Instruction *At;
  Value *Pointer;
  Value *Bytes;
  uint32_t Kind;
  Value *Stored = nullptr;
  /// The team-shared variable the access is known to be inside, if any.
  GlobalVariable *Object = nullptr;
};

class Instrumenter {
public:
  explicit Instrumenter(Module &M) : M(M), Ctx(M.getContext()) {
    Type *I32 = Type::getInt32Ty(Ctx);
    Flags = new GlobalVariable(M, I32, /*isConstant=*/false,
                               GlobalValue::ExternalLinkage,
                               ConstantInt::get(I32, 0), CheckFlagsSymbol);
    Flags->setVisibility(GlobalValue::DefaultVisibility);
    PointerType *Ptr = PointerType::getUnqual(Ctx);
    Check = M.getOrInsertFunction("__gpuemu_check_access", Type::getVoidTy(Ctx),
                                  Ptr, Type::getInt64Ty(Ctx), I32, Ptr,
                                  Type::getInt64Ty(Ctx), Ptr,
                                  Type::getInt64Ty(Ctx));
    SiteType = StructType::get(Ctx, {I32, I32, Ptr, Ptr, Ptr});
  }

  unsigned run() {
    unsigned Count = 0;
    for (Function &F : M) {
      if (F.isDeclaration())
        continue;
      std::vector<Access> Accesses = collect(F);
      if (Accesses.empty())
        continue;
      IRBuilder<> Entry(&*F.getEntryBlock().getFirstInsertionPt());
      Value *On = Entry.CreateICmpNE(
          Entry.CreateLoad(Entry.getInt32Ty(), Flags, "gpuemu.checks"),
          Entry.getInt32(0));
      for (const Access &A : Accesses)
        insertCheck(A, On);
      Count += Accesses.size();
    }
    return Count;
  }

private:
  std::vector<Access> collect(Function &F);
  void add(std::vector<Access> &Out, Instruction &I, Value *Pointer,
           Value *Bytes, uint32_t Kind, MaybeAlign Alignment);
  void insertCheck(const Access &A, Value *On);
  Constant *site(const Instruction &I, const GlobalVariable *Object);
  Constant *string(StringRef Text);

  Module &M;
  LLVMContext &Ctx;
  GlobalVariable *Flags;
  FunctionCallee Check;
  StructType *SiteType;
  StringMap<Constant *> Sites, Strings;
};

/// The bits of the value \p S stores when it is a scalar or small vector
/// of at most 8 bytes that fills them (0 otherwise).
unsigned storedBits(const StoreInst &S) {
  Type *T = S.getValueOperand()->getType();
  const DataLayout &DL = S.getDataLayout();
  TypeSize Bits = DL.getTypeSizeInBits(T);
  if (Bits.isScalable() || DL.getTypeStoreSizeInBits(T) != Bits)
    return 0;
  if (Bits != 8 && Bits != 16 && Bits != 32 && Bits != 64)
    return 0;
  if (T->isIntegerTy() || T->isFloatingPointTy() ||
      (T->isPointerTy() && DL.getPointerTypeSizeInBits(T) == Bits))
    return unsigned(Bits);
  if (auto *V = dyn_cast<FixedVectorType>(T))
    return V->getElementType()->isPointerTy() ? 0 : unsigned(Bits);
  return 0;
}

/// Whether an access of \p Kind through \p Pointer is left out (see the
/// file comment). Atomics on global variables stay: they are how threads
/// synchronise (a critical section's lock), which racecheck follows.
bool leftOut(const Value *Pointer, uint32_t Kind) {
  unsigned AS = Pointer->getType()->getPointerAddressSpace();
  if (AS == ConstantAS || AS == PrivateAS)
    return true;
  const Value *Object = getUnderlyingObject(Pointer);
  if (isa<AllocaInst>(Object))
    return true;
  if (auto *G = dyn_cast<GlobalVariable>(Object))
    return G->getAddressSpace() != SharedAS && !(Kind & AccessAtomic);
  return false;
}

void Instrumenter::add(std::vector<Access> &Out, Instruction &I, Value *Pointer,
                       Value *Bytes, uint32_t Kind, MaybeAlign Alignment) {
  if (leftOut(Pointer, Kind))
    return;
  if (Pointer->getType()->getPointerAddressSpace() == SharedAS)
    Kind |= AccessShared;
  if (Alignment)
    Kind |= uint32_t(Log2(*Alignment)) << AccessAlignShift;
  // A team-shared variable of known size (not dynamic shared memory, a
  // zero-sized declaration): memcheck checks the access stays inside it.
  auto *G = dyn_cast<GlobalVariable>(getUnderlyingObject(Pointer));
  if (G && (G->getAddressSpace() != SharedAS ||
            M.getDataLayout().getTypeAllocSize(G->getValueType()) == 0))
    G = nullptr;
  Out.push_back({&I, Pointer, Bytes, Kind, nullptr, G});
}

std::vector<Access> Instrumenter::collect(Function &F) {
  const DataLayout &DL = M.getDataLayout();
  std::vector<Access> Out;
  auto SizeOf = [&](Type *T) {
    return ConstantInt::get(Type::getInt64Ty(Ctx), DL.getTypeStoreSize(T));
  };
  for (Instruction &I : instructions(F)) {
    if (auto *L = dyn_cast<LoadInst>(&I)) {
      uint32_t Kind = L->isAtomic() || L->isVolatile() ? AccessAtomic : 0;
      add(Out, I, L->getPointerOperand(), SizeOf(L->getType()), Kind,
          L->getAlign());
    } else if (auto *S = dyn_cast<StoreInst>(&I)) {
      uint32_t Kind =
          AccessStore | (S->isAtomic() || S->isVolatile() ? AccessAtomic : 0);
      add(Out, I, S->getPointerOperand(),
          SizeOf(S->getValueOperand()->getType()), Kind, S->getAlign());
      // Racecheck takes a write of the value already there for no conflict
      // (every thread of a region storing the same constant).
      if (!Out.empty() && Out.back().At == &I && storedBits(*S))
        Out.back().Stored = S->getValueOperand();
    } else if (auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
      add(Out, I, RMW->getPointerOperand(),
          SizeOf(RMW->getValOperand()->getType()), AccessStore | AccessAtomic,
          RMW->getAlign());
    } else if (auto *CAS = dyn_cast<AtomicCmpXchgInst>(&I)) {
      add(Out, I, CAS->getPointerOperand(),
          SizeOf(CAS->getCompareOperand()->getType()),
          AccessStore | AccessAtomic, CAS->getAlign());
    } else if (auto *Mem = dyn_cast<MemIntrinsic>(&I)) {
      Value *Bytes = Mem->getLength();
      if (Bytes->getType() != Type::getInt64Ty(Ctx))
        continue;
      add(Out, I, Mem->getRawDest(), Bytes, AccessStore, std::nullopt);
      // A copy moves whatever the source holds, written or not (a struct's
      // padding): only what reads the copy is checked for initialisation.
      if (auto *Transfer = dyn_cast<MemTransferInst>(Mem))
        add(Out, I, Transfer->getRawSource(), Bytes, AccessNoInitCheck,
            std::nullopt);
    } else if (isa<FenceInst>(I)) {
      Out.push_back({&I, ConstantPointerNull::get(PointerType::getUnqual(Ctx)),
                     ConstantInt::get(Type::getInt64Ty(Ctx), 0), AccessFence});
    }
  }
  return Out;
}

Constant *Instrumenter::string(StringRef Text) {
  Constant *&S = Strings[Text];
  if (!S) {
    Constant *Data = ConstantDataArray::getString(Ctx, Text);
    S = new GlobalVariable(M, Data->getType(), /*isConstant=*/true,
                           GlobalValue::PrivateLinkage, Data,
                           "__gpuemu_check_text");
  }
  return S;
}

/// The source location of \p I (CheckSite), shared by the accesses of one
/// line and column.
Constant *Instrumenter::site(const Instruction &I,
                             const GlobalVariable *Object) {
  unsigned Line = 0, Column = 0;
  StringRef File, Function = I.getFunction()->getName();
  if (const DILocation *Loc = I.getDebugLoc().get()) {
    Line = Loc->getLine();
    Column = Loc->getColumn();
    File = Loc->getFilename();
    if (DISubprogram *SP = Loc->getScope()->getSubprogram())
      Function =
          SP->getLinkageName().empty() ? SP->getName() : SP->getLinkageName();
  }
  StringRef ObjectName = Object ? Object->getName() : "";
  std::string Key = (File + ":" + Twine(Line) + ":" + Twine(Column) + ":" +
                     Function + ":" + ObjectName)
                        .str();
  Constant *&S = Sites[Key];
  if (!S) {
    Type *I32 = Type::getInt32Ty(Ctx);
    Constant *Value = ConstantStruct::get(
        SiteType, {ConstantInt::get(I32, Line), ConstantInt::get(I32, Column),
                   string(File), string(Function), string(ObjectName)});
    S = new GlobalVariable(M, SiteType, /*isConstant=*/true,
                           GlobalValue::PrivateLinkage, Value,
                           "__gpuemu_check_site");
  }
  return S;
}

void Instrumenter::insertCheck(const Access &A, Value *On) {
  MDNode *Unlikely = MDBuilder(Ctx).createUnlikelyBranchWeights();
  Instruction *Then =
      SplitBlockAndInsertIfThen(On, A.At->getIterator(), false, Unlikely);
  IRBuilder<> B(Then);
  Value *Pointer = A.Pointer;
  if (Pointer->getType()->getPointerAddressSpace() != 0)
    Pointer = B.CreateAddrSpaceCast(Pointer, PointerType::getUnqual(Ctx));
  Value *Stored = B.getInt64(0);
  uint32_t Kind = A.Kind;
  if (A.Stored) {
    Type *T = A.Stored->getType();
    Value *Bits = A.Stored;
    unsigned Width = storedBits(*cast<StoreInst>(A.At));
    if (T->isPointerTy())
      Bits = B.CreatePtrToInt(Bits, B.getIntNTy(Width));
    else if (!T->isIntegerTy())
      Bits = B.CreateBitCast(Bits, B.getIntNTy(Width));
    Stored = B.CreateZExt(Bits, B.getInt64Ty());
    Kind |= AccessHasValue;
  }
  Value *Object = ConstantPointerNull::get(PointerType::getUnqual(Ctx));
  Value *ObjectBytes = B.getInt64(0);
  if (A.Object) {
    Object = B.CreateAddrSpaceCast(A.Object, PointerType::getUnqual(Ctx));
    ObjectBytes = B.getInt64(
        M.getDataLayout().getTypeAllocSize(A.Object->getValueType()));
  }
  B.CreateCall(Check, {Pointer, A.Bytes, B.getInt32(Kind),
                       site(*A.At, A.Object), Stored, Object, ObjectBytes});
}

} // namespace

unsigned addAccessChecks(Module &M) {
  // Only to measure what the checks cost when off: an image linked so has
  // no checks to turn on (docs/GPUEmulator.md).
  if (const char *Off = std::getenv("GPUEMU_LINK_WITHOUT_CHECKS"))
    if (*Off && *Off != '0')
      return 0;
  return Instrumenter(M).run();
}

} // namespace gpuemu
} // namespace offload
