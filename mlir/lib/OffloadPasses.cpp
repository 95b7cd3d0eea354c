//===- OffloadPasses.cpp - Offload passes over the OpenMP dialect ---------===//
//
// Declare-target marking, memref descriptor maps and device/host function
// filtering (include/offload-mlir/Passes.h, docs/MLIR.md), and the pipeline
// mlir-offload runs before translating a module to LLVM IR.
//
//===----------------------------------------------------------------------===//

#include "offload-mlir/Passes.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/OpenMPToLLVM/ConvertOpenMPToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

using namespace mlir;

namespace offload::mlir_passes {
namespace {

using DeviceType = omp::DeclareTargetDeviceType;
using CaptureClause = omp::DeclareTargetCaptureClause;

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

omp::DeclareTargetInterface asDeclareTarget(Operation *Op) {
  return dyn_cast<omp::DeclareTargetInterface>(Op);
}

//===----------------------------------------------------------------------===//
// omp-offload-mark-declare-target
//===----------------------------------------------------------------------===//

/// Every function called, directly or through other calls, from an
/// omp.target region or from a declare-target function becomes declare
/// target. A function reached from a target region gets device_type(nohost);
/// one reached from a declare-target function gets that function's device
/// type and capture clause. A function reached with two different device
/// types (or already marked with another one) becomes device_type(any), as
/// it is needed on both sides. Calls through function values cannot be
/// followed: each one in device code gets a warning naming it.
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
    Root->walk([&](Operation *Op) {
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
};

//===----------------------------------------------------------------------===//
// omp-offload-filter-functions
//===----------------------------------------------------------------------===//

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

/// Replaces the body of \p Func by a trap: the function still exists (host
/// code may refer to it) but its code is not emitted.
void replaceBodyWithTrap(FunctionOpInterface Func) {
  Region &Body = Func.getFunctionBody();
  Location Loc = Func.getLoc();
  Body.dropAllReferences();
  Body.getBlocks().clear();
  Block *Entry = new Block();
  Body.push_back(Entry);
  for (Type ArgType : Func.getArgumentTypes())
    Entry->addArgument(ArgType, Loc);
  OpBuilder Builder = OpBuilder::atBlockBegin(Entry);
  LLVM::Trap::create(Builder, Loc);
  LLVM::UnreachableOp::create(Builder, Loc);
}

/// In a device module (omp.is_target_device = true): a function that is
/// neither declare target nohost/any nor holds an omp.target region is host
/// code; it is removed, or, while a kept function still refers to it, reduced
/// to a declaration marked device_type(host). A host function holding target
/// regions is kept for the outlining and marked device_type(host), so the
/// translation drops it once its regions are outlined.
///
/// In a host module: the body of every declare target nohost function is
/// replaced by a trap; the function stays declared for host code (such as
/// the host fallback of a target region) that names it.
struct FilterFunctionsPass
    : PassWrapper<FilterFunctionsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(FilterFunctionsPass)

  StringRef getArgument() const override {
    return "omp-offload-filter-functions";
  }
  StringRef getDescription() const override {
    return "Remove host-only functions from device modules and nohost "
           "function bodies from host modules";
  }
  void getDependentDialects(DialectRegistry &Registry) const override {
    Registry.insert<omp::OpenMPDialect, LLVM::LLVMDialect>();
  }

  void runOnOperation() override {
    ModuleOp Module = getOperation();
    auto Offload = dyn_cast<omp::OffloadModuleInterface>(Module.getOperation());
    bool IsDevice = Offload && Offload.getIsTargetDevice();

    llvm::SmallVector<FunctionOpInterface> Funcs(
        Module.getOps<FunctionOpInterface>());
    if (!IsDevice) {
      for (FunctionOpInterface Func : Funcs)
        if (!Func.isExternal() && getDeviceType(Func) == DeviceType::nohost)
          replaceBodyWithTrap(Func);
      return;
    }

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

std::unique_ptr<Pass> createMarkDeclareTargetPass() {
  return std::make_unique<MarkDeclareTargetPass>();
}
std::unique_ptr<Pass> createFilterFunctionsPass() {
  return std::make_unique<FilterFunctionsPass>();
}

void registerOffloadPasses() {
  PassRegistration<MarkDeclareTargetPass>();
  PassRegistration<FilterFunctionsPass>();
}

void buildOffloadPipeline(OpPassManager &PM) {
  PM.addPass(createMarkDeclareTargetPass());
  PM.addPass(createFilterFunctionsPass());
  PM.addPass(createSCFToControlFlowPass());
  PM.addPass(memref::createExpandStridedMetadataPass());
  PM.addPass(createArithToLLVMConversionPass());
  PM.addPass(createConvertControlFlowToLLVMPass());
  PM.addPass(createConvertFuncToLLVMPass());
  PM.addPass(createFinalizeMemRefToLLVMConversionPass());
  PM.addPass(createConvertOpenMPToLLVMPass());
  PM.addPass(createReconcileUnrealizedCastsPass());
}

} // namespace offload::mlir_passes
