//===- Pipeline.cpp - The offload pipeline of mlir-offload ----------------===//
//
// What mlir-offload runs on each copy of a module before translating it to
// LLVM IR (include/offload-mlir/Passes.h, docs/MLIR.md): our three passes,
// then the upstream lowerings to the LLVM dialect, and the check that
// nothing was left outside the LLVM and OpenMP dialects. The passes are
// registered here through their create functions, so their classes stay
// private to their files.
//
//===----------------------------------------------------------------------===//

#include "offload-mlir/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/OpenMPToLLVM/ConvertOpenMPToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

namespace offload::mlir_passes {

void registerOffloadPasses() {
  registerPass(createMarkDeclareTargetPass);
  registerPass(createMemRefMapsPass);
  registerPass(createFilterFunctionsPass);
  PassPipelineRegistration<>(
      "omp-offload-pipeline",
      "What mlir-offload runs on each copy of a module (whose "
      "omp.is_target_device attribute says host or device) before "
      "translating it to LLVM IR",
      [](OpPassManager &PM) { buildOffloadPipeline(PM); });
}

void buildOffloadPipeline(OpPassManager &PM) {
  PM.addPass(createMarkDeclareTargetPass());
  PM.addPass(createMemRefMapsPass());
  PM.addPass(createFilterFunctionsPass());
  // Subviews and other strided views become explicit metadata arithmetic.
  PM.addPass(memref::createExpandStridedMetadataPass());
  PM.addPass(createLowerAffinePass());
  PM.addPass(createSCFToControlFlowPass());
  PM.addPass(createArithToLLVMConversionPass());
  PM.addPass(createConvertControlFlowToLLVMPass());
  PM.addPass(createConvertFuncToLLVMPass());
  PM.addPass(createFinalizeMemRefToLLVMConversionPass());
  PM.addPass(createUBToLLVMConversionPass());
  PM.addPass(createConvertOpenMPToLLVMPass());
  PM.addPass(createReconcileUnrealizedCastsPass());
}

LogicalResult checkLoweredModule(ModuleOp Module) {
  bool Failed = false;
  Module.walk([&](Operation *Op) {
    if (Op == Module.getOperation())
      return WalkResult::advance();
    Dialect *D = Op->getDialect();
    if (D && isa<LLVM::LLVMDialect, omp::OpenMPDialect>(D))
      return WalkResult::advance();
    // A cast left over marks a value whose producer or user was not lowered;
    // that operation is reported instead when there is one.
    if (isa<UnrealizedConversionCastOp>(Op))
      return WalkResult::advance();
    Op->emitError() << "'" << Op->getName()
                    << "' was not lowered to the LLVM dialect: mlir-offload "
                       "lowers the func, arith, scf, cf, memref and affine "
                       "dialects (docs/MLIR.md)";
    Failed = true;
    return WalkResult::skip();
  });
  if (Failed)
    return failure();
  Module.walk([&](UnrealizedConversionCastOp Cast) {
    Cast.emitError() << "a value of type " << Cast.getOperandTypes()
                     << " could not be converted to " << Cast.getResultTypes()
                     << " while lowering to the LLVM dialect";
    Failed = true;
  });
  return failure(Failed);
}

} // namespace offload::mlir_passes
