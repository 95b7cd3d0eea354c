//===- mlir-offload-opt.cpp - mlir-opt with the offload passes ------------===//
//
// mlir-opt with every upstream dialect and pass, plus ours
// (omp-offload-mark-declare-target, omp-offload-memref-maps,
// omp-offload-filter-functions). Used by the FileCheck tests of test/mlir.
//
//===----------------------------------------------------------------------===//

#include "offload-mlir/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int Argc, char **Argv) {
  mlir::registerAllPasses();
  offload::mlir_passes::registerOffloadPasses();
  mlir::DialectRegistry Registry;
  mlir::registerAllDialects(Registry);
  mlir::registerAllExtensions(Registry);
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      Argc, Argv, "MLIR optimizer driver with the offload passes\n", Registry));
}
