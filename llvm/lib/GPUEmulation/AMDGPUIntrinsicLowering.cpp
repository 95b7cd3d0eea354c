//===- AMDGPUIntrinsicLowering.cpp - amdgcn instructions to emulator calls ===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Each llvm.amdgcn.* intrinsic the AMDGPU device runtime and clang's OpenMP
// code generation use becomes a call of the emulator (EmulatorABI.h) or
// host IR. The table is by name: an intrinsic that is not in it is an error,
// because running it as something else would give wrong results silently.
//
// Work-item and work-group ids are the executor's thread and block ids; the
// dispatch packet and the kernarg segment come from the launch slots the
// kernel's entry point fills (amdgpuLaunchSlots). Wavefront operations take
// the lanes that reach them together, as the EXEC mask does on the GPU.
//
//===----------------------------------------------------------------------===//

#include "offload/GPUEmulation/EmulatorABI.h"
#include "offload/GPUEmulation/HostRetarget.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MathExtras.h"

#include <optional>

using namespace llvm;

namespace offload {
namespace gpuemu {
namespace {

constexpr unsigned AMDGPUPrivateAddressSpace = 5;

/// Work-item and work-group ids by intrinsic name.
std::optional<SReg> idRegister(StringRef Name) {
  return StringSwitch<std::optional<SReg>>(Name)
      .Case("llvm.amdgcn.workitem.id.x", SReg::TidX)
      .Case("llvm.amdgcn.workitem.id.y", SReg::TidY)
      .Case("llvm.amdgcn.workitem.id.z", SReg::TidZ)
      .Case("llvm.amdgcn.workgroup.id.x", SReg::CtaIdX)
      .Case("llvm.amdgcn.workgroup.id.y", SReg::CtaIdY)
      .Case("llvm.amdgcn.workgroup.id.z", SReg::CtaIdZ)
      .Case("llvm.amdgcn.wavefrontsize", SReg::WarpSize)
      .Cases("llvm.amdgcn.s.memtime", "llvm.amdgcn.s.memrealtime",
             "llvm.readcyclecounter", "llvm.readsteadycounter", SReg::Clock64)
      .Default(std::nullopt);
}

/// The launch slot each pointer intrinsic reads.
std::optional<unsigned> launchSlot(StringRef Name) {
  return StringSwitch<std::optional<unsigned>>(Name)
      .Case("llvm.amdgcn.kernarg.segment.ptr", LaunchSlotKernarg)
      .Case("llvm.amdgcn.dispatch.ptr", LaunchSlotPacket)
      .Case("llvm.amdgcn.implicitarg.ptr", LaunchSlotImplicit)
      .Default(std::nullopt);
}

class Lowering {
public:
  explicit Lowering(Module &M)
      : M(M), Ctx(M.getContext()), I32(Type::getInt32Ty(Ctx)),
        I64(Type::getInt64Ty(Ctx)), Void(Type::getVoidTy(Ctx)) {}

  /// Rewrites \p Call of \p Name; false when it has no emulation.
  bool lower(CallInst *Call, StringRef Name) {
    IRBuilder<> B(Call);
    Value *Result = nullptr;
    if (std::optional<SReg> Reg = idRegister(Name)) {
      Result = B.CreateZExtOrTrunc(sreg(B, *Reg), Call->getType());
    } else if (std::optional<unsigned> Slot = launchSlot(Name)) {
      GlobalVariable &Slots = amdgpuLaunchSlots(M);
      Value *Address =
          B.CreateConstInBoundsGEP2_32(Slots.getValueType(), &Slots, 0, *Slot);
      Value *Ptr = B.CreateLoad(PointerType::get(Ctx, 0), Address);
      Result = B.CreateAddrSpaceCast(Ptr, Call->getType());
    } else if (Name == "llvm.trap" || Name == "llvm.ubsantrap" ||
               Name == "llvm.amdgcn.endpgm") {
      B.CreateCall(callee("__gpuemu_trap", Void, {}));
    } else if (Name == "llvm.amdgcn.s.barrier") {
      B.CreateCall(callee("__gpuemu_barrier", Void, {I32, I32}),
                   {B.getInt32(0), B.getInt32(0)});
    } else if (Name == "llvm.amdgcn.wave.barrier" ||
               Name == "llvm.amdgcn.sched.barrier" ||
               Name == "llvm.amdgcn.s.waitcnt") {
      // Scheduling barriers of the compiler and the hardware's wait for
      // its own memory counters: nothing to do on the host.
    } else if (Name == "llvm.amdgcn.s.sleep") {
      B.CreateCall(callee("__gpuemu_yield", Void, {}));
    } else if (Name == "llvm.amdgcn.mbcnt.lo" ||
               Name == "llvm.amdgcn.mbcnt.hi") {
      Result = lowerMbcnt(B, Call, Name.ends_with(".hi"));
    } else if (Name == "llvm.amdgcn.ballot.i64") {
      Value *Predicate = B.CreateZExt(Call->getArgOperand(0), I32);
      Result =
          B.CreateCall(callee("__gpuemu_wave_ballot", I64, {I32}), {Predicate});
    } else if (Name == "llvm.amdgcn.ds.bpermute") {
      // The source lane is the byte address divided by 4.
      Value *Lane = B.CreateLShr(Call->getArgOperand(0), 2);
      Result = permute(B, Lane, Call->getArgOperand(1));
      if (!Result)
        return false;
    } else if (Name.starts_with("llvm.amdgcn.readlane.") ||
               Name.starts_with("llvm.amdgcn.readfirstlane.")) {
      Value *Lane =
          Call->arg_size() == 2 ? Call->getArgOperand(1) : B.getInt32(~0u);
      Result = permute(B, Lane, Call->getArgOperand(0));
      if (!Result)
        return false;
    } else if (Value *Math = lowerMath(B, Call, Name)) {
      Result = Math;
    } else {
      return false;
    }
    if (Result)
      Call->replaceAllUsesWith(Result);
    Call->eraseFromParent();
    return true;
  }

private:
  FunctionCallee callee(StringRef Name, Type *Ret, ArrayRef<Type *> Params) {
    return M.getOrInsertFunction(Name, FunctionType::get(Ret, Params, false));
  }

  Value *sreg(IRBuilder<> &B, SReg Reg) {
    return B.CreateCall(callee("__gpuemu_sreg", I64, {I32}),
                        {B.getInt32(uint32_t(Reg))});
  }

  /// The floating-point instructions of ocml (ROCm's math library) and of
  /// clang's __builtin_amdgcn_* math; nullptr for anything else. Where the
  /// GPU's instruction is approximate (rcp, rsq, sin, exp2, log), the host's
  /// correctly rounded operation replaces it.
  Value *lowerMath(IRBuilder<> &B, CallInst *Call, StringRef Name) {
    if (!Name.consume_front("llvm.amdgcn."))
      return nullptr;
    auto [Op, Suffix] = Name.split('.');
    if (Suffix != "f16" && Suffix != "f32" && Suffix != "f64")
      return frexpOrPreop(B, Call, Name);
    Value *X = Call->getArgOperand(0);
    Type *Ty = X->getType();
    Value *One = ConstantFP::get(Ty, 1.0);
    auto Unary = [&](Intrinsic::ID ID, Value *V) {
      return B.CreateUnaryIntrinsic(ID, V);
    };
    if (Op == "rcp")
      return B.CreateFDiv(One, X);
    if (Op == "rsq")
      return B.CreateFDiv(One, Unary(Intrinsic::sqrt, X));
    if (Op == "sqrt")
      return Unary(Intrinsic::sqrt, X);
    if (Op == "exp2")
      return Unary(Intrinsic::exp2, X);
    if (Op == "log")
      return Unary(Intrinsic::log2, X);
    if (Op == "sin" || Op == "cos") // The argument is in turns.
      return Unary(Op == "sin" ? Intrinsic::sin : Intrinsic::cos,
                   B.CreateFMul(X, ConstantFP::get(Ty, 2 * numbers::pi)));
    if (Op == "fract") {
      // x - floor(x), kept below 1 (a tiny negative x would round to 1);
      // NaN for NaN and infinities.
      Value *Fraction = B.CreateFSub(X, Unary(Intrinsic::floor, X));
      APFloat BelowOne(1.0);
      bool LosesInfo;
      BelowOne.convert(Ty->getFltSemantics(), APFloat::rmNearestTiesToEven,
                       &LosesInfo);
      BelowOne.next(/*nextDown=*/true);
      Value *Clamped = B.CreateBinaryIntrinsic(Intrinsic::minnum, Fraction,
                                               ConstantFP::get(Ty, BelowOne));
      return B.CreateSelect(B.CreateFCmpUNO(Fraction, Fraction), Fraction,
                            Clamped);
    }
    if (Op == "fmed3") {
      // The median of three: max(min(a, b), min(max(a, b), c)).
      Value *A = X, *Bv = Call->getArgOperand(1), *C = Call->getArgOperand(2);
      Value *Low = B.CreateBinaryIntrinsic(Intrinsic::minnum, A, Bv);
      Value *High = B.CreateBinaryIntrinsic(Intrinsic::maxnum, A, Bv);
      return B.CreateBinaryIntrinsic(
          Intrinsic::maxnum, Low,
          B.CreateBinaryIntrinsic(Intrinsic::minnum, High, C));
    }
    if (Op == "class")
      return classify(B, X, Call->getArgOperand(1));
    return nullptr;
  }

  /// class(x, mask): whether x is in one of the classes of \p Mask, whose
  /// ten bits (signalling NaN, quiet NaN, -inf, -normal, -subnormal, -0,
  /// +0, +subnormal, +normal, +inf) are those of llvm.is.fpclass.
  Value *classify(IRBuilder<> &B, Value *X, Value *Mask) {
    if (auto *Constant = dyn_cast<ConstantInt>(Mask))
      return B.createIsFPClass(X, Constant->getZExtValue() & fcAllFlags);
    Value *Result = B.getFalse();
    for (unsigned Bit = 0; Bit < 10; ++Bit) {
      Value *Wanted = B.CreateTrunc(B.CreateLShr(Mask, Bit), B.getInt1Ty());
      Result = B.CreateOr(Result,
                          B.CreateAnd(Wanted, B.createIsFPClass(X, 1u << Bit)));
    }
    return Result;
  }

  /// frexp.mant.<type>, frexp.exp.<int>.<type> (the GPU gives a NaN or an
  /// infinity back as the mantissa, and 0 as its exponent) and
  /// trig.preop.f64.
  Value *frexpOrPreop(IRBuilder<> &B, CallInst *Call, StringRef Name) {
    if (Name == "trig.preop.f64")
      return B.CreateCall(callee("__gpuemu_trig_preop", Call->getType(),
                                 {Call->getType(), I32}),
                          {Call->getArgOperand(0), Call->getArgOperand(1)});
    bool Mantissa = Name.starts_with("frexp.mant.");
    if (!Mantissa && !Name.starts_with("frexp.exp."))
      return nullptr;
    Value *X = Call->getArgOperand(0);
    Value *Parts =
        B.CreateIntrinsic(Intrinsic::frexp, {X->getType(), I32}, {X});
    Value *Finite = B.createIsFPClass(X, fcFinite);
    if (Mantissa)
      return B.CreateSelect(Finite, B.CreateExtractValue(Parts, 0), X);
    Value *Exponent =
        B.CreateSelect(Finite, B.CreateExtractValue(Parts, 1), B.getInt32(0));
    return B.CreateSExtOrTrunc(Exponent, Call->getType());
  }

  /// mbcnt.lo/hi(mask, acc): acc plus the bits of \p mask (the low or high
  /// half of a wavefront mask) below the calling lane.
  Value *lowerMbcnt(IRBuilder<> &B, CallInst *Call, bool High) {
    Value *Lane = sreg(B, SReg::LaneId);
    Value *Below = B.CreateSub(B.CreateShl(B.getInt64(1), Lane),
                               B.getInt64(1)); // lanes < 64
    if (High)
      Below = B.CreateLShr(Below, 32);
    Value *Bits =
        B.CreateAnd(Call->getArgOperand(0), B.CreateTrunc(Below, I32));
    Value *Count = B.CreateUnaryIntrinsic(Intrinsic::ctpop, Bits);
    return B.CreateAdd(Call->getArgOperand(1), Count);
  }

  /// \p V (an integer, floating-point value or pointer of up to 64 bits)
  /// read from lane \p Lane, 32 bits at a time as the GPU reads registers;
  /// nullptr for other types.
  Value *permute(IRBuilder<> &B, Value *Lane, Value *V) {
    Type *Ty = V->getType();
    unsigned Bits =
        Ty->isPointerTy() ? 64 : unsigned(Ty->getPrimitiveSizeInBits());
    if (Bits == 0 || Bits > 64 || Ty->isVectorTy())
      return nullptr;
    Type *IntTy = B.getIntNTy(Bits);
    Value *Int = Ty->isPointerTy() ? B.CreatePtrToInt(V, IntTy)
                                   : B.CreateBitCast(V, IntTy);
    FunctionCallee Permute = callee("__gpuemu_wave_permute", I32, {I32, I32});
    Value *Wide = B.CreateZExt(Int, I64);
    Value *Lo = B.CreateCall(Permute, {Lane, B.CreateTrunc(Wide, I32)});
    Value *Got = B.CreateZExt(Lo, I64);
    if (Bits > 32) {
      Value *Hi = B.CreateCall(
          Permute, {Lane, B.CreateTrunc(B.CreateLShr(Wide, 32), I32)});
      Got = B.CreateOr(Got, B.CreateShl(B.CreateZExt(Hi, I64), 32));
    }
    Got = B.CreateTrunc(Got, IntTy);
    return Ty->isPointerTy() ? B.CreateIntToPtr(Got, Ty)
                             : B.CreateBitCast(Got, Ty);
  }

  Module &M;
  LLVMContext &Ctx;
  Type *I32, *I64, *Void;
};

bool isLowered(const Function &F) {
  StringRef Name = F.getName();
  return Name.starts_with("llvm.amdgcn.") || Name == "llvm.trap" ||
         Name == "llvm.ubsantrap" || Name == "llvm.readcyclecounter" ||
         Name == "llvm.readsteadycounter";
}

/// Stack variables of an AMDGPU function live in the private address
/// space; on the host they are ordinary allocas, cast to it for their
/// users. Their lifetime markers, which must name an alloca, go.
void movePrivateAllocas(Module &M) {
  std::vector<AllocaInst *> Private;
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      if (auto *A = dyn_cast<AllocaInst>(&I))
        if (A->getAddressSpace() == AMDGPUPrivateAddressSpace)
          Private.push_back(A);
  for (AllocaInst *A : Private) {
    for (User *U : make_early_inc_range(A->users()))
      if (auto *Marker = dyn_cast<LifetimeIntrinsic>(U))
        Marker->eraseFromParent();
    auto *Host = new AllocaInst(A->getAllocatedType(), 0, A->getArraySize(),
                                A->getAlign(), A->getName(), A->getIterator());
    auto *Cast = new AddrSpaceCastInst(Host, A->getType(), "",
                                       std::next(Host->getIterator()));
    A->replaceAllUsesWith(Cast);
    A->eraseFromParent();
  }
}

} // namespace

GlobalVariable &amdgpuLaunchSlots(Module &M) {
  constexpr const char *Name = "__gpuemu_amdgpu_launch";
  if (GlobalVariable *G = M.getGlobalVariable(Name, /*AllowInternal=*/true))
    return *G;
  // Per host thread: the executor runs the blocks of one launch at a time
  // on a host thread, and a GPU thread never changes host threads.
  auto *Ty =
      ArrayType::get(PointerType::get(M.getContext(), 0), LaunchSlotCount);
  return *new GlobalVariable(M, Ty, /*isConstant=*/false,
                             GlobalValue::InternalLinkage,
                             Constant::getNullValue(Ty), Name, nullptr,
                             GlobalValue::GeneralDynamicTLSModel);
}

Error lowerAMDGPUIntrinsics(Module &M) {
  Lowering L(M);
  std::vector<Function *> Intrinsics;
  for (Function &F : M)
    if (F.isDeclaration() && isLowered(F))
      Intrinsics.push_back(&F);
  for (Function *F : Intrinsics) {
    std::string Name = F->getName().str();
    for (User *U : make_early_inc_range(F->users())) {
      auto *Call = dyn_cast<CallInst>(U);
      if (!Call || Call->getCalledFunction() != F)
        return createStringError("the GPU emulator cannot handle a use of '" +
                                 Name + "' that is not a call");
      std::string Where = Call->getFunction()->getName().str();
      if (!L.lower(Call, Name))
        return createStringError("the GPU emulator does not support the "
                                 "intrinsic '" +
                                 Name + "' (in function '" + Where + "')");
    }
    if (F->use_empty())
      F->eraseFromParent();
  }
  std::vector<CallInst *> AsmCalls;
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      if (auto *Call = dyn_cast<CallInst>(&I))
        if (Call->isInlineAsm())
          AsmCalls.push_back(Call);
  for (CallInst *Call : AsmCalls) {
    std::string Text =
        cast<InlineAsm>(Call->getCalledOperand())->getAsmString().str();
    std::string Where = Call->getFunction()->getName().str();
    if (!lowerEmptyAsm(*Call))
      return createStringError("the GPU emulator cannot run inline assembly '" +
                               Text + "' (in function '" + Where + "')");
  }
  movePrivateAllocas(M);
  return Error::success();
}

} // namespace gpuemu
} // namespace offload
