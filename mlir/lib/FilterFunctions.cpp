//===- FilterFunctions.cpp - Host and device function filtering -----------===//
//
// The omp-offload-filter-functions pass (include/offload-mlir/Passes.h,
// docs/MLIR.md): what each copy of a module keeps of its functions, from
// the declare-target marks MarkDeclareTarget.cpp completed. A device module
// keeps only what the device needs, a host module everything. The pass
// also lowers host_eval operands (HostEvalLowering.cpp) first.
//
//===----------------------------------------------------------------------===//

#include "offload-mlir/Passes.h"

#include "PassHelpers.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/Pass.h"

#include "llvm/ADT/SmallVector.h"

#include <optional>

using namespace mlir;

namespace offload::mlir_passes {
namespace {

bool containsTargetRegion(Operation *Op) {
  return Op->walk([](omp::TargetOp) { return WalkResult::interrupt(); })
      .wasInterrupted();
}

std::optional<DeviceType> getDeviceType(Operation *Op) {
  auto DT = asDeclareTarget(Op);
  if (!DT || !DT.isDeclareTarget())
    return std::nullopt;
  return DT.getDeclareTargetDeviceType();
}

/// Turns \p Func into a declaration (a function without body).
void dropBody(FunctionOpInterface Func) {
  Region &Body = Func.getFunctionBody();
  Body.dropAllReferences();
  Body.getBlocks().clear();
  if (auto LLVMFunc = dyn_cast<LLVM::LLVMFuncOp>(Func.getOperation())) {
    if (LLVMFunc.getLinkage() != LLVM::Linkage::ExternWeak)
      LLVMFunc.setLinkage(LLVM::Linkage::External);
  } else {
    SymbolTable::setSymbolVisibility(Func, SymbolTable::Visibility::Private);
  }
}

/// In a device module (omp.is_target_device = true): a function that is
/// neither declare target nohost/any nor holds an omp.target region is host
/// code; it is removed, or, while a kept function still refers to it, reduced
/// to a declaration marked device_type(host). A host function holding target
/// regions is kept for the outlining and marked device_type(host), so the
/// translation drops it once its regions are outlined.
///
/// A host module keeps every function with its body, as Flang's filtering
/// does: a nohost function is still what the host fallback of a target
/// region calls when the region runs on the host.
///
/// In both, host_eval operands of omp.target are handled by lowerHostEval.
struct FilterFunctionsPass
    : PassWrapper<FilterFunctionsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(FilterFunctionsPass)

  StringRef getArgument() const override {
    return "omp-offload-filter-functions";
  }
  StringRef getDescription() const override {
    return "Remove host-only functions from device modules (host modules "
           "keep every function)";
  }
  void getDependentDialects(DialectRegistry &Registry) const override {
    Registry.insert<omp::OpenMPDialect, LLVM::LLVMDialect>();
  }

  void runOnOperation() override {
    ModuleOp Module = getOperation();
    auto Offload = dyn_cast<omp::OffloadModuleInterface>(Module.getOperation());
    bool IsDevice = Offload && Offload.getIsTargetDevice();

    Module.walk([&](omp::TargetOp Target) { lowerHostEval(Target, IsDevice); });

    llvm::SmallVector<FunctionOpInterface> Funcs(
        Module.getOps<FunctionOpInterface>());
    if (!IsDevice)
      return;

    llvm::SmallVector<FunctionOpInterface> HostOnly;
    for (FunctionOpInterface Func : Funcs) {
      std::optional<DeviceType> Type = getDeviceType(Func);
      if (Type == DeviceType::nohost || Type == DeviceType::any)
        continue;
      auto DT = asDeclareTarget(Func);
      if (containsTargetRegion(Func)) {
        if (!Type && DT)
          DT.setDeclareTarget(DeviceType::host, CaptureClause::to,
                              /*automap=*/false);
        continue;
      }
      HostOnly.push_back(Func);
    }
    // Removing one function may leave another without uses.
    bool Erased = true;
    while (Erased) {
      Erased = false;
      for (FunctionOpInterface &Func : HostOnly) {
        if (!Func || !SymbolTable::symbolKnownUseEmpty(Func, Module))
          continue;
        Func.erase();
        Func = FunctionOpInterface();
        Erased = true;
      }
    }
    for (FunctionOpInterface Func : HostOnly) {
      if (!Func)
        continue;
      if (!Func.isExternal())
        dropBody(Func);
      if (auto DT = asDeclareTarget(Func))
        DT.setDeclareTarget(DeviceType::host, CaptureClause::to,
                            /*automap=*/false);
    }
  }
};

} // namespace

std::unique_ptr<Pass> createFilterFunctionsPass() {
  return std::make_unique<FilterFunctionsPass>();
}

} // namespace offload::mlir_passes
