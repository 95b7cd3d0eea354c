//===- AMDGPUEmulationTest.cpp - Retargeting amdgcn IR to the emulator ----===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "AMDGPUCodeObjectMetadata.h"
#include "RetargetTest.h"
#include "TestHelpers.h"

#include "offload/GPUEmulation/EmulatorABI.h"
#include "offload/GPUEmulation/HostRetarget.h"
#include "offload/Offloading/ObjectEmitter.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MemoryBuffer.h"

#include "gtest/gtest.h"

#include <algorithm>

using namespace llvm;

namespace {

class AMDGPUEmulationTest : public offload_test::RetargetTest {
protected:
  AMDGPUEmulationTest() : RetargetTest(offload_test::AMDGPUHeader) {}

  static std::vector<uint32_t> words(const GlobalVariable &G) {
    auto *Table = cast<ConstantDataArray>(G.getInitializer());
    std::vector<uint32_t> Words;
    for (unsigned I = 0; I < Table->getNumElements(); ++I)
      Words.push_back(uint32_t(Table->getElementAsInteger(I)));
    return Words;
  }
};

TEST_F(AMDGPUEmulationTest, IntrinsicsBecomeEmulatorCalls) {
  std::unique_ptr<Module> M = parse(R"(
define amdgpu_kernel void @k(ptr %out, i32 %v) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %bid = call i32 @llvm.amdgcn.workgroup.id.y()
  call void @llvm.amdgcn.s.barrier()
  call void @llvm.amdgcn.wave.barrier()
  %exec = call i64 @llvm.amdgcn.ballot.i64(i1 true)
  %p = call i32 @llvm.amdgcn.ds.bpermute(i32 8, i32 %v)
  %f = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %v)
  call void @llvm.amdgcn.s.sleep(i32 1)
  %t = call i64 @llvm.amdgcn.s.memtime()
  %s1 = add i32 %tid, %bid
  %s2 = add i32 %s1, %p
  %s3 = add i32 %s2, %f
  store i32 %s3, ptr %out
  store i64 %exec, ptr %out
  store i64 %t, ptr %out
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.y()
declare void @llvm.amdgcn.s.barrier()
declare void @llvm.amdgcn.wave.barrier()
declare i64 @llvm.amdgcn.ballot.i64(i1)
declare i32 @llvm.amdgcn.ds.bpermute(i32, i32)
declare i32 @llvm.amdgcn.readfirstlane.i32(i32)
declare void @llvm.amdgcn.s.sleep(i32)
declare i64 @llvm.amdgcn.s.memtime()
)");
  ASSERT_TRUE(M);
  ASSERT_NO_ERROR(retarget(*M));
  EXPECT_EQ(M->getTargetTriple().str(), "x86_64-unknown-linux-gnu");
  Function *K = M->getFunction("k");
  ASSERT_TRUE(K);
  EXPECT_EQ(K->getCallingConv(), CallingConv::C);
  EXPECT_EQ(callees(*K),
            (std::vector<std::string>{
                "__gpuemu_sreg", "__gpuemu_sreg", "__gpuemu_barrier",
                "__gpuemu_wave_ballot", "__gpuemu_wave_permute",
                "__gpuemu_wave_permute", "__gpuemu_yield", "__gpuemu_sreg"}));
  for (Function &F : *M)
    EXPECT_FALSE(F.getName().starts_with("llvm.amdgcn")) << F.getName().str();
  // ds_bpermute's byte address 8 is lane 2; readfirstlane asks for the
  // first lane taking part (~0u).
  std::vector<uint64_t> Lanes;
  for (Instruction &I : instructions(*K))
    if (auto *Call = dyn_cast<CallInst>(&I))
      if (Call->getCalledFunction()->getName() == "__gpuemu_wave_permute")
        Lanes.push_back(
            cast<ConstantInt>(Call->getArgOperand(0))->getZExtValue());
  EXPECT_EQ(Lanes, (std::vector<uint64_t>{2, 0xffffffffu}));
  Expected<SmallString<0>> Object = offload::emitObject(*M);
  ASSERT_TRUE(!!Object) << toString(Object.takeError());
}

// 64-bit values cross lanes as two 32-bit halves (the device runtime's
// printf reads its buffer pointer with readfirstlane.i64).
TEST_F(AMDGPUEmulationTest, WideReadFirstLaneIsTwoPermutes) {
  std::unique_ptr<Module> M = parse(R"(
define amdgpu_kernel void @k(ptr %out, i64 %v) {
  %f = call i64 @llvm.amdgcn.readfirstlane.i64(i64 %v)
  store i64 %f, ptr %out
  ret void
}
declare i64 @llvm.amdgcn.readfirstlane.i64(i64)
)");
  ASSERT_TRUE(M);
  ASSERT_NO_ERROR(retarget(*M));
  EXPECT_EQ(callees(*M->getFunction("k")),
            (std::vector<std::string>{"__gpuemu_wave_permute",
                                      "__gpuemu_wave_permute"}));
}

TEST_F(AMDGPUEmulationTest, KernelsGetEntriesAndDescriptors) {
  std::unique_ptr<Module> M = parse(R"(
@lds = internal addrspace(3) global [10 x i32] undef, align 4
define amdgpu_kernel void @k(ptr %a, i32 %b, i64 %c) {
  store i32 %b, ptr addrspace(3) @lds
  %d = call ptr addrspace(4) @llvm.amdgcn.dispatch.ptr()
  %i = call ptr addrspace(4) @llvm.amdgcn.implicitarg.ptr()
  %x = load i16, ptr addrspace(4) %d
  %y = load i16, ptr addrspace(4) %i
  %z = add i16 %x, %y
  store i16 %z, ptr %a
  ret void
}
declare ptr addrspace(4) @llvm.amdgcn.dispatch.ptr()
declare ptr addrspace(4) @llvm.amdgcn.implicitarg.ptr()
)");
  ASSERT_TRUE(M);
  ASSERT_NO_ERROR(retarget(*M));
  // Arguments at 0, 8 and 16: 24 explicit bytes, then 256 implicit ones.
  auto *Descriptor = M->getNamedGlobal("k.kd");
  ASSERT_TRUE(Descriptor);
  std::vector<uint32_t> Words = words(*Descriptor);
  ASSERT_EQ(Words.size(), 16u);
  EXPECT_EQ(Words[0], 48u); // 40 bytes of LDS, padded for dynamic LDS
  EXPECT_EQ(Words[1], 0u);
  EXPECT_EQ(Words[2], 24u + 256u);
  Function *Entry = M->getFunction("__gpuemu_entry_k");
  ASSERT_TRUE(Entry);
  // The entry loads each argument from its offset in the kernarg segment;
  // the implicit arguments start at 24.
  std::vector<uint64_t> Offsets;
  for (Instruction &I : instructions(*Entry))
    if (auto *GEP = dyn_cast<GetElementPtrInst>(&I))
      if (GEP->getSourceElementType()->isIntegerTy(8))
        Offsets.push_back(
            cast<ConstantInt>(GEP->getOperand(1))->getZExtValue());
  EXPECT_EQ(Offsets, (std::vector<uint64_t>{0, 8, 16, 24}));
  // The dispatch and implicit-argument pointers read the launch slots.
  for (Instruction &I : instructions(*M->getFunction("k")))
    if (auto *Call = dyn_cast<CallInst>(&I))
      EXPECT_NE(Call->getCalledFunction()->getName(),
                "llvm.amdgcn.dispatch.ptr");
  GlobalVariable *Slots =
      M->getGlobalVariable("__gpuemu_amdgpu_launch", /*AllowInternal=*/true);
  ASSERT_TRUE(Slots);
  EXPECT_TRUE(Slots->isThreadLocal());
  Expected<SmallString<0>> Object = offload::emitObject(*M);
  ASSERT_TRUE(!!Object) << toString(Object.takeError());
}

// Each kernel's largest work-group (its amdgpu-flat-work-group-size, 1024
// without one) is in the image's AMDHSA metadata note, which the AMDGPU
// plugin's reader finds as in a real code object, and exported for the
// emulated HSA queue.
TEST_F(AMDGPUEmulationTest, KernelBoundsAreInTheMetadataNote) {
  std::unique_ptr<Module> M = parse(R"(
define amdgpu_kernel void @limited() #0 {
  ret void
}
define amdgpu_kernel void @unbounded() {
  ret void
}
attributes #0 = { "amdgpu-flat-work-group-size"="1,64" }
)");
  ASSERT_TRUE(M);
  ASSERT_NO_ERROR(retarget(*M));
  auto *Bound = M->getNamedGlobal("__gpuemu_max_threads_limited");
  ASSERT_TRUE(Bound);
  EXPECT_EQ(cast<ConstantInt>(Bound->getInitializer())->getZExtValue(), 64u);
  Expected<SmallString<0>> Object = offload::emitObject(*M);
  ASSERT_TRUE(!!Object) << toString(Object.takeError());
  std::map<std::string, offload::amdgpu::KernelMetadata> Kernels;
  EXPECT_EQ(offload::amdgpu::readKernelMetadata(Object->data(), Object->size(),
                                                Kernels),
            "");
  ASSERT_EQ(Kernels.size(), 2u);
  EXPECT_EQ(Kernels["limited"].MaxFlatWorkgroupSize, 64u);
  EXPECT_EQ(Kernels["unbounded"].MaxFlatWorkgroupSize, 1024u);
  EXPECT_EQ(Kernels["limited"].WavefrontSize, 64u);
}

TEST_F(AMDGPUEmulationTest, BadFlatWorkGroupSizeIsAnError) {
  std::unique_ptr<Module> M = parse(R"(
define amdgpu_kernel void @k() #0 {
  ret void
}
attributes #0 = { "amdgpu-flat-work-group-size"="64" }
)");
  ASSERT_TRUE(M);
  Error E = retarget(*M);
  ASSERT_TRUE(!!E);
  std::string Message = toString(std::move(E));
  EXPECT_NE(Message.find("kernel 'k'"), std::string::npos) << Message;
  EXPECT_NE(Message.find("amdgpu-flat-work-group-size"), std::string::npos);
}

// On a GPU a team-shared pointer's integer is its offset in the block's
// LDS; the AMDGPU runtime sizes dynamic LDS from its start's. Here such
// integers are taken relative to the block's segment, both ways.
TEST_F(AMDGPUEmulationTest, SharedPointerIntegersAreOffsets) {
  std::unique_ptr<Module> M = parse(R"(
@a = internal addrspace(3) global [4 x i32] undef, align 16
@dyn = external addrspace(3) global [0 x i32], align 16
define amdgpu_kernel void @k(ptr %out, i32 %i) {
  store i32 ptrtoint (ptr addrspace(3) @dyn to i32), ptr %out
  %p = inttoptr i32 %i to ptr addrspace(3)
  store i32 1, ptr addrspace(3) %p
  ret void
}
)");
  ASSERT_TRUE(M);
  ASSERT_NO_ERROR(retarget(*M));
  Function *K = M->getFunction("k");
  unsigned Subs = 0, SharedGEPs = 0;
  for (Instruction &I : instructions(*K)) {
    EXPECT_FALSE(isa<IntToPtrInst>(I));
    Subs += I.getOpcode() == Instruction::Sub;
    if (auto *GEP = dyn_cast<GetElementPtrInst>(&I))
      SharedGEPs += isa<CallInst>(GEP->getPointerOperand());
  }
  EXPECT_EQ(Subs, 1u);       // ptrtoint(@dyn) - segment
  EXPECT_EQ(SharedGEPs, 2u); // @dyn at 16, and segment + %i
  Expected<SmallString<0>> Object = offload::emitObject(*M);
  ASSERT_TRUE(!!Object) << toString(Object.takeError());
}

// Over 64 KiB of LDS: the AMDGPU code generator's refusal, in its words.
TEST_F(AMDGPUEmulationTest, TooMuchLDSIsTheBackendsError) {
  std::unique_ptr<Module> M = parse(R"(
@big = internal addrspace(3) global [71680 x i8] undef, align 16
define amdgpu_kernel void @k() {
  store i8 1, ptr addrspace(3) @big
  ret void
}
define amdgpu_kernel void @fits() {
  ret void
}
)");
  ASSERT_TRUE(M);
  EXPECT_EQ(offload_test::errorMessage(retarget(*M)),
            "local memory (71680) exceeds limit (65536) in function 'k'");
}

TEST_F(AMDGPUEmulationTest, PrivateAllocasBecomeHostAllocas) {
  std::unique_ptr<Module> M = parse(R"(
define amdgpu_kernel void @k(ptr %out) {
  %x = alloca i32, align 4, addrspace(5)
  call void @llvm.lifetime.start.p5(ptr addrspace(5) %x)
  store i32 7, ptr addrspace(5) %x
  %v = load i32, ptr addrspace(5) %x
  call void @llvm.lifetime.end.p5(ptr addrspace(5) %x)
  store i32 %v, ptr %out
  ret void
}
declare void @llvm.lifetime.start.p5(ptr addrspace(5))
declare void @llvm.lifetime.end.p5(ptr addrspace(5))
)");
  ASSERT_TRUE(M);
  ASSERT_NO_ERROR(retarget(*M));
  for (Instruction &I : instructions(*M->getFunction("k")))
    if (auto *A = dyn_cast<AllocaInst>(&I))
      EXPECT_EQ(A->getAddressSpace(), 0u);
  Expected<SmallString<0>> Object = offload::emitObject(*M);
  ASSERT_TRUE(!!Object) << toString(Object.takeError());
}

TEST_F(AMDGPUEmulationTest, UnsupportedIntrinsicIsAnError) {
  std::unique_ptr<Module> M = parse(R"(
define amdgpu_kernel void @k(ptr %out) {
  %v = call i32 @llvm.amdgcn.ds.swizzle(i32 2, i32 31)
  store i32 %v, ptr %out
  ret void
}
declare i32 @llvm.amdgcn.ds.swizzle(i32, i32)
)");
  ASSERT_TRUE(M);
  EXPECT_EQ(offload_test::errorMessage(retarget(*M)),
            "the GPU emulator does not support the intrinsic "
            "'llvm.amdgcn.ds.swizzle' (in function 'k')");
}

// ocml's instructions (the public programs that stopped at link time
// reached frexp.mant.f32): host IR, the large-argument reduction of sin and
// cos the executor's __gpuemu_trig_preop.
TEST_F(AMDGPUEmulationTest, OcmlIntrinsicsBecomeHostIR) {
  std::unique_ptr<Module> M = parse(R"(
define amdgpu_kernel void @k(ptr %out, float %x, double %d, i32 %mask) {
  %m = call float @llvm.amdgcn.frexp.mant.f32(float %x)
  %e = call i32 @llvm.amdgcn.frexp.exp.i32.f64(double %d)
  %f = call float @llvm.amdgcn.fract.f32(float %m)
  %r = call float @llvm.amdgcn.rcp.f32(float %f)
  %q = call double @llvm.amdgcn.rsq.f64(double %d)
  %t = call double @llvm.amdgcn.trig.preop.f64(double %q, i32 1)
  %med = call float @llvm.amdgcn.fmed3.f32(float %x, float %r, float 1.0)
  %c1 = call i1 @llvm.amdgcn.class.f32(float %med, i32 3)
  %c2 = call i1 @llvm.amdgcn.class.f64(double %t, i32 %mask)
  %c = and i1 %c1, %c2
  store i1 %c, ptr %out
  store i32 %e, ptr %out
  ret void
}
declare float @llvm.amdgcn.frexp.mant.f32(float)
declare i32 @llvm.amdgcn.frexp.exp.i32.f64(double)
declare float @llvm.amdgcn.fract.f32(float)
declare float @llvm.amdgcn.rcp.f32(float)
declare double @llvm.amdgcn.rsq.f64(double)
declare double @llvm.amdgcn.trig.preop.f64(double, i32)
declare float @llvm.amdgcn.fmed3.f32(float, float, float)
declare i1 @llvm.amdgcn.class.f32(float, i32)
declare i1 @llvm.amdgcn.class.f64(double, i32)
)");
  ASSERT_TRUE(M);
  ASSERT_NO_ERROR(retarget(*M));
  std::vector<std::string> Called = callees(*M->getFunction("k"));
  for (const std::string &Name : Called)
    EXPECT_FALSE(StringRef(Name).starts_with("llvm.amdgcn.")) << Name;
  for (StringRef Expected :
       {"llvm.frexp.f32.i32", "llvm.frexp.f64.i32", "llvm.floor.f32",
        "__gpuemu_trig_preop", "llvm.is.fpclass.f32", "llvm.is.fpclass.f64"})
    EXPECT_NE(std::find(Called.begin(), Called.end(), Expected), Called.end())
        << Expected.str();
  Expected<SmallString<0>> Object = offload::emitObject(*M);
  ASSERT_TRUE(!!Object) << toString(Object.takeError());
}

/// ROCm's ocml, when rocm-device-libs is installed.
constexpr const char *OcmlPath =
    "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode/ocml.bc";

// Every function of ocml, retargeted and compiled for the host: every
// amdgcn intrinsic it calls is handled. (Its configuration constants,
// __oclc_*, which clang links from other libraries, are 0 here.)
TEST_F(AMDGPUEmulationTest, AllOfOcmlRetargets) {
  auto Buffer = MemoryBuffer::getFile(OcmlPath);
  if (!Buffer)
    GTEST_SKIP() << OcmlPath << " is not installed";
  Expected<std::unique_ptr<Module>> Lib =
      parseBitcodeFile((*Buffer)->getMemBufferRef(), Ctx);
  ASSERT_TRUE(!!Lib) << toString(Lib.takeError());
  Module &M = **Lib;
  for (GlobalVariable &G : M.globals())
    if (G.isDeclaration() && G.getName().starts_with("__oclc_")) {
      G.setInitializer(Constant::getNullValue(G.getValueType()));
      G.setLinkage(GlobalValue::InternalLinkage);
    }
  size_t Functions = 0;
  for (Function &F : M)
    Functions += !F.isDeclaration();
  EXPECT_GT(Functions, 400u);
  ASSERT_NO_ERROR(retarget(M));
  for (Function &F : M)
    EXPECT_FALSE(F.getName().starts_with("llvm.amdgcn.")) << F.getName().str();
  Expected<SmallString<0>> Object = offload::emitObject(M);
  ASSERT_TRUE(!!Object) << toString(Object.takeError());
}

// The device runtime hides a region's address from the optimiser with an
// empty assembler statement (asm volatile("" : "+v"(Fn))): on the host it is
// the value itself, and an empty statement without operands is nothing.
TEST_F(AMDGPUEmulationTest, EmptyInlineAssemblyIsDropped) {
  std::unique_ptr<Module> M = parse(R"(
define amdgpu_kernel void @k(ptr %out, ptr %fn) {
  %hidden = call ptr asm sideeffect "", "=v,0"(ptr %fn)
  call void asm sideeffect "", "~{memory}"()
  store ptr %hidden, ptr %out
  ret void
}
)");
  ASSERT_TRUE(M);
  ASSERT_NO_ERROR(retarget(*M));
  Function *K = M->getFunction("k");
  for (Instruction &I : instructions(*K))
    if (auto *Call = dyn_cast<CallInst>(&I))
      EXPECT_FALSE(Call->isInlineAsm());
  // The kernel's own store (its copy with schedule points has another).
  StoreInst *Store = nullptr;
  for (Instruction &I : instructions(*K))
    if (auto *S = dyn_cast<StoreInst>(&I))
      Store = S;
  ASSERT_TRUE(Store);
  EXPECT_EQ(Store->getValueOperand(), K->getArg(1));
}

TEST_F(AMDGPUEmulationTest, InlineAssemblyIsAnError) {
  std::unique_ptr<Module> M = parse(R"(
define amdgpu_kernel void @k() {
  call void asm sideeffect "s_nop 0", ""()
  ret void
}
)");
  ASSERT_TRUE(M);
  EXPECT_EQ(offload_test::errorMessage(retarget(*M)),
            "the GPU emulator cannot run inline assembly 's_nop 0' (in "
            "function 'k')");
}

} // namespace
