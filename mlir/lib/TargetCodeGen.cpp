//===- TargetCodeGen.cpp - Target machines and LLVM pipelines -------------===//
//
// The target machine of each compilation, LLVM's optimization pipeline, and
// the stack slot rewrite AMDGPU needs after MLIR's translation.
//
//===----------------------------------------------------------------------===//

#include "TargetCodeGen.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Triple.h"

#include <optional>
#include <string>

using namespace llvm;

namespace offload::mlir_compiler {


Expected<std::unique_ptr<TargetMachine>>
createTargetMachine(const Triple &TT, StringRef CPU, unsigned OptLevel) {
  std::string Message;
  const llvm::Target *T = TargetRegistry::lookupTarget(TT, Message);
  if (!T)
    return createStringError("no code generator for '" + TT.str() +
                             "': " + Message);
  TargetOptions Options;
  Options.UseInitArray = true;
  CodeGenOptLevel Level = OptLevel == 0   ? CodeGenOptLevel::None
                          : OptLevel == 1 ? CodeGenOptLevel::Less
                          : OptLevel == 2 ? CodeGenOptLevel::Default
                                          : CodeGenOptLevel::Aggressive;
  std::unique_ptr<TargetMachine> TM(T->createTargetMachine(
      TT, CPU, /*Features=*/"", Options, Reloc::PIC_, std::nullopt, Level));
  if (!TM)
    return createStringError("cannot create a target machine for '" + TT.str() +
                             "'");
  return std::move(TM);
}

void optimize(Module &M, TargetMachine &TM, unsigned OptLevel) {
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PassBuilder PB(&TM);
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  OptimizationLevel Level = OptLevel == 0   ? OptimizationLevel::O0
                            : OptLevel == 1 ? OptimizationLevel::O1
                            : OptLevel == 2 ? OptimizationLevel::O2
                                            : OptimizationLevel::O3;
  ModulePassManager MPM = OptLevel == 0
                              ? PB.buildO0DefaultPipeline(Level)
                              : PB.buildPerModuleDefaultPipeline(Level);
  MPM.run(M, MAM);
}

void moveAllocasTo(Module &M, unsigned AddrSpace) {
  SmallVector<AllocaInst *> Allocas;
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      if (auto *AI = dyn_cast<AllocaInst>(&I))
        if (AI->getAddressSpace() != AddrSpace)
          Allocas.push_back(AI);
  for (AllocaInst *AI : Allocas) {
    IRBuilder<> B(AI);
    AllocaInst *Moved =
        B.CreateAlloca(AI->getAllocatedType(), AddrSpace, AI->getArraySize());
    Moved->setAlignment(AI->getAlign());
    Moved->takeName(AI);
    Value *Generic = B.CreateAddrSpaceCast(Moved, AI->getType());
    AI->replaceAllUsesWith(Generic);
    AI->eraseFromParent();
  }
}

} // namespace offload::mlir_compiler
