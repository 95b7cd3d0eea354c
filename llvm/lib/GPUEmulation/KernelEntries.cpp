//===- KernelEntries.cpp - Host entry points for GPU kernels --------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// cuLaunchKernel passes a kernel's arguments as an array of pointers to
// their values, and only the image knows their types (a cubin records them
// for the driver). Each kernel therefore gets an entry point of one fixed
// signature that loads the arguments and calls the kernel, so the emulator
// can start any kernel without knowing its parameters, and a table of the
// parameters' sizes, so that a launch can copy its arguments. A kernel
// compiled with a bound on its block size also exports that bound, which a
// cubin records for the driver as well.
//
//===----------------------------------------------------------------------===//

#include "offload/GPUEmulation/EmulatorABI.h"
#include "offload/GPUEmulation/HostRetarget.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace offload {
namespace gpuemu {
namespace {

void addEntry(Module &M, Function &Kernel) {
  LLVMContext &Ctx = M.getContext();
  Type *Ptr = PointerType::get(Ctx, 0);
  Function *Entry = Function::Create(
      FunctionType::get(Type::getVoidTy(Ctx), {Ptr}, false),
      GlobalValue::ExternalLinkage, EntryPrefix + Kernel.getName().str(), M);
  Entry->setVisibility(GlobalValue::DefaultVisibility);
  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", Entry));
  std::vector<Value *> Args;
  for (Argument &Param : Kernel.args()) {
    Value *Slot =
        B.CreateConstInBoundsGEP1_64(Ptr, Entry->getArg(0), Param.getArgNo());
    Value *ValuePtr = B.CreateLoad(Ptr, Slot);
    // A byval parameter is passed as the address of its value, which the
    // call copies.
    if (Param.hasByValAttr())
      Args.push_back(B.CreateAddrSpaceCast(ValuePtr, Param.getType()));
    else
      Args.push_back(B.CreateLoad(Param.getType(), ValuePtr));
  }
  B.CreateCall(&Kernel, Args);
  B.CreateRetVoid();

  const DataLayout &DL = M.getDataLayout();
  std::vector<uint64_t> Sizes = {Kernel.arg_size()};
  for (Argument &Param : Kernel.args())
    Sizes.push_back(DL.getTypeAllocSize(
        Param.hasByValAttr() ? Param.getParamByValType() : Param.getType()));
  Constant *Table = ConstantDataArray::get(Ctx, Sizes);
  auto *Params = new GlobalVariable(M, Table->getType(), /*isConstant=*/true,
                                    GlobalValue::ExternalLinkage, Table,
                                    ParamsPrefix + Kernel.getName().str());
  Params->setVisibility(GlobalValue::DefaultVisibility);
}

/// The most threads a block of \p Kernel may have, as its "nvvm.maxntid"
/// attribute ("X" or "X,Y,Z") bounds them; 0 without one. Fails on a value
/// that is not a list of positive numbers.
Expected<uint64_t> maxThreadsOf(const Function &Kernel) {
  Attribute Bound = Kernel.getFnAttribute("nvvm.maxntid");
  if (!Bound.isValid())
    return 0;
  SmallVector<StringRef, 3> Dims;
  Bound.getValueAsString().split(Dims, ',');
  uint64_t Threads = 1;
  for (StringRef Dim : Dims) {
    uint64_t Value = 0;
    if (Dim.trim().getAsInteger(10, Value) || Value == 0 ||
        Value > UINT32_MAX / Threads)
      return createStringError("kernel '" + Kernel.getName().str() +
                               "' has a bad nvvm.maxntid attribute '" +
                               Bound.getValueAsString().str() + "'");
    Threads *= Value;
  }
  return Threads;
}

/// Exports \p Kernel's block-size bound (EmulatorABI.h, MaxThreadsPrefix),
/// so that the emulated driver launches no larger blocks than a GPU would.
Error addMaxThreads(Module &M, Function &Kernel) {
  Expected<uint64_t> Threads = maxThreadsOf(Kernel);
  if (!Threads)
    return Threads.takeError();
  if (*Threads == 0)
    return Error::success();
  auto *Bound = new GlobalVariable(
      M, Type::getInt32Ty(M.getContext()), /*isConstant=*/true,
      GlobalValue::ExternalLinkage,
      ConstantInt::get(Type::getInt32Ty(M.getContext()), *Threads),
      MaxThreadsPrefix + Kernel.getName().str());
  Bound->setVisibility(GlobalValue::DefaultVisibility);
  return Error::success();
}

} // namespace

Error addKernelEntries(Module &M) {
  std::vector<Function *> Kernels;
  for (Function &F : M)
    if (!F.isDeclaration() && F.getCallingConv() == CallingConv::PTX_Kernel)
      Kernels.push_back(&F);
  for (Function *Kernel : Kernels) {
    if (Kernel->getReturnType() != Type::getVoidTy(M.getContext()))
      return createStringError("kernel '" + Kernel->getName().str() +
                               "' does not return void");
    if (Error E = addMaxThreads(M, *Kernel))
      return E;
    Kernel->setCallingConv(CallingConv::C);
    addEntry(M, *Kernel);
  }
  return Error::success();
}

} // namespace gpuemu
} // namespace offload
