//===- AMDGPUKernelEntries.cpp - Host entry points for amdgcn kernels -----===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// An AQL dispatch packet names a kernel by its descriptor and passes the
// arguments in a kernarg segment laid out by the kernel's signature. Each
// kernel therefore gets an entry point of one fixed signature that records
// the segment and the packet in the launch slots (what the lowered
// dispatch/kernarg/implicitarg pointers read) and calls the kernel with
// the arguments loaded from the segment, and a descriptor saying, as a code
// object's does, how much group memory and kernarg space it needs.
//
//===----------------------------------------------------------------------===//

#include "offload/GPUEmulation/EmulatorABI.h"
#include "offload/GPUEmulation/HostRetarget.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MathExtras.h"

using namespace llvm;

namespace offload {
namespace gpuemu {
namespace {

/// Writes the entry point of \p Kernel and its parameter table; returns the
/// bytes of its explicit arguments.
uint64_t addEntry(Module &M, Function &Kernel) {
  LLVMContext &Ctx = M.getContext();
  const DataLayout &DL = M.getDataLayout();
  Type *Ptr = PointerType::get(Ctx, 0);
  Function *Entry = Function::Create(
      FunctionType::get(Type::getVoidTy(Ctx), {Ptr}, false),
      GlobalValue::ExternalLinkage, EntryPrefix + Kernel.getName().str(), M);
  Entry->setVisibility(GlobalValue::DefaultVisibility);
  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", Entry));
  Type *I8 = B.getInt8Ty();
  Value *Kernarg = B.CreateLoad(Ptr, Entry->getArg(0));
  Value *Packet =
      B.CreateLoad(Ptr, B.CreateConstInBoundsGEP1_64(Ptr, Entry->getArg(0), 1));
  std::vector<Value *> Args;
  uint64_t Offset = 0;
  for (Argument &Param : Kernel.args()) {
    // A byref argument's value is in the segment; the kernel gets its
    // address.
    bool ByRef = Param.hasByRefAttr();
    Type *Ty = ByRef ? Param.getParamByRefType() : Param.getType();
    Align A =
        ByRef ? Param.getParamAlign().valueOrOne() : DL.getABITypeAlign(Ty);
    Offset = alignTo(Offset, A);
    Value *Address = B.CreateConstInBoundsGEP1_64(I8, Kernarg, Offset);
    Args.push_back(ByRef ? B.CreateAddrSpaceCast(Address, Param.getType())
                         : B.CreateAlignedLoad(Ty, Address, A));
    Offset += DL.getTypeAllocSize(Ty);
  }
  uint64_t Explicit = Offset;
  // The parameters' sizes, as for nvptx64 kernels (EmulatorABI.h).
  std::vector<uint64_t> Sizes = {Kernel.arg_size()};
  for (Argument &Param : Kernel.args())
    Sizes.push_back(DL.getTypeAllocSize(
        Param.hasByRefAttr() ? Param.getParamByRefType() : Param.getType()));
  auto *Params = new GlobalVariable(
      M, ArrayType::get(B.getInt64Ty(), Sizes.size()), /*isConstant=*/true,
      GlobalValue::ExternalLinkage, ConstantDataArray::get(Ctx, Sizes),
      ParamsPrefix + Kernel.getName().str());
  Params->setVisibility(GlobalValue::DefaultVisibility);
  GlobalVariable &Slots = amdgpuLaunchSlots(M);
  auto Store = [&](unsigned Slot, Value *V) {
    B.CreateStore(
        V, B.CreateConstInBoundsGEP2_32(Slots.getValueType(), &Slots, 0, Slot));
  };
  Store(LaunchSlotKernarg, Kernarg);
  Store(LaunchSlotPacket, Packet);
  Store(LaunchSlotImplicit,
        B.CreateConstInBoundsGEP1_64(I8, Kernarg, alignTo(Explicit, 8)));
  B.CreateCall(&Kernel, Args);
  B.CreateRetVoid();
  return Explicit;
}

void addDescriptor(Module &M, Function &Kernel, uint64_t ExplicitBytes,
                   uint64_t GroupBytes) {
  LLVMContext &Ctx = M.getContext();
  SmallVector<uint32_t, KernelDescriptorBytes / 4> Words(
      KernelDescriptorBytes / 4, 0);
  Words[0] = uint32_t(GroupBytes);
  Words[1] = 0; // private memory is the GPU thread's host stack
  Words[2] = uint32_t(alignTo(ExplicitBytes, 8) + ImplicitArgumentBytes);
  Constant *Init = ConstantDataArray::get(Ctx, Words);
  auto *Descriptor = new GlobalVariable(
      M, Init->getType(), /*isConstant=*/true, GlobalValue::ExternalLinkage,
      Init, Kernel.getName() + KernelDescriptorSuffix);
  Descriptor->setVisibility(GlobalValue::DefaultVisibility);
  Descriptor->setAlignment(Align(64));
}

} // namespace

Error addAMDGPUKernelEntries(Module &M) {
  uint64_t GroupBytes = 0;
  if (auto *Shared = M.getGlobalVariable(SharedSizeSymbol))
    if (auto *Size = dyn_cast<ConstantInt>(Shared->getInitializer()))
      GroupBytes = Size->getZExtValue();
  std::vector<Function *> Kernels;
  for (Function &F : M)
    if (!F.isDeclaration() && F.getCallingConv() == CallingConv::AMDGPU_KERNEL)
      Kernels.push_back(&F);
  for (Function *Kernel : Kernels) {
    if (!Kernel->getReturnType()->isVoidTy())
      return createStringError("kernel '" + Kernel->getName().str() +
                               "' does not return void");
    Kernel->setCallingConv(CallingConv::C);
    for (User *U : Kernel->users())
      if (auto *Call = dyn_cast<CallBase>(U))
        Call->setCallingConv(CallingConv::C);
    addDescriptor(M, *Kernel, addEntry(M, *Kernel), GroupBytes);
  }
  return Error::success();
}

} // namespace gpuemu
} // namespace offload
