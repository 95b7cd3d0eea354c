//===- RetargetTest.h - Fixture for tests of GPU IR retargeting -*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What the tests of the emulator's retargeting (llvm/lib/GPUEmulation) of
// nvptx64 and amdgcn IR share: modules parsed from IR text after their
// GPU's target lines, retargeted to the host, and the calls looked for in
// the result.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_UNITTESTS_RETARGETTEST_H
#define OFFLOAD_UNITTESTS_RETARGETTEST_H

#include "offload/GPUEmulation/HostRetarget.h"
#include "offload/Offloading/ObjectEmitter.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

namespace offload_test {

constexpr const char *NVPTXHeader = R"(
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
)";

constexpr const char *AMDGPUHeader = R"(
target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
)";

/// A test of modules for the GPU whose target lines are \p Header
/// (NVPTXHeader or AMDGPUHeader).
class RetargetTest : public ::testing::Test {
protected:
  explicit RetargetTest(const char *Header) : Header(Header) {}

  void SetUp() override { offload::initializeAllTargetsOnce(); }

  /// The module of the IR \p Body after the target lines; nullptr, and a
  /// failure of the test, if it does not parse.
  std::unique_ptr<llvm::Module> parse(llvm::StringRef Body) {
    llvm::SMDiagnostic Diag;
    std::unique_ptr<llvm::Module> M = llvm::parseAssemblyString(
        (llvm::Twine(Header) + Body).str(), Diag, Ctx);
    if (!M)
      ADD_FAILURE() << Diag.getMessage().str();
    return M;
  }

  /// Retargets \p M without the access checks (AccessChecks.cpp), whose
  /// calls would come between the ones these tests look for;
  /// AccessChecksTest.cpp tests them.
  llvm::Error retarget(llvm::Module &M) {
    setenv("GPUEMU_LINK_WITHOUT_CHECKS", "1", 1);
    llvm::Error E = offload::gpuemu::retargetToHost(
        M, llvm::Triple("x86_64-unknown-linux-gnu"));
    unsetenv("GPUEMU_LINK_WITHOUT_CHECKS");
    return E;
  }

  /// Whether \p I is the call by which a function hands over to its copy
  /// with schedule points under a random schedule (SchedulePoints.cpp).
  static bool isScheduleForward(const llvm::Instruction &I) {
    auto *Call = llvm::dyn_cast<llvm::CallInst>(&I);
    return Call && Call->getCalledFunction() &&
           Call->getCalledFunction()->getName().ends_with(".schedule_points");
  }

  /// Names of the functions \p F calls, in order, but for the hand-over
  /// above.
  static std::vector<std::string> callees(llvm::Function &F) {
    std::vector<std::string> Names;
    for (llvm::Instruction &I : llvm::instructions(F))
      if (auto *Call = llvm::dyn_cast<llvm::CallInst>(&I))
        if (llvm::Function *Callee = Call->getCalledFunction();
            Callee && !isScheduleForward(I))
          Names.push_back(Callee->getName().str());
    return Names;
  }

  llvm::LLVMContext Ctx;

private:
  const char *Header;
};

} // namespace offload_test

#endif // OFFLOAD_UNITTESTS_RETARGETTEST_H
