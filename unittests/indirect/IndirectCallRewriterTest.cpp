//===- IndirectCallRewriterTest.cpp - The pass through its C++ interface --===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "offload/Transforms/IndirectCallRewriter.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/SourceMgr.h"

#include "gtest/gtest.h"

using namespace llvm;

namespace {

constexpr const char *DeviceFlag = R"(
!llvm.module.flags = !{!0}
!0 = !{i32 7, !"openmp-device", i32 51}
)";

std::unique_ptr<Module> parse(LLVMContext &Ctx, const std::string &IR) {
  SMDiagnostic Diag;
  std::unique_ptr<Module> M = parseAssemblyString(IR, Diag, Ctx);
  if (!M)
    ADD_FAILURE() << "bad test IR: " << Diag.getMessage().str();
  return M;
}

unsigned countLookups(const Module &M) {
  const Function *Lookup = M.getFunction(offload::IndirectCallLookupName);
  return Lookup ? Lookup->getNumUses() : 0;
}

TEST(IndirectCallRewriter, CountsWhatItChanges) {
  LLVMContext Ctx;
  auto M = parse(Ctx, std::string(R"(
declare i32 @f(i32)
declare i32 @g(i32)
define i32 @k(ptr %fp, ptr %obj, i1 %c) {
  %a = call i32 %fp(i32 1)
  %sel = select i1 %c, ptr @f, ptr @g
  %b = call i32 %sel(i32 %a)
  %vt = load ptr, ptr %obj
  %slot = getelementptr ptr, ptr %vt, i64 2
  %vf = load ptr, ptr %slot
  %d = call i32 %vf(ptr %obj, i32 %b)
  %e = call i32 @f(i32 %d)
  ret i32 %e
}
)") + DeviceFlag);
  ASSERT_TRUE(M);
  offload::IndirectCallRewriterStats Stats = offload::rewriteIndirectCalls(*M);
  EXPECT_EQ(Stats.RewrittenCalls, 2u);
  EXPECT_EQ(Stats.TranslatedVTables, 1u);
  EXPECT_EQ(Stats.ProvablyDirectCalls, 1u);
  EXPECT_EQ(countLookups(*M), 3u);
  EXPECT_FALSE(verifyModule(*M, &errs()));

  // Running again finds only translated calls.
  Stats = offload::rewriteIndirectCalls(*M);
  EXPECT_EQ(Stats.RewrittenCalls, 0u);
  EXPECT_EQ(Stats.AlreadyTranslatedCalls, 2u);
  EXPECT_EQ(countLookups(*M), 3u);
}

TEST(IndirectCallRewriter, HostModulesNeedForce) {
  LLVMContext Ctx;
  auto M = parse(Ctx, R"(
define void @h(ptr %fp) {
  call void %fp()
  ret void
}
)");
  ASSERT_TRUE(M);
  EXPECT_FALSE(offload::isOpenMPDeviceModule(*M));
  EXPECT_EQ(offload::rewriteIndirectCalls(*M).RewrittenCalls, 0u);
  offload::IndirectCallRewriterOptions Force;
  Force.Force = true;
  Force.LookupName = offload::LegacyTranslateFptrName.str();
  EXPECT_EQ(offload::rewriteIndirectCalls(*M, Force).RewrittenCalls, 1u);
  EXPECT_NE(M->getFunction(offload::LegacyTranslateFptrName), nullptr);
  EXPECT_FALSE(verifyModule(*M, &errs()));
}

TEST(IndirectCallRewriter, FindsIndirectEntries) {
  LLVMContext Ctx;
  const char *Entries = R"(
%entry = type { i64, i16, i16, i32, ptr, ptr, i64, i64, ptr }
@fn = global i32 0
@name = constant [3 x i8] c"fn\00"
@e = constant %entry { i64 0, i16 1, i16 1, i32 FLAGS, ptr @fn, ptr @name, i64 8, i64 0, ptr null }, section "llvm_offload_entries"
)";
  for (auto [Flags, Want] : {std::pair<const char *, bool>{"8", true},
                             {"32", true},
                             {"0", false},
                             {"1", false}}) {
    std::string IR = Entries;
    IR.replace(IR.find("FLAGS"), 5, Flags);
    auto M = parse(Ctx, IR);
    ASSERT_TRUE(M);
    EXPECT_EQ(offload::hasIndirectOffloadEntries(*M), Want)
        << "flags " << Flags;
  }
}

} // namespace

namespace {
TEST(IndirectCallRewriter, FindsGPUIndirectGlobals) {
  LLVMContext Ctx;
  auto M = parse(Ctx, R"(
define i32 @twice(i32 %x) {
  ret i32 %x
}
@__omp_offloading_fe00_1_twice_l4 = protected constant ptr @twice
)");
  ASSERT_TRUE(M);
  EXPECT_TRUE(offload::hasIndirectOffloadEntries(*M));
  auto Plain = parse(Ctx, R"(
@__omp_offloading_fe00_1_counter = global i32 0
@other = constant ptr @other
)");
  ASSERT_TRUE(Plain);
  EXPECT_FALSE(offload::hasIndirectOffloadEntries(*Plain));
}
} // namespace
