//===- Passes.h - Offload passes over the OpenMP dialect --------*- C++ -*-===//
//
// The passes mlir-offload runs before lowering a module to the LLVM dialect
// (docs/MLIR.md). They work on the upstream OpenMP dialect together with the
// builtin, func, arith, scf, memref and llvm dialects:
//
//   omp-offload-mark-declare-target  marks every function reachable from an
//                                    omp.target region or a declare-target
//                                    function as declare target;
//   omp-offload-memref-maps          turns a map of a memref into a map of its
//                                    descriptor with a member map of the data;
//   omp-offload-filter-functions     keeps, in a device module, only what the
//                                    device needs, and leaves no nohost body
//                                    in a host module.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_MLIR_PASSES_H
#define OFFLOAD_MLIR_PASSES_H

#include "mlir/Support/LogicalResult.h"

#include <memory>

namespace mlir {
class Pass;
class OpPassManager;
class ModuleOp;
} // namespace mlir

namespace offload::mlir_passes {

std::unique_ptr<mlir::Pass> createMarkDeclareTargetPass();
std::unique_ptr<mlir::Pass> createMemRefMapsPass();
std::unique_ptr<mlir::Pass> createFilterFunctionsPass();

/// Registers the passes above under their names (for mlir-offload-opt and
/// textual pipelines).
void registerOffloadPasses();

/// Adds what mlir-offload runs on a module whose omp.is_target_device
/// attribute is already set: our passes, then the lowering of the func,
/// arith, scf, cf and memref dialects (and the OpenMP operations using their
/// types) to the LLVM dialect.
void buildOffloadPipeline(mlir::OpPassManager &PM);

/// Reports, at its location, every operation of \p Module that the pipeline
/// left outside the LLVM and OpenMP dialects.
mlir::LogicalResult checkLoweredModule(mlir::ModuleOp Module);

} // namespace offload::mlir_passes

#endif // OFFLOAD_MLIR_PASSES_H
