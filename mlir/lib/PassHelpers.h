//===- PassHelpers.h - Shared by the offload passes -------------*- C++ -*-===//
//
// Private to mlir/lib (not installed; the passes' interface is
// include/offload-mlir/Passes.h): what more than one pass file uses. The
// declare-target marking (MarkDeclareTarget.cpp) and the function filtering
// (FilterFunctions.cpp) both read and write declare-target marks; the
// filtering calls the host_eval lowering (HostEvalLowering.cpp). What only
// one file uses stays in that file's anonymous namespace.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_MLIR_LIB_PASSHELPERS_H
#define OFFLOAD_MLIR_LIB_PASSHELPERS_H

#include "mlir/Dialect/OpenMP/OpenMPDialect.h"

namespace offload::mlir_passes {

using DeviceType = mlir::omp::DeclareTargetDeviceType;
using CaptureClause = mlir::omp::DeclareTargetCaptureClause;

inline mlir::omp::DeclareTargetInterface asDeclareTarget(mlir::Operation *Op) {
  return mlir::dyn_cast<mlir::omp::DeclareTargetInterface>(Op);
}

/// Rewrites the host_eval operands of \p Target into values the kernel
/// receives, in a host (\p IsDevice false) or a device module; the comment
/// at its definition (HostEvalLowering.cpp) says how.
void lowerHostEval(mlir::omp::TargetOp Target, bool IsDevice);

} // namespace offload::mlir_passes

#endif // OFFLOAD_MLIR_LIB_PASSHELPERS_H
