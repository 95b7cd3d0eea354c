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
// object's does, how much group memory and kernarg space it needs. The image
// also carries a code object's AMDHSA metadata note with each kernel's
// largest work-group, where the AMDGPU plugin reads it on a GPU.
//
//===----------------------------------------------------------------------===//

#include "offload/GPUEmulation/EmulatorABI.h"
#include "offload/GPUEmulation/HostRetarget.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/BinaryFormat/MsgPackDocument.h"
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

/// AMDGPU's largest work-group, a kernel's bound without an attribute.
constexpr uint32_t DefaultMaxFlatWorkgroupSize = 1024;
/// The emulated gfx90a runs 64-lane wavefronts.
constexpr uint32_t EmulatedWavefrontSize = 64;

/// The largest work-group \p Kernel was compiled for: the maximum of its
/// "amdgpu-flat-work-group-size" attribute ("min,max"; clang sets it from
/// thread_limit), else AMDGPU's default.
Expected<uint32_t> maxFlatWorkgroupSizeOf(const Function &Kernel) {
  Attribute Bound = Kernel.getFnAttribute("amdgpu-flat-work-group-size");
  if (!Bound.isValid())
    return DefaultMaxFlatWorkgroupSize;
  auto [Min, Max] = Bound.getValueAsString().split(',');
  uint32_t Low = 0, High = 0;
  if (Min.trim().getAsInteger(10, Low) || Max.trim().getAsInteger(10, High) ||
      High == 0 || Low > High || High > DefaultMaxFlatWorkgroupSize)
    return createStringError("kernel '" + Kernel.getName().str() +
                             "' has a bad amdgpu-flat-work-group-size "
                             "attribute '" +
                             Bound.getValueAsString().str() + "'");
  return High;
}

/// Exports \p Kernel's bound for the emulated HSA queue (MaxThreadsPrefix).
void addMaxThreads(Module &M, Function &Kernel, uint32_t Threads) {
  Type *I32 = Type::getInt32Ty(M.getContext());
  auto *Bound = new GlobalVariable(M, I32, /*isConstant=*/true,
                                   GlobalValue::ExternalLinkage,
                                   ConstantInt::get(I32, Threads),
                                   MaxThreadsPrefix + Kernel.getName().str());
  Bound->setVisibility(GlobalValue::DefaultVisibility);
}

/// The AMDHSA metadata note of a code object (EmulatorABI.h): each
/// kernel's name and descriptor with its largest work-group.
void addMetadataNote(Module &M,
                     ArrayRef<std::pair<std::string, uint32_t>> Bounds) {
  msgpack::Document Doc;
  msgpack::MapDocNode Root = Doc.getRoot().getMap(/*Convert=*/true);
  msgpack::ArrayDocNode Version = Doc.getArrayNode();
  Version.push_back(Doc.getNode(uint64_t(1)));
  Version.push_back(Doc.getNode(uint64_t(2)));
  Root["amdhsa.version"] = Version;
  msgpack::ArrayDocNode Kernels = Doc.getArrayNode();
  for (const auto &[Name, Threads] : Bounds) {
    msgpack::MapDocNode Kernel = Doc.getMapNode();
    Kernel[".name"] = Doc.getNode(Name, /*Copy=*/true);
    Kernel[".symbol"] =
        Doc.getNode(Name + KernelDescriptorSuffix, /*Copy=*/true);
    Kernel[".max_flat_workgroup_size"] = Doc.getNode(uint64_t(Threads));
    Kernel[".wavefront_size"] = Doc.getNode(uint64_t(EmulatedWavefrontSize));
    Kernels.push_back(Kernel);
  }
  Root["amdhsa.kernels"] = Kernels;
  std::string Blob;
  Doc.writeToBlob(Blob);
  // An ELF note: name size, descriptor size, type, then the name and the
  // descriptor, each padded to 4 bytes.
  Blob.resize(alignTo(Blob.size(), 4), '\0');
  SmallVector<uint8_t, 256> Note;
  auto Word = [&](uint32_t V) {
    for (int I = 0; I < 4; ++I)
      Note.push_back(uint8_t(V >> (8 * I)));
  };
  Word(7); // "AMDGPU" and its NUL
  Word(uint32_t(Blob.size()));
  Word(32); // NT_AMDGPU_METADATA
  for (char C : StringRef("AMDGPU\0\0", 8))
    Note.push_back(uint8_t(C));
  Note.append(Blob.begin(), Blob.end());
  auto *Global = new GlobalVariable(
      M, ArrayType::get(Type::getInt8Ty(M.getContext()), Note.size()),
      /*isConstant=*/true, GlobalValue::ExternalLinkage,
      ConstantDataArray::get(M.getContext(), Note), "__gpuemu_amdgpu_metadata");
  Global->setSection(AMDGPUMetadataSection);
  Global->setAlignment(Align(4));
  // Exported, so that nothing drops it as unused (llvm.used would mark the
  // section SHF_GNU_RETAIN, which makes the image's OS ABI GNU's).
  Global->setVisibility(GlobalValue::DefaultVisibility);
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
  std::vector<std::pair<std::string, uint32_t>> Bounds;
  for (Function *Kernel : Kernels) {
    if (!Kernel->getReturnType()->isVoidTy())
      return createStringError("kernel '" + Kernel->getName().str() +
                               "' does not return void");
    Expected<uint32_t> Threads = maxFlatWorkgroupSizeOf(*Kernel);
    if (!Threads)
      return Threads.takeError();
    Bounds.emplace_back(Kernel->getName().str(), *Threads);
    addMaxThreads(M, *Kernel, *Threads);
    Kernel->setCallingConv(CallingConv::C);
    for (User *U : Kernel->users())
      if (auto *Call = dyn_cast<CallBase>(U))
        Call->setCallingConv(CallingConv::C);
    addDescriptor(M, *Kernel, addEntry(M, *Kernel), GroupBytes);
  }
  if (!Bounds.empty())
    addMetadataNote(M, Bounds);
  return Error::success();
}

} // namespace gpuemu
} // namespace offload
