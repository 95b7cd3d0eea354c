//===- AccessChecksTest.cpp - The access checks of emulated images --------===//
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

#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include "gtest/gtest.h"

#include <vector>

using namespace llvm;
namespace emu = offload::gpuemu;

namespace {

class AccessChecksTest : public offload_test::RetargetTest {
protected:
  AccessChecksTest() : RetargetTest(offload_test::NVPTXHeader) {}

  /// The calls of __gpuemu_check_access in \p F, in order.
  static std::vector<CallInst *> checks(Function &F) {
    std::vector<CallInst *> Calls;
    for (Instruction &I : instructions(F))
      if (auto *Call = dyn_cast<CallInst>(&I))
        if (Function *Callee = Call->getCalledFunction();
            Callee && Callee->getName() == "__gpuemu_check_access")
          Calls.push_back(Call);
    return Calls;
  }

  static uint32_t kindOf(CallInst *Call) {
    return uint32_t(cast<ConstantInt>(Call->getArgOperand(2))->getZExtValue());
  }
};

// A store through a pointer argument, a team-shared load, an atomic, a
// fence and a stack variable's store: every access but the stack one is
// checked, each behind the image's flag, with its kind and size.
TEST_F(AccessChecksTest, AccessesAreCheckedBehindTheFlag) {
  std::unique_ptr<Module> M = parse(R"(
@team = internal addrspace(3) global [4 x i32] undef, align 4
define ptx_kernel void @k(ptr %out, i32 %i) {
  %local = alloca i32, align 4
  store i32 %i, ptr %local, align 4
  %p = getelementptr [4 x i32], ptr addrspace(3) @team, i32 0, i32 %i
  %v = load i32, ptr addrspace(3) %p, align 4
  store i32 %v, ptr %out, align 4
  %old = atomicrmw add ptr %out, i32 1 seq_cst, align 4
  fence seq_cst
  ret void
}
)");
  ASSERT_TRUE(M);
  ASSERT_NO_ERROR(emu::retargetToHost(*M, Triple("x86_64-unknown-linux-gnu")));
  auto *Flags = M->getNamedGlobal(emu::CheckFlagsSymbol);
  ASSERT_TRUE(Flags);
  EXPECT_FALSE(Flags->hasLocalLinkage());
  Function *K = M->getFunction("k");
  ASSERT_TRUE(K);
  std::vector<CallInst *> Calls = checks(*K);
  ASSERT_EQ(Calls.size(), 4u);
  EXPECT_EQ(kindOf(Calls[0]) & 0xff, uint32_t(emu::AccessShared));
  EXPECT_EQ(kindOf(Calls[1]) & 0xff,
            uint32_t(emu::AccessStore | emu::AccessHasValue));
  EXPECT_EQ(kindOf(Calls[1]) >> emu::AccessAlignShift, 2u); // align 4
  EXPECT_EQ(kindOf(Calls[2]) & 0xff,
            uint32_t(emu::AccessStore | emu::AccessAtomic));
  EXPECT_EQ(kindOf(Calls[3]) & 0xff, uint32_t(emu::AccessFence));
  for (CallInst *Call : Calls.size() == 4 ? Calls : std::vector<CallInst *>{})
    EXPECT_EQ(cast<ConstantInt>(Call->getArgOperand(1))->getZExtValue(),
              Call == Calls[3] ? 0u : 4u);
  // Each call is in a block of its own that only a set flag reaches.
  for (CallInst *Call : Calls) {
    BasicBlock *Pred = Call->getParent()->getSinglePredecessor();
    ASSERT_TRUE(Pred);
    auto *Branch = dyn_cast<BranchInst>(Pred->getTerminator());
    ASSERT_TRUE(Branch && Branch->isConditional());
    EXPECT_EQ(Branch->getSuccessor(0), Call->getParent());
  }
  Expected<SmallString<0>> Object = offload::emitObject(*M);
  ASSERT_TRUE(!!Object) << toString(Object.takeError());
}

// GPUEMU_LINK_WITHOUT_CHECKS leaves them out (to measure their cost).
TEST_F(AccessChecksTest, LinkWithoutChecks) {
  std::unique_ptr<Module> M = parse(R"(
define ptx_kernel void @k(ptr %out) {
  store i32 1, ptr %out, align 4
  ret void
}
)");
  ASSERT_TRUE(M);
  setenv("GPUEMU_LINK_WITHOUT_CHECKS", "1", 1);
  Error E = emu::retargetToHost(*M, Triple("x86_64-unknown-linux-gnu"));
  unsetenv("GPUEMU_LINK_WITHOUT_CHECKS");
  ASSERT_NO_ERROR(std::move(E));
  EXPECT_TRUE(checks(*M->getFunction("k")).empty());
  EXPECT_FALSE(M->getNamedGlobal(emu::CheckFlagsSymbol));
}

} // namespace
