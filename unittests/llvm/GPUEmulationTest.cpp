//===- GPUEmulationTest.cpp - Retargeting NVPTX IR to the emulator --------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

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
#include "llvm/IR/Verifier.h"
#include "llvm/Support/MemoryBuffer.h"

#include "gtest/gtest.h"

#include <algorithm>

using namespace llvm;

namespace {

class GPUEmulationTest : public offload_test::RetargetTest {
protected:
  GPUEmulationTest() : RetargetTest(offload_test::NVPTXHeader) {}
};

TEST_F(GPUEmulationTest, IntrinsicsBecomeEmulatorCalls) {
  std::unique_ptr<Module> M = parse(R"(
define ptx_kernel void @k(ptr %out, i32 %v) {
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  call void @llvm.nvvm.barrier.cta.sync.count(i32 1, i32 64)
  %mask = call i32 @llvm.nvvm.activemask()
  %s = call i32 @llvm.nvvm.shfl.sync.down.i32(i32 %mask, i32 %v, i32 1, i32 31)
  %b = call i32 @llvm.nvvm.vote.ballot.sync(i32 %mask, i1 true)
  call void @llvm.nvvm.membar.cta()
  call void @llvm.nvvm.nanosleep(i32 32)
  %sum = add i32 %tid, %s
  %sum2 = add i32 %sum, %b
  store i32 %sum2, ptr %out
  ret void
}
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)
declare void @llvm.nvvm.barrier.cta.sync.count(i32, i32)
declare i32 @llvm.nvvm.activemask()
declare i32 @llvm.nvvm.shfl.sync.down.i32(i32, i32, i32, i32)
declare i32 @llvm.nvvm.vote.ballot.sync(i32, i1)
declare void @llvm.nvvm.membar.cta()
declare void @llvm.nvvm.nanosleep(i32)
)");
  ASSERT_TRUE(M);
  ASSERT_NO_ERROR(retarget(*M));
  EXPECT_EQ(M->getTargetTriple().str(), "x86_64-unknown-linux-gnu");
  Function *K = M->getFunction("k");
  ASSERT_TRUE(K);
  EXPECT_EQ(K->getCallingConv(), CallingConv::C);
  EXPECT_EQ(callees(*K),
            (std::vector<std::string>{"__gpuemu_sreg", "__gpuemu_barrier",
                                      "__gpuemu_barrier", "__gpuemu_activemask",
                                      "__gpuemu_shfl", "__gpuemu_vote",
                                      "__gpuemu_yield"}));
  for (Function &F : *M)
    EXPECT_FALSE(F.getName().starts_with("llvm.nvvm")) << F.getName().str();
  // The entry point and the parameter table (two parameters: 8 and 4 bytes).
  EXPECT_TRUE(M->getFunction("__gpuemu_entry_k"));
  auto *Params = M->getNamedGlobal("__gpuemu_params_k");
  ASSERT_TRUE(Params);
  auto *Table = cast<ConstantDataArray>(Params->getInitializer());
  ASSERT_EQ(Table->getNumElements(), 3u);
  EXPECT_EQ(Table->getElementAsInteger(0), 2u);
  EXPECT_EQ(Table->getElementAsInteger(1), 8u);
  EXPECT_EQ(Table->getElementAsInteger(2), 4u);
  // And the host can compile it.
  Expected<SmallString<0>> Object = offload::emitObject(*M);
  ASSERT_TRUE(!!Object) << toString(Object.takeError());
}

TEST_F(GPUEmulationTest, SpinLoopsYieldEverySoOften) {
  // Only the atomic and volatile loads inside loops get a yield: the
  // emulator runs one thread at a time, so a thread spinning on a flag must
  // let the writer run, while straight-line code and plain loads must not
  // pay for it.
  std::unique_ptr<Module> M = parse(R"(
define void @spin(ptr %flag, ptr %vflag, ptr %data) {
entry:
  %first = load atomic i32, ptr %flag monotonic, align 4
  %plain = load i32, ptr %data, align 4
  br label %loop
loop:
  %seen = load atomic i32, ptr %flag seq_cst, align 4
  %v = load volatile i32, ptr %vflag, align 4
  %other = load i32, ptr %data, align 4
  %both = and i32 %seen, %v
  %done = icmp ne i32 %both, 0
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

define void @waits(ptr %flag) {
entry:
  br label %loop
loop:
  %seen = load atomic i32, ptr %flag acquire, align 4
  call void @__gpuemu_yield()
  %done = icmp ne i32 %seen, 0
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; A seq_cst atomic read: the flush the compiler adds does not wait.
define void @flushes(ptr %flag) {
entry:
  br label %loop
loop:
  %seen = load atomic i32, ptr %flag seq_cst, align 4
  call void @flush()
  %done = icmp ne i32 %seen, 0
  br i1 %done, label %exit, label %loop
exit:
  ret void
}
define internal void @flush() {
  fence seq_cst
  ret void
}
declare void @__gpuemu_yield()
)");
  ASSERT_TRUE(M);
  // @waits already yields in its loop (the device runtime's spin-waits).
  EXPECT_EQ(offload::gpuemu::addSpinLoopYields(*M), 3u);
  EXPECT_EQ(callees(*M->getFunction("flushes")),
            (std::vector<std::string>{"__gpuemu_yield", "flush"}));
  EXPECT_EQ(callees(*M->getFunction("waits")),
            std::vector<std::string>{"__gpuemu_yield"});
  // Every 256th look yields: the count is a thread-local of the image (one
  // per host thread, i.e. per block being run), the yield behind a branch.
  GlobalVariable *Looks = M->getNamedGlobal("__gpuemu_spin_looks");
  ASSERT_TRUE(Looks);
  EXPECT_TRUE(Looks->isThreadLocal());
  Function *F = M->getFunction("spin");
  EXPECT_EQ(callees(*F),
            (std::vector<std::string>{"__gpuemu_yield", "__gpuemu_yield"}));
  for (Instruction &I : instructions(*F))
    if (isa<CallInst>(I)) {
      BasicBlock *Guard = I.getParent()->getSinglePredecessor();
      ASSERT_TRUE(Guard);
      EXPECT_TRUE(cast<BranchInst>(Guard->getTerminator())->isConditional());
    }
  EXPECT_FALSE(verifyModule(*M, &errs()));
}

TEST_F(GPUEmulationTest, CompareAndSwapAndFenceLoopsYield) {
  // A lock's compare-and-swap loop, an atomic update loop and a plain read
  // after a fence (`#pragma omp flush`) are spin loops too: each look gets
  // the count and the yield; a plain read without a fence gets none.
  std::unique_ptr<Module> M = parse(R"(
define void @lock(ptr %l) {
entry:
  br label %loop
loop:
  %r = cmpxchg ptr %l, i32 0, i32 1 acquire monotonic
  %ok = extractvalue { i32, i1 } %r, 1
  br i1 %ok, label %exit, label %loop
exit:
  ret void
}
define void @poll(ptr %c) {
entry:
  br label %loop
loop:
  %v = atomicrmw add ptr %c, i32 0 monotonic
  %done = icmp ne i32 %v, 0
  br i1 %done, label %exit, label %loop
exit:
  ret void
}
define void @flushed(ptr %f, ptr %p) {
entry:
  br label %loop
loop:
  fence seq_cst
  %v = load i32, ptr %f, align 4
  %w = load i32, ptr %p, align 4
  %done = icmp ne i32 %v, %w
  br i1 %done, label %exit, label %loop
exit:
  ret void
}
)");
  ASSERT_TRUE(M);
  EXPECT_EQ(offload::gpuemu::addSpinLoopYields(*M), 3u);
  for (const char *Name : {"lock", "poll", "flushed"})
    EXPECT_EQ(callees(*M->getFunction(Name)),
              std::vector<std::string>{"__gpuemu_yield"})
        << Name;
  EXPECT_FALSE(verifyModule(*M, &errs()));
}

TEST_F(GPUEmulationTest, SchedulePointsAreInACopy) {
  // The function keeps its accesses as they were, behind a test of the
  // executor's flag; its copy, run under a random schedule, calls
  // __gpuemu_schedule_point before each access to memory other threads may
  // see (not the stack, not constant memory).
  std::unique_ptr<Module> M = parse(R"(
@c = internal addrspace(4) constant i32 7
define void @f(ptr %p) {
  %local = alloca i32, align 4
  store i32 1, ptr %local
  %c = load i32, ptr addrspace(4) @c
  %v = load i32, ptr %p
  %s = add i32 %v, %c
  store i32 %s, ptr %p
  ret void
}
)");
  ASSERT_TRUE(M);
  EXPECT_EQ(offload::gpuemu::addSchedulePoints(*M), 2u);
  Function *F = M->getFunction("f");
  Function *Copy = M->getFunction("f.schedule_points");
  ASSERT_TRUE(Copy);
  EXPECT_TRUE(Copy->hasInternalLinkage());
  EXPECT_EQ(callees(*F), std::vector<std::string>{});
  EXPECT_EQ(callees(*Copy),
            (std::vector<std::string>{"__gpuemu_schedule_point",
                                      "__gpuemu_schedule_point"}));
  auto *Branch = cast<BranchInst>(F->getEntryBlock().getTerminator());
  ASSERT_TRUE(Branch->isConditional());
  auto *Flag = M->getNamedGlobal(offload::gpuemu::SchedulePointsFlag);
  ASSERT_TRUE(Flag);
  EXPECT_TRUE(Flag->isDeclaration());
  EXPECT_FALSE(verifyModule(*M, &errs()));
}

TEST_F(GPUEmulationTest, SharedGlobalsBecomeSegmentOffsets) {
  std::unique_ptr<Module> M = parse(R"(
@a = internal addrspace(3) global i32 undef, align 4
@b = internal addrspace(3) global [3 x i64] undef, align 16
@dyn = external addrspace(3) global [0 x i8], align 16
define ptx_kernel void @k() {
  store i32 1, ptr addrspace(3) @a
  %p = getelementptr [3 x i64], ptr addrspace(3) @b, i64 0, i64 2
  store i64 2, ptr addrspace(3) %p
  %g = addrspacecast ptr addrspace(3) @dyn to ptr
  store i8 3, ptr %g
  ret void
}
)");
  ASSERT_TRUE(M);
  ASSERT_NO_ERROR(retarget(*M));
  EXPECT_FALSE(M->getNamedGlobal("a"));
  EXPECT_FALSE(M->getNamedGlobal("b"));
  EXPECT_FALSE(M->getNamedGlobal("dyn"));
  // a at 0, b at 16 (24 bytes), dynamic memory from 48 (16-aligned).
  auto *Size = M->getNamedGlobal(offload::gpuemu::SharedSizeSymbol);
  ASSERT_TRUE(Size);
  EXPECT_EQ(cast<ConstantInt>(Size->getInitializer())->getZExtValue(), 48u);
  std::vector<uint64_t> Offsets;
  for (Instruction &I : instructions(*M->getFunction("k")))
    if (auto *GEP = dyn_cast<GetElementPtrInst>(&I))
      if (isa<CallInst>(GEP->getPointerOperand()))
        Offsets.push_back(
            cast<ConstantInt>(GEP->getOperand(1))->getZExtValue());
  EXPECT_EQ(Offsets, (std::vector<uint64_t>{0, 16, 48}));
  EXPECT_EQ(callees(*M->getFunction("k")),
            std::vector<std::string>{"__gpuemu_shared_base"});
}

// Each kernel's static shared memory is what it can reach, as nvlink counts
// it: its own array, what the functions it calls use, and what a function
// whose address it takes uses (a parallel region the runtime calls through
// a pointer); not the other kernel's array. Both kernels fit in 48 KiB,
// though the image's segment holds 60 KiB.
TEST_F(GPUEmulationTest, SharedMemoryIsCountedPerKernel) {
  std::unique_ptr<Module> M = parse(R"(
@first = internal addrspace(3) global [30720 x i8] undef, align 16
@second = internal addrspace(3) global [30720 x i8] undef, align 16
@runtime = internal addrspace(3) global i32 undef, align 4
@region = internal addrspace(3) global [100 x i8] undef, align 4
define internal void @init() {
  store i32 0, ptr addrspace(3) @runtime
  ret void
}
define internal void @outlined() {
  store i8 1, ptr addrspace(3) @region
  ret void
}
define ptx_kernel void @one(ptr %fn) {
  call void @init()
  store i8 1, ptr addrspace(3) @first
  store ptr @outlined, ptr %fn
  ret void
}
define ptx_kernel void @two() {
  call void @init()
  store i8 1, ptr addrspace(3) @second
  ret void
}
)");
  ASSERT_TRUE(M);
  ASSERT_NO_ERROR(retarget(*M));
  auto SharedOf = [&](StringRef Kernel) -> uint64_t {
    GlobalVariable *G = M->getNamedGlobal(
        (offload::gpuemu::KernelSharedSizePrefix + Kernel).str());
    if (!G)
      return 0;
    return cast<ConstantInt>(G->getInitializer())->getZExtValue();
  };
  // 30720 + 4 + 100 (the walk finds @first, @outlined's @region, @init's
  // @runtime, each at its alignment).
  EXPECT_EQ(SharedOf("one"), 30824u);
  EXPECT_EQ(SharedOf("two"), 30724u);
}

// Over 48 KiB: nvlink's refusal, in its words.
TEST_F(GPUEmulationTest, TooMuchSharedMemoryIsNvlinksError) {
  std::unique_ptr<Module> M = parse(R"(
@big = internal addrspace(3) global [61440 x i8] undef, align 16
@small = internal addrspace(3) global i32 undef, align 4
define ptx_kernel void @k() {
  store i8 1, ptr addrspace(3) @big
  store i32 1, ptr addrspace(3) @small
  ret void
}
)");
  ASSERT_TRUE(M);
  EXPECT_EQ(offload_test::errorMessage(retarget(*M)),
            "nvlink error   : Entry function 'k' uses too much shared data "
            "(0xf004 bytes, 0xc000 max)");
}

// Flang's device code lists a shared global in a second, suffixed used list
// (llvm.compiler.used22 in fortran_maps of the GPU kit): that list keeps its
// other entries, the shared global leaves it.
TEST_F(GPUEmulationTest, SharedGlobalsLeaveSuffixedUsedLists) {
  std::unique_ptr<Module> M = parse(R"(
@s = weak addrspace(3) global [32 x i32] undef
@g = global i32 0
@llvm.compiler.used22 = appending global [2 x ptr] [ptr addrspacecast (ptr addrspace(3) @s to ptr), ptr @g], section "llvm.metadata"
define ptx_kernel void @k() {
  store i32 1, ptr addrspace(3) @s
  ret void
}
)");
  ASSERT_TRUE(M);
  ASSERT_NO_ERROR(retarget(*M));
  EXPECT_FALSE(M->getNamedGlobal("s"));
  auto *List = M->getNamedGlobal("llvm.compiler.used22");
  ASSERT_TRUE(List);
  auto *Entries = cast<ConstantArray>(List->getInitializer());
  EXPECT_TRUE(Entries->getOperand(0)->isNullValue());
  EXPECT_EQ(Entries->getOperand(1), M->getNamedGlobal("g"));
}

TEST_F(GPUEmulationTest, SystemCallsAreRenamed) {
  std::unique_ptr<Module> M = parse(R"(
define ptx_kernel void @k(ptr %f) {
  %p = call ptr @malloc(i64 8)
  call void @free(ptr %p)
  %r = call i32 @vprintf(ptr %f, ptr null)
  call void @__assertfail(ptr %f, ptr %f, i32 7, ptr %f, i64 1)
  call void @llvm.trap()
  ret void
}
declare ptr @malloc(i64)
declare void @free(ptr)
declare i32 @vprintf(ptr, ptr)
declare void @__assertfail(ptr, ptr, i32, ptr, i64)
declare void @llvm.trap()
)");
  ASSERT_TRUE(M);
  ASSERT_NO_ERROR(retarget(*M));
  // The names EmulatorABI.h declares (no doubled underscores).
  EXPECT_EQ(callees(*M->getFunction("k")),
            (std::vector<std::string>{"__gpuemu_malloc", "__gpuemu_free",
                                      "__gpuemu_vprintf", "__gpuemu_assertfail",
                                      "__gpuemu_trap"}));
}

TEST_F(GPUEmulationTest, UnsupportedIntrinsicIsNamed) {
  std::unique_ptr<Module> M = parse(R"(
define ptx_kernel void @k(i32 %v) {
  %r = call i32 @llvm.nvvm.match.any.sync.i32(i32 -1, i32 %v)
  ret void
}
declare i32 @llvm.nvvm.match.any.sync.i32(i32, i32)
)");
  ASSERT_TRUE(M);
  EXPECT_EQ(offload_test::errorMessage(retarget(*M)),
            "the GPU emulator does not support the intrinsic "
            "'llvm.nvvm.match.any.sync.i32' (in function 'k')");
}

TEST_F(GPUEmulationTest, FloatingPointHelpersBecomeHostArithmetic) {
  std::unique_ptr<Module> M = parse(R"(
define ptx_kernel void @k(ptr %out, double %x) {
  %hi = call i32 @llvm.nvvm.d2i.hi(double %x)
  %lo = call i32 @llvm.nvvm.d2i.lo(double %x)
  %y = call double @llvm.nvvm.lohi.i2d(i32 %lo, i32 %hi)
  %z = call double @llvm.nvvm.mul.rn.d(double %y, double %x)
  %w = call double @llvm.nvvm.fma.rn.d(double %z, double %x, double %y)
  %v = call double @llvm.nvvm.fabs.f64(double %w)
  %r = call double @llvm.nvvm.rcp.approx.ftz.d(double %v)
  store double %r, ptr %out
  ret void
}
declare i32 @llvm.nvvm.d2i.hi(double)
declare i32 @llvm.nvvm.d2i.lo(double)
declare double @llvm.nvvm.lohi.i2d(i32, i32)
declare double @llvm.nvvm.mul.rn.d(double, double)
declare double @llvm.nvvm.fma.rn.d(double, double, double)
declare double @llvm.nvvm.fabs.f64(double)
declare double @llvm.nvvm.rcp.approx.ftz.d(double)
)");
  ASSERT_TRUE(M);
  ASSERT_NO_ERROR(retarget(*M));
  EXPECT_EQ(callees(*M->getFunction("k")),
            (std::vector<std::string>{"llvm.fma.f64", "llvm.fabs.f64"}));
}

// sm_90's cluster registers: every block is a cluster of its own.
TEST_F(GPUEmulationTest, ClustersAreSingleBlocks) {
  std::unique_ptr<Module> M = parse(R"(
define ptx_kernel void @k(ptr %out) {
  %id = call i32 @llvm.nvvm.read.ptx.sreg.clusterid.x()
  %rank = call i32 @llvm.nvvm.read.ptx.sreg.cluster.ctarank()
  %size = call i32 @llvm.nvvm.read.ptx.sreg.cluster.nctaid.y()
  %explicit = call i1 @llvm.nvvm.is_explicit_cluster()
  %a = add i32 %id, %rank
  %b = add i32 %a, %size
  %e = zext i1 %explicit to i32
  %c = add i32 %b, %e
  store i32 %c, ptr %out
  ret void
}
declare i32 @llvm.nvvm.read.ptx.sreg.clusterid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.cluster.ctarank()
declare i32 @llvm.nvvm.read.ptx.sreg.cluster.nctaid.y()
declare i1 @llvm.nvvm.is_explicit_cluster()
)");
  ASSERT_TRUE(M);
  ASSERT_NO_ERROR(retarget(*M));
  std::vector<CallInst *> Calls;
  for (Instruction &I : instructions(*M->getFunction("k")))
    if (auto *Call = dyn_cast<CallInst>(&I); Call && !isScheduleForward(I))
      Calls.push_back(Call);
  // Only the cluster id reads a register: the block's id.
  ASSERT_EQ(Calls.size(), 1u);
  EXPECT_EQ(Calls[0]->getCalledFunction()->getName(), "__gpuemu_sreg");
  EXPECT_EQ(cast<ConstantInt>(Calls[0]->getArgOperand(0))->getZExtValue(),
            uint64_t(offload::gpuemu::SReg::CtaIdX));
}

// A rounding mode other than to-nearest is the executor's: it sets the
// host's mode around the operation (DeviceMath.cpp).
TEST_F(GPUEmulationTest, DirectedRoundingCallsTheEmulator) {
  std::unique_ptr<Module> M = parse(R"(
define ptx_kernel void @k(ptr %out, double %x, i64 %n) {
  %z = call double @llvm.nvvm.add.rz.d(double %x, double %x)
  %f = call float @llvm.nvvm.ll2f.rm(i64 %n)
  %fd = fpext float %f to double
  %s = fadd double %z, %fd
  store double %s, ptr %out
  ret void
}
declare double @llvm.nvvm.add.rz.d(double, double)
declare float @llvm.nvvm.ll2f.rm(i64)
)");
  ASSERT_TRUE(M);
  ASSERT_NO_ERROR(retarget(*M));
  std::vector<CallInst *> Calls;
  for (Instruction &I : instructions(*M->getFunction("k")))
    if (auto *Call = dyn_cast<CallInst>(&I); Call && !isScheduleForward(I))
      Calls.push_back(Call);
  ASSERT_EQ(Calls.size(), 2u);
  using offload::gpuemu::ConvertFrom;
  using offload::gpuemu::RoundedOp;
  using offload::gpuemu::RoundingMode;
  auto Arg = [](CallInst *Call, unsigned I) {
    return cast<ConstantInt>(Call->getArgOperand(I))->getZExtValue();
  };
  EXPECT_EQ(Calls[0]->getCalledFunction()->getName(), "__gpuemu_rounded_f64");
  EXPECT_EQ(Arg(Calls[0], 0), uint64_t(RoundedOp::Add));
  EXPECT_EQ(Arg(Calls[0], 1), uint64_t(RoundingMode::TowardZero));
  EXPECT_EQ(Calls[1]->getCalledFunction()->getName(),
            "__gpuemu_rounded_to_f32");
  EXPECT_EQ(Arg(Calls[1], 0), uint64_t(ConvertFrom::Signed));
  EXPECT_EQ(Arg(Calls[1], 1), uint64_t(RoundingMode::Down));
}

// What libdevice's functions call (the public programs that stopped at
// link time reached saturate.f, sqrt.approx.f and round.f): host IR, no
// llvm.nvvm.* left, and code the host can generate.
TEST_F(GPUEmulationTest, LibdeviceIntrinsicsBecomeHostIR) {
  std::unique_ptr<Module> M = parse(R"(
define ptx_kernel void @k(ptr %out, float %x, double %d, i64 %n, i32 %i) {
  %a = call float @llvm.nvvm.saturate.f(float %x)
  %b = call float @llvm.nvvm.sqrt.approx.f(float %a)
  %c = call float @llvm.nvvm.round.f(float %b)
  %e = call float @llvm.nvvm.ex2.approx.ftz.f32(float %c)
  %f = call float @llvm.nvvm.fmin.ftz.f(float %e, float %x)
  store float %f, ptr %out
  %g = call i32 @llvm.nvvm.d2i.rn(double %d)
  %h = call i64 @llvm.nvvm.f2ull.rz(float %x)
  %j = call i64 @llvm.nvvm.mulhi.ll(i64 %n, i64 %h)
  %k = call i32 @llvm.nvvm.prmt(i32 %g, i32 %i, i32 4660)
  %l = call i16 @llvm.nvvm.f2h.rn(float %x)
  %m = call double @llvm.nvvm.rsqrt.approx.d(double %d)
  %q = call float @llvm.nvvm.div.full(float %x, float %a)
  store float %q, ptr %out
  store i32 %k, ptr %out
  store i64 %j, ptr %out
  store i16 %l, ptr %out
  store double %m, ptr %out
  ret void
}
declare float @llvm.nvvm.saturate.f(float)
declare float @llvm.nvvm.sqrt.approx.f(float)
declare float @llvm.nvvm.round.f(float)
declare float @llvm.nvvm.ex2.approx.ftz.f32(float)
declare float @llvm.nvvm.fmin.ftz.f(float, float)
declare i32 @llvm.nvvm.d2i.rn(double)
declare i64 @llvm.nvvm.f2ull.rz(float)
declare i64 @llvm.nvvm.mulhi.ll(i64, i64)
declare i32 @llvm.nvvm.prmt(i32, i32, i32)
declare i16 @llvm.nvvm.f2h.rn(float)
declare double @llvm.nvvm.rsqrt.approx.d(double)
declare float @llvm.nvvm.div.full(float, float)
)");
  ASSERT_TRUE(M);
  ASSERT_NO_ERROR(retarget(*M));
  std::vector<std::string> Called = callees(*M->getFunction("k"));
  for (const std::string &Name : Called)
    EXPECT_FALSE(StringRef(Name).starts_with("llvm.nvvm.")) << Name;
  for (StringRef Expected :
       {"llvm.sqrt.f32", "llvm.roundeven.f32", "llvm.exp2.f32",
        "llvm.minnum.f32", "llvm.roundeven.f64", "llvm.fptosi.sat.i32.f64",
        "llvm.fptoui.sat.i64.f32"})
    EXPECT_NE(std::find(Called.begin(), Called.end(), Expected), Called.end())
        << Expected.str();
  Expected<SmallString<0>> Object = offload::emitObject(*M);
  ASSERT_TRUE(!!Object) << toString(Object.takeError());
}

// libdevice's multi-word arithmetic in inline assembly (its argument
// reduction for sin and cos of large arguments) becomes wide integers.
TEST_F(GPUEmulationTest, LibdeviceInlineAssemblyBecomesHostIR) {
  std::unique_ptr<Module> M = parse(R"(
define ptx_kernel void @k(ptr %out, i32 %a, i32 %b, i32 %c, i64 %x, i64 %y) {
  %w = call { i32, i32 } asm "{\0A\09mad.lo.cc.u32   $0, $2, $3, $4;\0A\09madc.hi.u32     $1, $2, $3,  0;\0A\09}", "=r,=r,r,r,r"(i32 %a, i32 %b, i32 %c)
  %lo = extractvalue { i32, i32 } %w, 0
  %s = call i32 asm "bfind.shiftamt.u32 $0, $1;", "=r,r"(i32 %lo)
  %d = call double asm "sub.rz.f64 $0, $1, $2;", "=d,d,d"(double 1.0, double 3.0)
  store i32 %s, ptr %out
  store double %d, ptr %out
  ret void
}
)");
  ASSERT_TRUE(M);
  ASSERT_NO_ERROR(retarget(*M));
  for (Instruction &I : instructions(*M->getFunction("k")))
    if (auto *Call = dyn_cast<CallInst>(&I))
      EXPECT_FALSE(Call->isInlineAsm());
  EXPECT_EQ(
      callees(*M->getFunction("k")),
      (std::vector<std::string>{"llvm.ctlz.i32", "__gpuemu_rounded_f64"}));
}

/// CUDA's libdevice, when the toolkit is installed.
constexpr const char *LibdevicePath =
    "/usr/local/cuda/nvvm/libdevice/libdevice.10.bc";

// Every function of libdevice, retargeted and compiled for the host: every
// intrinsic and inline assembly statement it has is handled. (__nvvm_reflect
// is answered 0, as the NVPTX link does by default.)
TEST_F(GPUEmulationTest, AllOfLibdeviceRetargets) {
  auto Buffer = MemoryBuffer::getFile(LibdevicePath);
  if (!Buffer)
    GTEST_SKIP() << LibdevicePath << " is not installed";
  Expected<std::unique_ptr<Module>> Lib =
      parseBitcodeFile((*Buffer)->getMemBufferRef(), Ctx);
  ASSERT_TRUE(!!Lib) << toString(Lib.takeError());
  Module &M = **Lib;
  if (Function *Reflect = M.getFunction("__nvvm_reflect")) {
    for (User *U : make_early_inc_range(Reflect->users())) {
      auto *Call = cast<CallInst>(U);
      Call->replaceAllUsesWith(ConstantInt::get(Call->getType(), 0));
      Call->eraseFromParent();
    }
    Reflect->eraseFromParent();
  }
  size_t Functions = 0;
  for (Function &F : M)
    Functions += !F.isDeclaration();
  EXPECT_GT(Functions, 300u);
  ASSERT_NO_ERROR(retarget(M));
  for (Function &F : M)
    EXPECT_FALSE(F.getName().starts_with("llvm.nvvm.")) << F.getName().str();
  Expected<SmallString<0>> Object = offload::emitObject(M);
  ASSERT_TRUE(!!Object) << toString(Object.takeError());
}

TEST_F(GPUEmulationTest, UnknownInlineAssemblyIsNamed) {
  std::unique_ptr<Module> M = parse(R"(
define ptx_kernel void @k() {
  %r = call i32 asm "mov.u32 $0, %clock;", "=r"()
  ret void
}
)");
  ASSERT_TRUE(M);
  EXPECT_EQ(offload_test::errorMessage(retarget(*M)),
            "the GPU emulator cannot run inline assembly 'mov.u32 $0, "
            "%clock;' (in function 'k')");
}

TEST_F(GPUEmulationTest, UndefinedFunctionIsNamed) {
  std::unique_ptr<Module> M = parse(R"(
define ptx_kernel void @k(double %x) {
  %r = call double @__nv_sin(double %x)
  ret void
}
declare double @__nv_sin(double)
)");
  ASSERT_TRUE(M);
  EXPECT_EQ(offload_test::errorMessage(retarget(*M)),
            "the device code calls '__nv_sin' (from 'k'), which nothing "
            "defines and the GPU emulator does not provide");
}

// The emulated driver caps launches as a GPU's does, by the block-size bound
// the kernel was compiled with (link-time OpenMPOpt folds the block size to
// it); kernels without one export none.
TEST_F(GPUEmulationTest, KernelBlockBoundIsExported) {
  std::unique_ptr<Module> M = parse(R"(
define ptx_kernel void @bounded() #0 {
  ret void
}
define ptx_kernel void @cube() #1 {
  ret void
}
define ptx_kernel void @free() {
  ret void
}
attributes #0 = { "nvvm.maxntid"="128" }
attributes #1 = { "nvvm.maxntid"="8,4,2" }
)");
  ASSERT_TRUE(M);
  ASSERT_FALSE(errorToBool(retarget(*M)));
  auto Bound = [&](StringRef Kernel) -> uint64_t {
    GlobalVariable *GV = M->getGlobalVariable(
        (offload::gpuemu::MaxThreadsPrefix + Kernel).str());
    if (!GV)
      return 0;
    EXPECT_TRUE(GV->isConstant());
    EXPECT_EQ(GV->getVisibility(), GlobalValue::DefaultVisibility);
    return cast<ConstantInt>(GV->getInitializer())->getZExtValue();
  };
  EXPECT_EQ(Bound("bounded"), 128u);
  EXPECT_EQ(Bound("cube"), 64u);
  EXPECT_EQ(Bound("free"), 0u);
}

TEST_F(GPUEmulationTest, BadKernelBlockBoundIsNamed) {
  std::unique_ptr<Module> M = parse(R"(
define ptx_kernel void @k() #0 {
  ret void
}
attributes #0 = { "nvvm.maxntid"="128,x" }
)");
  ASSERT_TRUE(M);
  EXPECT_EQ(offload_test::errorMessage(retarget(*M)),
            "kernel 'k' has a bad nvvm.maxntid attribute '128,x'");
}

TEST_F(GPUEmulationTest, OnlyNVPTXAndAMDGCNModules) {
  std::unique_ptr<Module> M = parse("");
  ASSERT_TRUE(M);
  M->setTargetTriple(Triple("spirv64-unknown-unknown"));
  EXPECT_EQ(offload_test::errorMessage(retarget(*M)),
            "the GPU emulator runs nvptx64 and amdgcn images; this module is "
            "for 'spirv64-unknown-unknown'");
}

} // namespace
