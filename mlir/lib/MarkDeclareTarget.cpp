//===- MarkDeclareTarget.cpp - Declare target through calls ---------------===//
//
// The omp-offload-mark-declare-target pass (include/offload-mlir/Passes.h,
// docs/MLIR.md). A frontend marks only what the source says is declare
// target; this pass marks what those functions and omp.target regions reach
// through calls, so that the device module keeps every function a kernel
// calls. It runs first in the pipeline (Pipeline.cpp): the filter pass
// decides from these marks what a device module keeps.
//
//===----------------------------------------------------------------------===//

#include "offload-mlir/Passes.h"

#include "PassHelpers.h"

#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/Pass.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

using namespace mlir;

namespace offload::mlir_passes {
namespace {

/// The function a direct call names, or null for an indirect call (or a
/// callee that is not a function of this module).
FunctionOpInterface getDirectCallee(CallOpInterface Call) {
  auto Sym = dyn_cast_if_present<SymbolRefAttr>(Call.getCallableForCallee());
  if (!Sym)
    return nullptr;
  return dyn_cast_if_present<FunctionOpInterface>(
      SymbolTable::lookupNearestSymbolFrom(Call, Sym));
}

bool isIndirectCall(CallOpInterface Call) {
  return isa<Value>(Call.getCallableForCallee());
}

/// Every function called, directly or through other calls, from an
/// omp.target region or from a declare-target function becomes declare
/// target. A function reached from a target region gets device_type(nohost);
/// one reached from a declare-target function gets that function's device
/// type and capture clause. A function reached with two different device
/// types (or already marked with another one) becomes device_type(any), as
/// it is needed on both sides, as Flang's pass does. Host code counts as a
/// caller of type host: a nohost function that host code (a function that
/// runs on the host, outside its target regions) reaches becomes any too,
/// so a helper shared by host code and a target region is never nohost.
/// Calls through function values cannot be followed: each one in device
/// code gets a warning naming it.
struct MarkDeclareTargetPass
    : PassWrapper<MarkDeclareTargetPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(MarkDeclareTargetPass)

  StringRef getArgument() const override {
    return "omp-offload-mark-declare-target";
  }
  StringRef getDescription() const override {
    return "Mark the functions called from omp.target regions and from "
           "declare-target functions as declare target";
  }
  void getDependentDialects(DialectRegistry &Registry) const override {
    Registry.insert<omp::OpenMPDialect>();
  }

  struct Work {
    Operation *Callee;
    DeviceType Type;
    CaptureClause Capture;
    bool Automap;
  };

  llvm::SmallVector<Work> Worklist;
  llvm::DenseSet<Operation *> WarnedCalls;

  /// Queues every function \p Root calls, to be marked with \p Type. Calls
  /// inside nested omp.target regions are left to the target-region walk.
  void queueCallees(Operation *Root, DeviceType Type, CaptureClause Capture,
                    bool Automap, bool IsTargetRegion) {
    Root->walk<WalkOrder::PreOrder>([&](Operation *Op) {
      if (!IsTargetRegion && Op != Root && isa<omp::TargetOp>(Op))
        return WalkResult::skip();
      auto Call = dyn_cast<CallOpInterface>(Op);
      if (!Call)
        return WalkResult::advance();
      if (isIndirectCall(Call)) {
        if (Type != DeviceType::host && WarnedCalls.insert(Op).second)
          Call.emitWarning()
              << "indirect call in device code: the functions it may call "
                 "are not marked declare target by this pass; mark them "
                 "declare target explicitly";
        return WalkResult::advance();
      }
      if (FunctionOpInterface Callee = getDirectCallee(Call))
        if (asDeclareTarget(Callee))
          Worklist.push_back({Callee, Type, Capture, Automap});
      return WalkResult::advance();
    });
  }

  void runOnOperation() override {
    ModuleOp Module = getOperation();
    for (auto Func : Module.getOps<FunctionOpInterface>()) {
      auto DT = asDeclareTarget(Func);
      if (DT && DT.isDeclareTarget())
        queueCallees(Func, DT.getDeclareTargetDeviceType(),
                     DT.getDeclareTargetCaptureClause(),
                     DT.getDeclareTargetAutomap(), /*IsTargetRegion=*/false);
    }
    Module.walk([&](omp::TargetOp Target) {
      queueCallees(Target, DeviceType::nohost, CaptureClause::to,
                   /*Automap=*/false, /*IsTargetRegion=*/true);
    });

    propagate();
    markReachedFromHost(Module);
  }

  /// Marks what the queued calls reach.
  void propagate() {
    while (!Worklist.empty()) {
      Work W = Worklist.pop_back_val();
      auto DT = asDeclareTarget(W.Callee);
      bool Changed = false;
      if (!DT.isDeclareTarget()) {
        DT.setDeclareTarget(W.Type, W.Capture, W.Automap);
        Changed = true;
      } else if (DT.getDeclareTargetDeviceType() != W.Type &&
                 DT.getDeclareTargetDeviceType() != DeviceType::any) {
        DT.setDeclareTarget(DeviceType::any, DT.getDeclareTargetCaptureClause(),
                            DT.getDeclareTargetAutomap());
        Changed = true;
      }
      if (Changed)
        queueCallees(W.Callee, DT.getDeclareTargetDeviceType(),
                     DT.getDeclareTargetCaptureClause(),
                     DT.getDeclareTargetAutomap(), /*IsTargetRegion=*/false);
    }
  }

  /// True when \p Func has code that runs on the host: it is not declare
  /// target, or declare target host or any.
  static bool runsOnHost(Operation *Func) {
    auto DT = asDeclareTarget(Func);
    return !DT || !DT.isDeclareTarget() ||
           DT.getDeclareTargetDeviceType() != DeviceType::nohost;
  }

  /// Host code calling a nohost function makes it any; what it then calls
  /// from its host copy is host code in turn.
  void markReachedFromHost(ModuleOp Module) {
    llvm::SmallVector<Operation *> HostCode;
    llvm::DenseSet<Operation *> Seen;
    for (auto Func : Module.getOps<FunctionOpInterface>())
      if (runsOnHost(Func) && Seen.insert(Func).second)
        HostCode.push_back(Func);
    while (!HostCode.empty()) {
      Operation *Caller = HostCode.pop_back_val();
      Caller->walk<WalkOrder::PreOrder>([&](Operation *Op) {
        if (isa<omp::TargetOp>(Op))
          return WalkResult::skip(); // Device code.
        auto Call = dyn_cast<CallOpInterface>(Op);
        if (!Call || isIndirectCall(Call))
          return WalkResult::advance();
        FunctionOpInterface Callee = getDirectCallee(Call);
        if (!Callee || !Seen.insert(Callee).second)
          return WalkResult::advance();
        auto DT = asDeclareTarget(Callee);
        if (DT && DT.isDeclareTarget() &&
            DT.getDeclareTargetDeviceType() == DeviceType::nohost)
          DT.setDeclareTarget(DeviceType::any,
                              DT.getDeclareTargetCaptureClause(),
                              DT.getDeclareTargetAutomap());
        HostCode.push_back(Callee);
        return WalkResult::advance();
      });
    }
  }
};

} // namespace

std::unique_ptr<Pass> createMarkDeclareTargetPass() {
  return std::make_unique<MarkDeclareTargetPass>();
}

} // namespace offload::mlir_passes
