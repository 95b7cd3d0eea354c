//===- NVPTXMathLowering.cpp - NVVM arithmetic intrinsics to host IR ------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The arithmetic llvm.nvvm.* intrinsics: every one CUDA's libdevice calls,
// and those clang's CUDA device function headers emit for the same
// operations. Their names read <op>[.<rounding>][.approx][.ftz][.<type>],
// and conversions <from>2<to>.<rounding>[.ftz].
//
// - Round-to-nearest operations are host IR.
// - Other rounding modes (.rz, .rm, .rp) call the executor, which changes
//   the host's rounding mode around the operation (DeviceMath.cpp);
//   float-to-integer conversions round first, then saturate, as cvt does
//   (NaN gives 0).
// - .approx functions get the host's correctly rounded ones: at least as
//   accurate as the GPU promises, so a program that is right on the GPU
//   is right here.
// - .ftz flushes subnormal inputs and results of single precision to a
//   zero of the same sign, as the GPU does.
//
//===----------------------------------------------------------------------===//

#include "offload/GPUEmulation/EmulatorABI.h"
#include "offload/GPUEmulation/HostRetarget.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"

#include <optional>
#include <string>

using namespace llvm;

namespace offload {
namespace gpuemu {
namespace {

/// An intrinsic's name taken apart.
struct MathName {
  StringRef Op;
  StringRef Type; // "f", "d", "f32", "i", "ull", ... or empty
  std::optional<RoundingMode> Mode;
  bool Approx = false;
  bool Ftz = false;
  bool Nan = false; // fmin.nan / fmax.nan: NaN wins
};

std::optional<MathName> parseName(StringRef Name) {
  SmallVector<StringRef, 6> Parts;
  Name.split(Parts, '.');
  MathName N;
  N.Op = Parts.front();
  for (StringRef Part : ArrayRef(Parts).drop_front()) {
    std::optional<RoundingMode> Mode =
        StringSwitch<std::optional<RoundingMode>>(Part)
            .Case("rn", RoundingMode::NearestEven)
            .Case("rz", RoundingMode::TowardZero)
            .Case("rm", RoundingMode::Down)
            .Case("rp", RoundingMode::Up)
            .Default(std::nullopt);
    if (Mode)
      N.Mode = Mode;
    else if (Part == "approx" || Part == "full") // div.full: 2 ulps
      N.Approx = true;
    else if (Part == "ftz")
      N.Ftz = true;
    else if (Part == "nan")
      N.Nan = true;
    else if (N.Type.empty())
      N.Type = Part;
    else
      return std::nullopt;
  }
  return N;
}

/// Whether \p Op is <from>2<to> (ex2 and lg2 are not).
bool isConversion(StringRef Op) {
  auto [From, To] = Op.split('2');
  auto IsType = [](StringRef T) {
    return T == "f" || T == "d" || T == "h" || T == "i" || T == "ui" ||
           T == "ll" || T == "ull";
  };
  return IsType(From) && IsType(To);
}

class MathLowering {
public:
  MathLowering(IRBuilderBase &B, CallInst &Call, const MathName &N)
      : B(B), Call(Call), N(N), M(*Call.getModule()), I32(B.getInt32Ty()),
        I64(B.getInt64Ty()) {}

  Value *lower() {
    SmallVector<Value *, 3> Args;
    for (Value *Arg : Call.args())
      Args.push_back(N.Ftz ? flush(Arg) : Arg);
    Value *Result = isConversion(N.Op) ? conversion(Args[0])
                    : N.Mode           ? rounded(Args)
                                       : plain(Args);
    if (!Result || Result->getType() != Call.getType())
      return nullptr;
    return N.Ftz ? flush(Result) : Result;
  }

private:
  /// A single-precision subnormal becomes a zero of its sign; other values
  /// and types are left alone.
  Value *flush(Value *V) {
    if (!V->getType()->isFloatTy())
      return V;
    Value *Abs = B.CreateUnaryIntrinsic(Intrinsic::fabs, V);
    Value *Tiny = B.CreateFCmpOLT(
        Abs, ConstantFP::get(V->getType(), 0x1p-126)); // FLT_MIN
    Value *Zero = B.CreateBinaryIntrinsic(
        Intrinsic::copysign, ConstantFP::get(V->getType(), 0.0), V);
    return B.CreateSelect(Tiny, Zero, V);
  }

  FunctionCallee callee(StringRef Name, Type *Ret, ArrayRef<Type *> Params) {
    return M.getOrInsertFunction(Name, FunctionType::get(Ret, Params, false));
  }

  Value *unary(Intrinsic::ID ID, Value *X) {
    return B.CreateUnaryIntrinsic(ID, X);
  }

  Value *one(Type *Ty) { return ConstantFP::get(Ty, 1.0); }

  /// <op>.<rn|rz|rm|rp>: host IR to nearest, the executor otherwise.
  Value *rounded(ArrayRef<Value *> Args) {
    std::optional<RoundedOp> Op = StringSwitch<std::optional<RoundedOp>>(N.Op)
                                      .Cases({"add", "sub"}, RoundedOp::Add)
                                      .Case("mul", RoundedOp::Mul)
                                      .Case("div", RoundedOp::Div)
                                      .Case("fma", RoundedOp::Fma)
                                      .Case("sqrt", RoundedOp::Sqrt)
                                      .Case("rcp", RoundedOp::Rcp)
                                      .Default(std::nullopt);
    Type *Ty = Call.getType();
    if (!Op || !Ty->isFloatingPointTy() || Args.empty())
      return nullptr;
    SmallVector<Value *, 3> Operands(Args);
    if (N.Op == "sub")
      Operands[1] = B.CreateFNeg(Operands[1]);
    if (*N.Mode == RoundingMode::NearestEven)
      return nearest(*Op, Operands);
    // a - b is a + (-b) exactly, so one helper operation serves both.
    while (Operands.size() < 3)
      Operands.push_back(ConstantFP::get(Ty, 0.0));
    StringRef Helper =
        Ty->isFloatTy() ? "__gpuemu_rounded_f32" : "__gpuemu_rounded_f64";
    return B.CreateCall(callee(Helper, Ty, {I32, I32, Ty, Ty, Ty}),
                        {B.getInt32(uint32_t(*Op)),
                         B.getInt32(uint32_t(*N.Mode)), Operands[0],
                         Operands[1], Operands[2]});
  }

  Value *nearest(RoundedOp Op, ArrayRef<Value *> A) {
    switch (Op) {
    case RoundedOp::Add:
      return B.CreateFAdd(A[0], A[1]);
    case RoundedOp::Mul:
      return B.CreateFMul(A[0], A[1]);
    case RoundedOp::Div:
      return B.CreateFDiv(A[0], A[1]);
    case RoundedOp::Fma:
      return B.CreateIntrinsic(Intrinsic::fma, {A[0]->getType()},
                               {A[0], A[1], A[2]});
    case RoundedOp::Sqrt:
      return unary(Intrinsic::sqrt, A[0]);
    case RoundedOp::Rcp:
      return B.CreateFDiv(one(A[0]->getType()), A[0]);
    }
    return nullptr;
  }

  /// Operations without a rounding mode in their name.
  Value *plain(ArrayRef<Value *> A) {
    if (A.empty())
      return nullptr;
    if (!A[0]->getType()->isFloatingPointTy())
      return integer(A);
    // The approximate ones, as their correctly rounded counterparts.
    if (N.Approx || N.Op == "rsqrt")
      if (Value *V = approximate(A))
        return V;
    Intrinsic::ID ID = StringSwitch<Intrinsic::ID>(N.Op)
                           .Case("fabs", Intrinsic::fabs)
                           .Case("ceil", Intrinsic::ceil)
                           .Case("floor", Intrinsic::floor)
                           .Case("trunc", Intrinsic::trunc)
                           .Case("sqrt", Intrinsic::sqrt)
                           // cvt.rni: to the nearest integer, halfway cases
                           // to the even one (libdevice's rint).
                           .Case("round", Intrinsic::roundeven)
                           .Default(Intrinsic::not_intrinsic);
    if (ID != Intrinsic::not_intrinsic)
      return unary(ID, A[0]);
    if ((N.Op == "fmin" || N.Op == "fmax") && A.size() == 2) {
      // PTX min/max return the other operand for one NaN (minnum); the
      // .NaN variants propagate it (minimum).
      bool Min = N.Op == "fmin";
      ID = N.Nan ? (Min ? Intrinsic::minimum : Intrinsic::maximum)
                 : (Min ? Intrinsic::minnum : Intrinsic::maxnum);
      return B.CreateBinaryIntrinsic(ID, A[0], A[1]);
    }
    if (N.Op == "saturate") {
      // Clamped to [0, 1]; NaN (every comparison false) gives 0.
      Type *Ty = A[0]->getType();
      Value *Zero = ConstantFP::get(Ty, 0.0);
      Value *Upper =
          B.CreateSelect(B.CreateFCmpOLT(A[0], one(Ty)), A[0], one(Ty));
      return B.CreateSelect(B.CreateFCmpOGT(A[0], Zero), Upper, Zero);
    }
    return nullptr;
  }

  Value *approximate(ArrayRef<Value *> A) {
    Type *Ty = A[0]->getType();
    if (N.Op == "rsqrt")
      return B.CreateFDiv(one(Ty), unary(Intrinsic::sqrt, A[0]));
    if (N.Op == "sqrt")
      return unary(Intrinsic::sqrt, A[0]);
    if (N.Op == "rcp")
      return B.CreateFDiv(one(Ty), A[0]);
    if (N.Op == "div" && A.size() == 2)
      return B.CreateFDiv(A[0], A[1]);
    Intrinsic::ID ID = StringSwitch<Intrinsic::ID>(N.Op)
                           .Case("sin", Intrinsic::sin)
                           .Case("cos", Intrinsic::cos)
                           .Case("ex2", Intrinsic::exp2)
                           .Case("lg2", Intrinsic::log2)
                           .Default(Intrinsic::not_intrinsic);
    return ID == Intrinsic::not_intrinsic ? nullptr : unary(ID, A[0]);
  }

  /// mulhi, sad and prmt.
  Value *integer(ArrayRef<Value *> A) {
    bool Signed = N.Type == "i" || N.Type == "ll";
    if (N.Op == "mulhi" && A.size() == 2) {
      // The high half of the full product.
      Type *Ty = A[0]->getType();
      unsigned Bits = Ty->getIntegerBitWidth();
      Type *Wide = B.getIntNTy(2 * Bits);
      auto Extend = [&](Value *V) {
        return Signed ? B.CreateSExt(V, Wide) : B.CreateZExt(V, Wide);
      };
      Value *Product = B.CreateMul(Extend(A[0]), Extend(A[1]));
      return B.CreateTrunc(B.CreateLShr(Product, Bits), Ty);
    }
    if (N.Op == "sad" && A.size() == 3) {
      // |a - b| + c, the difference taken in the operands' signedness.
      Value *Greater =
          Signed ? B.CreateICmpSGT(A[0], A[1]) : B.CreateICmpUGT(A[0], A[1]);
      Value *Diff = B.CreateSelect(Greater, B.CreateSub(A[0], A[1]),
                                   B.CreateSub(A[1], A[0]));
      return B.CreateAdd(Diff, A[2]);
    }
    if (N.Op == "prmt" && A.size() == 3)
      return permuteBytes(A[0], A[1], A[2]);
    return nullptr;
  }

  /// prmt.b32 in its default mode: byte I of the result is the byte of
  /// {b, a} (a the low four) that nibble I of the selector names, or, with
  /// the nibble's bit 3 set, that byte's sign bit replicated.
  Value *permuteBytes(Value *A, Value *Bv, Value *Selector) {
    Value *Pool = B.CreateOr(B.CreateZExt(A, I64),
                             B.CreateShl(B.CreateZExt(Bv, I64), 32));
    Value *Result = B.getInt32(0);
    for (unsigned I = 0; I < 4; ++I) {
      Value *Nibble = B.CreateAnd(B.CreateLShr(Selector, 4 * I), 0xf);
      Value *Index = B.CreateZExt(B.CreateAnd(Nibble, 7), I64);
      Value *Byte = B.CreateTrunc(
          B.CreateAnd(B.CreateLShr(Pool, B.CreateMul(Index, B.getInt64(8))),
                      0xff),
          I32);
      Value *Sign =
          B.CreateSelect(B.CreateICmpNE(B.CreateAnd(Byte, 0x80), B.getInt32(0)),
                         B.getInt32(0xff), B.getInt32(0));
      Value *Replicate = B.CreateICmpNE(B.CreateAnd(Nibble, 8), B.getInt32(0));
      Byte = B.CreateSelect(Replicate, Sign, Byte);
      Result = B.CreateOr(Result, B.CreateShl(Byte, 8 * I));
    }
    return Result;
  }

  /// <from>2<to>: f and d are float and double, h half, i/ui 32-bit and
  /// ll/ull 64-bit integers.
  Value *conversion(Value *X) {
    auto [From, To] = N.Op.split('2');
    Type *Ty = Call.getType();
    RoundingMode Mode = N.Mode.value_or(RoundingMode::NearestEven);
    if ((From == "f" || From == "d") && Ty->isIntegerTy() && To != "h") {
      // cvt.<rni|rzi|rmi|rpi>: round to an integral value, then saturate.
      Intrinsic::ID Round =
          Mode == RoundingMode::NearestEven  ? Intrinsic::roundeven
          : Mode == RoundingMode::TowardZero ? Intrinsic::trunc
          : Mode == RoundingMode::Down       ? Intrinsic::floor
                                             : Intrinsic::ceil;
      bool Unsigned = To.starts_with("u");
      return B.CreateIntrinsic(Unsigned ? Intrinsic::fptoui_sat
                                        : Intrinsic::fptosi_sat,
                               {Ty, X->getType()}, {unary(Round, X)});
    }
    if (From == "f" && To == "h") // The half's bits, to nearest.
      return B.CreateBitCast(B.CreateFPTrunc(X, B.getHalfTy()), Ty);
    if (From == "d" && To == "f") {
      if (Mode == RoundingMode::NearestEven)
        return B.CreateFPTrunc(X, Ty);
      return roundedTo(ConvertFrom::Double, Mode, B.CreateBitCast(X, I64));
    }
    if (!X->getType()->isIntegerTy() || !Ty->isFloatingPointTy())
      return nullptr;
    bool Unsigned = From.starts_with("u");
    if (Mode == RoundingMode::NearestEven)
      return Unsigned ? B.CreateUIToFP(X, Ty) : B.CreateSIToFP(X, Ty);
    // Widening to 64 bits is exact; the helper rounds once.
    Value *Wide = Unsigned ? B.CreateZExt(X, I64) : B.CreateSExt(X, I64);
    return roundedTo(Unsigned ? ConvertFrom::Unsigned : ConvertFrom::Signed,
                     Mode, Wide);
  }

  Value *roundedTo(ConvertFrom From, RoundingMode Mode, Value *Bits) {
    Type *Ty = Call.getType();
    StringRef Helper =
        Ty->isFloatTy() ? "__gpuemu_rounded_to_f32" : "__gpuemu_rounded_to_f64";
    return B.CreateCall(
        callee(Helper, Ty, {I32, I32, I64}),
        {B.getInt32(uint32_t(From)), B.getInt32(uint32_t(Mode)), Bits});
  }

  IRBuilderBase &B;
  CallInst &Call;
  const MathName &N;
  Module &M;
  Type *I32, *I64;
};

/// \p Text without any white space, which is how the inline assembly
/// below is recognised: whole, or not at all.
std::string withoutSpaces(StringRef Text) {
  std::string Out;
  for (char C : Text)
    if (!isSpace(C))
      Out += C;
  return Out;
}

/// The multi-word integer arithmetic libdevice writes in inline assembly
/// (its trigonometric argument reduction and 64-bit division), by the
/// width of its operands: the 32-bit multiply-add into 64 bits, and 128-bit
/// add, subtract, multiply and multiply-add of 64-bit halves.
enum class WideOp { MulAdd32, Add128, Sub128, Mul128, MulAdd128 };

std::optional<WideOp> wideOperation(StringRef Packed) {
  return StringSwitch<std::optional<WideOp>>(Packed)
      .Case("{mad.lo.cc.u32$0,$2,$3,$4;madc.hi.u32$1,$2,$3,0;}",
            WideOp::MulAdd32)
      .Case("{.reg.u32r0,r1,r2,r3,a0,a1,a2,a3,b0,b1,b2,b3;mov.b64{a0,a1},$2;"
            "mov.b64{a2,a3},$3;mov.b64{b0,b1},$4;mov.b64{b2,b3},$5;add.cc."
            "u32r0,a0,b0;addc.cc.u32r1,a1,b1;addc.cc.u32r2,a2,b2;addc.u32r3,"
            "a3,b3;mov.b64$0,{r0,r1};mov.b64$1,{r2,r3};}",
            WideOp::Add128)
      .Case("{.reg.u32r0,r1,r2,r3,a0,a1,a2,a3,b0,b1,b2,b3;mov.b64{a0,a1},$2;"
            "mov.b64{a2,a3},$3;mov.b64{b0,b1},$4;mov.b64{b2,b3},$5;sub.cc."
            "u32r0,a0,b0;subc.cc.u32r1,a1,b1;subc.cc.u32r2,a2,b2;subc.u32r3,"
            "a3,b3;mov.b64$0,{r0,r1};mov.b64$1,{r2,r3};}",
            WideOp::Sub128)
      .Case("{.reg.u32r0,r1,r2,r3,alo,ahi,blo,bhi;mov.b64{alo,ahi},$2;mov."
            "b64{blo,bhi},$3;mul.lo.u32r0,alo,blo;mul.hi.u32r1,alo,blo;mad.lo."
            "cc.u32r1,alo,bhi,r1;madc.hi.u32r2,alo,bhi,0;mad.lo.cc.u32r1,ahi,"
            "blo,r1;madc.hi.cc.u32r2,ahi,blo,r2;madc.hi.u32r3,ahi,bhi,0;mad."
            "lo.cc.u32r2,ahi,bhi,r2;addc.u32r3,r3,0;mov.b64$0,{r0,r1};mov.b64"
            "$1,{r2,r3};}",
            WideOp::Mul128)
      .Case("{.reg.u32r0,r1,r2,r3,alo,ahi,blo,bhi,clo,chi;mov.b64{alo,ahi},$2"
            ";mov.b64{blo,bhi},$3;mov.b64{clo,chi},$4;mad.lo.cc.u32r0,alo,blo,"
            "clo;madc.hi.cc.u32r1,alo,blo,chi;madc.hi.u32r2,alo,bhi,0;mad.lo."
            "cc.u32r1,alo,bhi,r1;madc.hi.cc.u32r2,ahi,blo,r2;madc.hi.u32r3,ahi"
            ",bhi,0;mad.lo.cc.u32r1,ahi,blo,r1;madc.lo.cc.u32r2,ahi,bhi,r2;"
            "addc.u32r3,r3,0;mov.b64$0,{r0,r1};mov.b64$1,{r2,r3};}",
            WideOp::MulAdd128)
      .Default(std::nullopt);
}

/// The wide operation's result, split into the low and high halves the
/// assembly's two outputs are.
Value *lowerWide(IRBuilderBase &B, CallInst &Call, WideOp Op) {
  auto *Pair = dyn_cast<StructType>(Call.getType());
  if (!Pair || Pair->getNumElements() != 2)
    return nullptr;
  Type *Half = Pair->getElementType(0);
  unsigned Bits = Half->getIntegerBitWidth();
  Type *Wide = B.getIntNTy(2 * Bits);
  auto Arg = [&](unsigned I) {
    return B.CreateZExt(Call.getArgOperand(I), Wide);
  };
  // Two 64-bit halves, low first, as one 128-bit number.
  auto Joined = [&](unsigned I) {
    return B.CreateOr(Arg(I), B.CreateShl(Arg(I + 1), Bits));
  };
  Value *Result = nullptr;
  switch (Op) {
  case WideOp::MulAdd32:
  case WideOp::MulAdd128:
    Result = B.CreateAdd(B.CreateMul(Arg(0), Arg(1)), Arg(2));
    break;
  case WideOp::Mul128:
    Result = B.CreateMul(Arg(0), Arg(1));
    break;
  case WideOp::Add128:
    Result = B.CreateAdd(Joined(0), Joined(2));
    break;
  case WideOp::Sub128:
    Result = B.CreateSub(Joined(0), Joined(2));
    break;
  }
  Value *Out = PoisonValue::get(Pair);
  Out = B.CreateInsertValue(Out, B.CreateTrunc(Result, Half), 0);
  return B.CreateInsertValue(
      Out, B.CreateTrunc(B.CreateLShr(Result, Bits), Half), 1);
}

/// A single PTX instruction "<op>.<type> $0, $1[, $2];" as the intrinsic
/// of the same name (sub.rz.ftz.f32 as llvm.nvvm.sub.rz.ftz.f), and
/// bfind.shiftamt.u32.
Value *lowerSingleInstruction(IRBuilderBase &B, CallInst &Call,
                              StringRef Packed) {
  if (Packed == "bfind.shiftamt.u32$0,$1;") {
    // The left shift that brings the highest set bit to the top; all ones
    // for 0.
    Value *X = Call.getArgOperand(0);
    Value *Leading = B.CreateBinaryIntrinsic(Intrinsic::ctlz, X, B.getTrue());
    return B.CreateSelect(B.CreateICmpEQ(X, B.getInt32(0)), B.getInt32(~0u),
                          Leading);
  }
  auto [Mnemonic, Operands] = Packed.split('$');
  if (Operands != "0,$1;" && Operands != "0,$1,$2;")
    return nullptr;
  unsigned Inputs = Operands == "0,$1;" ? 1 : 2;
  if (Call.arg_size() != Inputs)
    return nullptr;
  std::string Name = Mnemonic.str();
  if (StringRef(Name).ends_with(".f32"))
    Name.replace(Name.size() - 4, 4, ".f");
  else if (StringRef(Name).ends_with(".f64"))
    Name.replace(Name.size() - 4, 4, ".d");
  else
    return nullptr;
  return lowerNVPTXMath(B, Call, Name);
}

} // namespace

Value *lowerLibdeviceAsm(IRBuilderBase &B, CallInst &Call, StringRef Text) {
  std::string Packed = withoutSpaces(Text);
  if (std::optional<WideOp> Op = wideOperation(Packed))
    return lowerWide(B, Call, *Op);
  if (Packed == "{.reg.pred__$$temp3;setp.equ.f64__$$temp3,$1,$2;selp.f64$0,"
                "$3,$4,__$$temp3;}" &&
      Call.arg_size() == 4) {
    // Equal or unordered chooses the first value.
    Value *Same = B.CreateFCmpUEQ(Call.getArgOperand(0), Call.getArgOperand(1));
    return B.CreateSelect(Same, Call.getArgOperand(2), Call.getArgOperand(3));
  }
  return lowerSingleInstruction(B, Call, Packed);
}

Value *lowerNVPTXMath(IRBuilderBase &B, CallInst &Call, StringRef Name) {
  std::optional<MathName> N = parseName(Name);
  if (!N)
    return nullptr;
  return MathLowering(B, Call, *N).lower();
}

} // namespace gpuemu
} // namespace offload
