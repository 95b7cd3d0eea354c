//===- NVPTXIntrinsicLowering.cpp - NVPTX instructions to emulator calls --===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Each llvm.nvvm.* intrinsic the device runtime and clang's OpenMP code
// generation use becomes a call of the emulator (EmulatorABI.h). The table
// is by name: an intrinsic that is not in it is an error, because running
// it as something else would give wrong results silently.
//
//===----------------------------------------------------------------------===//

#include "offload/GPUEmulation/EmulatorABI.h"
#include "offload/GPUEmulation/HostRetarget.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"

#include <optional>

using namespace llvm;

namespace offload {
namespace gpuemu {
namespace {

/// Special registers by the suffix of llvm.nvvm.read.ptx.sreg.<suffix>.
std::optional<SReg> specialRegister(StringRef Suffix) {
  static const StringMap<SReg> Registers = {
      {"tid.x", SReg::TidX},
      {"tid.y", SReg::TidY},
      {"tid.z", SReg::TidZ},
      {"ntid.x", SReg::NTidX},
      {"ntid.y", SReg::NTidY},
      {"ntid.z", SReg::NTidZ},
      {"ctaid.x", SReg::CtaIdX},
      {"ctaid.y", SReg::CtaIdY},
      {"ctaid.z", SReg::CtaIdZ},
      {"nctaid.x", SReg::NCtaIdX},
      {"nctaid.y", SReg::NCtaIdY},
      {"nctaid.z", SReg::NCtaIdZ},
      {"laneid", SReg::LaneId},
      {"warpid", SReg::WarpId},
      {"nwarpid", SReg::NWarpId},
      {"smid", SReg::SmId},
      {"nsmid", SReg::NSmId},
      {"warpsize", SReg::WarpSize},
      {"globaltimer", SReg::GlobalTimer},
      {"clock", SReg::Clock},
      {"clock64", SReg::Clock64},
      {"lanemask.eq", SReg::LaneMaskEq},
      {"lanemask.lt", SReg::LaneMaskLt},
      {"lanemask.le", SReg::LaneMaskLe},
      {"lanemask.gt", SReg::LaneMaskGt},
      {"lanemask.ge", SReg::LaneMaskGe},
      // Every launch is a grid of one-block clusters (no cluster launch).
      {"clusterid.x", SReg::CtaIdX},
      {"clusterid.y", SReg::CtaIdY},
      {"clusterid.z", SReg::CtaIdZ},
      {"nclusterid.x", SReg::NCtaIdX},
      {"nclusterid.y", SReg::NCtaIdY},
      {"nclusterid.z", SReg::NCtaIdZ},
      {"dynamic_smem_size", SReg::DynamicSharedSize}};
  auto It = Registers.find(Suffix);
  if (It == Registers.end())
    return std::nullopt;
  return It->second;
}

/// A block's place in its cluster, the same for every block as clusters
/// are of one block (cluster.ctaid, cluster.nctaid, cluster.ctarank,
/// cluster.nctarank).
std::optional<uint32_t> clusterConstant(StringRef Suffix) {
  if (Suffix.starts_with("cluster.nctaid.") || Suffix == "cluster.nctarank")
    return 1;
  if (Suffix.starts_with("cluster.ctaid.") || Suffix == "cluster.ctarank")
    return 0;
  return std::nullopt;
}

class Lowering {
public:
  explicit Lowering(Module &M)
      : M(M), Ctx(M.getContext()), I32(Type::getInt32Ty(Ctx)),
        I64(Type::getInt64Ty(Ctx)), Void(Type::getVoidTy(Ctx)) {}

  /// Rewrites \p Call of \p Name (an llvm.nvvm intrinsic or llvm.trap);
  /// false when the intrinsic has no emulation.
  bool lower(CallInst *Call, StringRef Name) {
    IRBuilder<> B(Call);
    Value *Result = nullptr;
    if (Name.consume_front("llvm.nvvm.read.ptx.sreg.")) {
      if (std::optional<uint32_t> Value = clusterConstant(Name)) {
        Result = ConstantInt::get(Call->getType(), *Value);
      } else if (std::optional<SReg> Reg = specialRegister(Name)) {
        Result = B.CreateZExtOrTrunc(sreg(B, *Reg), Call->getType());
      } else {
        return false;
      }
    } else if (Name == "llvm.nvvm.is_explicit_cluster") {
      Result = B.getFalse();
    } else if (Name == "llvm.trap" || Name == "llvm.ubsantrap" ||
               Name == "llvm.nvvm.trap" || Name == "llvm.nvvm.exit") {
      // exit would end only this thread on a GPU; OpenMP code never uses
      // it, so it is treated as the fault it almost always signals.
      B.CreateCall(callee("__gpuemu_trap", Void, {}));
    } else if (Name == "llvm.nvvm.barrier0" ||
               Name == "llvm.nvvm.barrier.cta.sync.aligned.all" ||
               Name == "llvm.nvvm.barrier.cta.sync.all" ||
               Name == "llvm.nvvm.barrier.sync") {
      Value *Id = Call->arg_size() ? Call->getArgOperand(0) : B.getInt32(0);
      B.CreateCall(callee("__gpuemu_barrier", Void, {I32, I32}),
                   {Id, B.getInt32(0)});
    } else if (Name == "llvm.nvvm.barrier.cta.sync.aligned.count" ||
               Name == "llvm.nvvm.barrier.cta.sync.count" ||
               Name == "llvm.nvvm.barrier.sync.cnt") {
      B.CreateCall(callee("__gpuemu_barrier", Void, {I32, I32}),
                   {Call->getArgOperand(0), Call->getArgOperand(1)});
    } else if (Name == "llvm.nvvm.bar.warp.sync") {
      B.CreateCall(callee("__gpuemu_syncwarp", Void, {I32}),
                   {Call->getArgOperand(0)});
    } else if (Name == "llvm.nvvm.activemask") {
      Result = B.CreateCall(callee("__gpuemu_activemask", I32, {}));
    } else if (Name.starts_with("llvm.nvvm.membar.") ||
               Name.starts_with("llvm.nvvm.fence.sc.") ||
               Name.starts_with("llvm.nvvm.fence.acq_rel.")) {
      B.CreateFence(AtomicOrdering::SequentiallyConsistent);
    } else if (Name == "llvm.nvvm.nanosleep") {
      B.CreateCall(callee("__gpuemu_yield", Void, {}));
    } else if (Name == "llvm.nvvm.d2i.lo" || Name == "llvm.nvvm.d2i.hi") {
      // The halves of a double's bits (libdevice's and compiler-rt's
      // complex division use them).
      Value *Bits = B.CreateBitCast(Call->getArgOperand(0), I64);
      if (Name == "llvm.nvvm.d2i.hi")
        Bits = B.CreateLShr(Bits, 32);
      Result = B.CreateTrunc(Bits, I32);
    } else if (Name == "llvm.nvvm.lohi.i2d") {
      Value *Lo = B.CreateZExt(Call->getArgOperand(0), I64);
      Value *Hi = B.CreateShl(B.CreateZExt(Call->getArgOperand(1), I64), 32);
      Result = B.CreateBitCast(B.CreateOr(Lo, Hi), Call->getType());
    } else if (Name.consume_front("llvm.nvvm.shfl.sync.")) {
      Result = lowerShuffle(B, Call, Name);
      if (!Result)
        return false;
    } else if (Name.consume_front("llvm.nvvm.vote.")) {
      Result = lowerVote(B, Call, Name);
      if (!Result)
        return false;
    } else if (Name.consume_front("llvm.nvvm.")) {
      Result = lowerNVPTXMath(B, *Call, Name);
      if (!Result)
        return false;
    } else {
      return false;
    }
    if (Result)
      Call->replaceAllUsesWith(Result);
    Call->eraseFromParent();
    return true;
  }

  /// The inline assembly the NVPTX device runtime uses; false for any other.
  bool lowerAsm(CallInst *Call, const InlineAsm &Asm) {
    if (lowerEmptyAsm(*Call))
      return true;
    StringRef Text = StringRef(Asm.getAsmString()).trim();
    IRBuilder<> B(Call);
    if (Text != "mov.u32 $0, %dynamic_smem_size;") {
      Value *Math = lowerLibdeviceAsm(B, *Call, Text);
      if (!Math)
        return false;
      Call->replaceAllUsesWith(Math);
      Call->eraseFromParent();
      return true;
    }
    Call->replaceAllUsesWith(
        B.CreateZExtOrTrunc(sreg(B, SReg::DynamicSharedSize), Call->getType()));
    Call->eraseFromParent();
    return true;
  }

  FunctionCallee callee(StringRef Name, Type *Ret, ArrayRef<Type *> Params) {
    return M.getOrInsertFunction(Name, FunctionType::get(Ret, Params, false));
  }

private:
  Value *sreg(IRBuilder<> &B, SReg Reg) {
    return B.CreateCall(callee("__gpuemu_sreg", I64, {I32}),
                        {B.getInt32(uint32_t(Reg))});
  }

  /// shfl.sync.<kind>.<i32|f32>[p](mask, value, lane/delta, clamp).
  Value *lowerShuffle(IRBuilder<> &B, CallInst *Call, StringRef Name) {
    std::optional<ShuffleKind> Kind;
    if (Name.consume_front("down."))
      Kind = ShuffleKind::Down;
    else if (Name.consume_front("up."))
      Kind = ShuffleKind::Up;
    else if (Name.consume_front("bfly."))
      Kind = ShuffleKind::Butterfly;
    else if (Name.consume_front("idx."))
      Kind = ShuffleKind::Index;
    bool WithPredicate = Name.consume_back("p");
    if (!Kind || (Name != "i32" && Name != "f32"))
      return nullptr;
    Value *Input = Call->getArgOperand(1);
    Type *ValueTy = Input->getType();
    Value *Bits = B.CreateBitCast(Input, I32);
    Value *Packed =
        B.CreateCall(callee("__gpuemu_shfl", I64, {I32, I32, I32, I32, I32}),
                     {B.getInt32(uint32_t(*Kind)), Call->getArgOperand(0), Bits,
                      Call->getArgOperand(2), Call->getArgOperand(3)});
    Value *Shuffled = B.CreateBitCast(B.CreateTrunc(Packed, I32), ValueTy);
    if (!WithPredicate)
      return Shuffled;
    Value *InRange = B.CreateTrunc(B.CreateLShr(Packed, 32), B.getInt1Ty());
    Value *Pair = PoisonValue::get(Call->getType());
    Pair = B.CreateInsertValue(Pair, Shuffled, 0);
    return B.CreateInsertValue(Pair, InRange, 1);
  }

  /// vote.<all|any|uni|ballot>.sync(mask, predicate).
  Value *lowerVote(IRBuilder<> &B, CallInst *Call, StringRef Name) {
    std::optional<VoteKind> Kind;
    if (Name == "all.sync")
      Kind = VoteKind::All;
    else if (Name == "any.sync")
      Kind = VoteKind::Any;
    else if (Name == "uni.sync")
      Kind = VoteKind::Uniform;
    else if (Name == "ballot.sync")
      Kind = VoteKind::Ballot;
    if (!Kind)
      return nullptr;
    Value *Predicate = B.CreateZExt(Call->getArgOperand(1), I32);
    Value *Answer = B.CreateCall(
        callee("__gpuemu_vote", I32, {I32, I32, I32}),
        {B.getInt32(uint32_t(*Kind)), Call->getArgOperand(0), Predicate});
    return B.CreateZExtOrTrunc(Answer, Call->getType());
  }

  Module &M;
  LLVMContext &Ctx;
  Type *I32, *I64, *Void;
};

std::string describeUse(const CallInst &Call) {
  return "in function '" + Call.getFunction()->getName().str() + "'";
}

} // namespace

Error lowerNVPTXIntrinsics(Module &M) {
  Lowering L(M);
  std::vector<Function *> Intrinsics;
  for (Function &F : M)
    if (F.isDeclaration() &&
        (F.getName().starts_with("llvm.nvvm.") || F.getName() == "llvm.trap" ||
         F.getName() == "llvm.ubsantrap"))
      Intrinsics.push_back(&F);
  for (Function *F : Intrinsics) {
    std::string Name = F->getName().str();
    for (User *U : make_early_inc_range(F->users())) {
      auto *Call = dyn_cast<CallInst>(U);
      if (!Call || Call->getCalledFunction() != F)
        return createStringError("the GPU emulator cannot handle a use of '" +
                                 Name + "' that is not a call");
      if (!L.lower(Call, Name))
        return createStringError("the GPU emulator does not support the "
                                 "intrinsic '" +
                                 Name + "' (" + describeUse(*Call) + ")");
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
    const auto &Asm = *cast<InlineAsm>(Call->getCalledOperand());
    std::string Where = describeUse(*Call);
    if (!L.lowerAsm(Call, Asm))
      return createStringError("the GPU emulator cannot run inline assembly '" +
                               Asm.getAsmString() + "' (" + Where + ")");
  }

  // The PTX system calls: the emulator provides them under its own names
  // (EmulatorABI.h: __gpuemu_ and the name without leading underscores), so
  // that a device malloc does not reach the host's allocator.
  for (StringRef Name : {"vprintf", "malloc", "free", "__assertfail"})
    if (Function *F = M.getFunction(Name); F && F->isDeclaration())
      F->setName("__gpuemu_" + Name.ltrim('_'));
  return Error::success();
}

} // namespace gpuemu
} // namespace offload
