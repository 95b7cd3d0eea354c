//===- OffloadPasses.cpp - Offload passes over the OpenMP dialect ---------===//
//
// Declare-target marking, memref descriptor maps and device/host function
// filtering (include/offload-mlir/Passes.h, docs/MLIR.md), and the pipeline
// mlir-offload runs before translating a module to LLVM IR.
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

/// host_eval values of \p Target (loop bounds, team counts the host computes
/// for the launch) reach the kernel as values: a constant is rebuilt in the
/// region; any other value gets a by-copy map (a stack slot at the function's
/// entry, stored before the construct), added in host and device modules
/// alike so that both see the same kernel arguments. In a device module the
/// region then reads the map and host_eval is removed: the device
/// translation expects the region to compute these values itself, as a
/// frontend's device compilation emits it.
void lowerHostEval(omp::TargetOp Target, bool IsDevice) {
  if (Target.getHostEvalVars().empty())
    return;
  auto Args = cast<omp::BlockArgOpenMPOpInterface>(Target.getOperation());
  Block &Entry = Target.getRegion().front();
  OpBuilder Outside(Target);
  OpBuilder Inside = OpBuilder::atBlockBegin(&Entry);
  auto Ptr = LLVM::LLVMPointerType::get(Target.getContext());
  llvm::SmallVector<Value> Maps(Target.getMapVars());
  llvm::SmallVector<std::pair<BlockArgument, Value>> Replacements;
  llvm::SmallVector<Value> HostValues(Target.getHostEvalVars());
  unsigned MapEnd = Args.getMapBlockArgsStart() + Args.numMapBlockArgs();
  unsigned Index = 0;
  for (Value Host : HostValues) {
    BlockArgument Arg =
        Entry.getArgument(Args.getHostEvalBlockArgsStart() + Index++);
    Location Loc = Host.getLoc();
    Operation *Def = Host.getDefiningOp();
    if (Def && Def->hasTrait<OpTrait::ConstantLike>()) {
      if (IsDevice)
        Replacements.push_back({Arg, Inside.clone(*Def)->getResult(0)});
      continue;
    }
    Type ValueType = Host.getType();
    Type SlotType = ValueType.isIndex() ? Outside.getI64Type() : ValueType;
    Value Stored = Host;
    if (ValueType.isIndex())
      Stored = arith::IndexCastOp::create(Outside, Loc, SlotType, Host);
    Value Slot;
    {
      OpBuilder::InsertionGuard Guard(Outside);
      auto Func = Target->getParentOfType<FunctionOpInterface>();
      Outside.setInsertionPointToStart(&Func.getFunctionBody().front());
      Value One =
          LLVM::ConstantOp::create(Outside, Loc, Outside.getI64Type(), 1);
      Slot = LLVM::AllocaOp::create(Outside, Loc, Ptr, SlotType, One);
    }
    LLVM::StoreOp::create(Outside, Loc, Stored, Slot);
    auto Map = omp::MapInfoOp::create(
        Outside, Loc, Ptr, Slot, SlotType, omp::ClauseMapFlags::implicit,
        omp::VariableCaptureKind::ByCopy, Value(), ValueRange(), ArrayAttr(),
        ValueRange(), FlatSymbolRefAttr(), Outside.getStringAttr(""), false);
    Maps.push_back(Map);
    BlockArgument MapArg = Entry.insertArgument(MapEnd++, Ptr, Loc);
    if (IsDevice) {
      Value Loaded = LLVM::LoadOp::create(Inside, Loc, SlotType, MapArg);
      if (ValueType.isIndex())
        Loaded = arith::IndexCastOp::create(Inside, Loc, ValueType, Loaded);
      Replacements.push_back({Arg, Loaded});
    }
  }
  Target.getMapVarsMutable().assign(Maps);
  if (!IsDevice)
    return;
  for (auto &[Arg, Value] : Replacements)
    Arg.replaceAllUsesWith(Value);
  unsigned Start = Args.getHostEvalBlockArgsStart();
  unsigned Count = HostValues.size();
  Target.getHostEvalVarsMutable().clear();
  for (unsigned I = 0; I < Count; ++I)
    Entry.eraseArgument(Start);
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
///
/// In both, host_eval operands of omp.target are handled by lowerHostEval.
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

    Module.walk([&](omp::TargetOp Target) { lowerHostEval(Target, IsDevice); });

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

//===----------------------------------------------------------------------===//
// omp-offload-memref-maps
//===----------------------------------------------------------------------===//

/// The LLVM struct the memref-to-LLVM conversion gives a memref descriptor:
/// allocated pointer, aligned pointer, offset, sizes, strides.
LLVM::LLVMStructType getDescriptorType(MemRefType MT) {
  MLIRContext *Ctx = MT.getContext();
  auto Ptr = LLVM::LLVMPointerType::get(Ctx);
  auto I64 = IntegerType::get(Ctx, 64);
  llvm::SmallVector<Type> Fields{Ptr, Ptr, I64};
  if (MT.getRank() > 0) {
    auto Array = LLVM::LLVMArrayType::get(I64, MT.getRank());
    Fields.push_back(Array);
    Fields.push_back(Array);
  }
  return LLVM::LLVMStructType::getLiteral(Ctx, Fields);
}

/// The element type the data map names (index becomes i64, as lowered).
Type getDataElementType(MemRefType MT) {
  Type Element = MT.getElementType();
  if (Element.isIndex())
    return IntegerType::get(MT.getContext(), 64);
  return Element;
}

/// A map of a memref, rewritten for one construct.
struct MemRefMap {
  omp::MapInfoOp Original;
  MemRefType MT;
};

/// Turns maps of memrefs into maps the OpenMP translation understands.
///
/// On omp.target, a memref is mapped as its descriptor plus a member map of
/// the data it points to (seed 004's scheme for Fortran descriptors): the
/// descriptor is stored in a stack slot, the slot is mapped `to` with the
/// data as a member (var_ptr_ptr: the aligned-pointer field), so the runtime
/// attaches the device copy of the data to the device copy of the
/// descriptor. Inside the region the memref is rebuilt from the device
/// descriptor, so memref.load/store/dim see the device data and the shape.
///
/// The data's extent comes from the descriptor at run time
/// (memref.extract_strided_metadata): offset + sum((size_i - 1) * stride_i)
/// + 1 elements from the aligned pointer, or none when a size is 0; static
/// shapes fold to constants.
///
/// omp.target_enter_data, omp.target_exit_data, omp.target_update and
/// omp.target_data map only the data (the same extent, by the aligned
/// pointer): a later omp.target finds it present and attaches it to its
/// descriptor, and exit/update copy it by its host address.
struct MemRefMapsPass : PassWrapper<MemRefMapsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(MemRefMapsPass)

  StringRef getArgument() const override { return "omp-offload-memref-maps"; }
  StringRef getDescription() const override {
    return "Map memrefs as their descriptor plus a member map of their data";
  }
  void getDependentDialects(DialectRegistry &Registry) const override {
    Registry.insert<omp::OpenMPDialect, LLVM::LLVMDialect,
                    memref::MemRefDialect, arith::ArithDialect>();
  }

  /// Number of elements from the aligned pointer that \p M's view spans, as
  /// an i64, computed before \p B's insertion point.
  Value buildSpan(OpBuilder &B, Location Loc, Value M, MemRefType MT) {
    auto Meta = memref::ExtractStridedMetadataOp::create(B, Loc, M);
    Value Zero = arith::ConstantIndexOp::create(B, Loc, 0);
    Value One = arith::ConstantIndexOp::create(B, Loc, 1);
    Value Span = arith::AddIOp::create(B, Loc, Meta.getOffset(), One);
    Value Empty = arith::ConstantIntOp::create(B, Loc, 0, 1);
    for (int64_t Dim = 0; Dim < MT.getRank(); ++Dim) {
      Value Size = Meta.getSizes()[Dim];
      Value Last = arith::SubIOp::create(B, Loc, Size, One);
      Value Step = arith::MulIOp::create(B, Loc, Last, Meta.getStrides()[Dim]);
      Span = arith::AddIOp::create(B, Loc, Span, Step);
      Value IsZero =
          arith::CmpIOp::create(B, Loc, arith::CmpIPredicate::eq, Size, Zero);
      Empty = arith::OrIOp::create(B, Loc, Empty, IsZero);
    }
    Span = arith::SelectOp::create(B, Loc, Empty, Zero, Span);
    return arith::IndexCastOp::create(B, Loc, B.getI64Type(), Span);
  }

  Value buildBounds(OpBuilder &B, Location Loc, Value Span) {
    Value Zero = LLVM::ConstantOp::create(B, Loc, B.getI64Type(), 0);
    Value One = LLVM::ConstantOp::create(B, Loc, B.getI64Type(), 1);
    Value Upper = arith::SubIOp::create(B, Loc, Span, One);
    return omp::MapBoundsOp::create(
        B, Loc, omp::MapBoundsType::get(B.getContext()), Zero, Upper, Span, One,
        B.getBoolAttr(false), Zero);
  }

  StringAttr memberName(omp::MapInfoOp Map) {
    std::string Name = Map.getName().value_or("").str();
    return StringAttr::get(Map.getContext(), Name + ".data");
  }

  /// A map of the data only, by its aligned pointer.
  omp::MapInfoOp buildDataMap(OpBuilder &B, MemRefMap &MM) {
    omp::MapInfoOp Map = MM.Original;
    Location Loc = Map.getLoc();
    Value M = Map.getVarPtr();
    Value Span = buildSpan(B, Loc, M, MM.MT);
    Value Bounds = buildBounds(B, Loc, Span);
    Value Address = memref::ExtractAlignedPointerAsIndexOp::create(B, Loc, M);
    Value Address64 =
        arith::IndexCastOp::create(B, Loc, B.getI64Type(), Address);
    auto Ptr = LLVM::LLVMPointerType::get(B.getContext());
    Value Data = LLVM::IntToPtrOp::create(B, Loc, Ptr, Address64);
    return omp::MapInfoOp::create(
        B, Loc, Ptr, Data, getDataElementType(MM.MT), Map.getMapType(),
        omp::VariableCaptureKind::ByRef, /*var_ptr_ptr=*/Value(), ValueRange(),
        ArrayAttr(), ValueRange{Bounds}, Map.getMapperIdAttr(),
        Map.getNameAttr(), false);
  }

  /// The descriptor map (first) and its data member (second), for a target
  /// region.
  std::pair<omp::MapInfoOp, omp::MapInfoOp> buildDescriptorMaps(OpBuilder &B,
                                                                MemRefMap &MM) {
    omp::MapInfoOp Map = MM.Original;
    Location Loc = Map.getLoc();
    Value M = Map.getVarPtr();
    MLIRContext *Ctx = B.getContext();
    auto Ptr = LLVM::LLVMPointerType::get(Ctx);
    LLVM::LLVMStructType DescType = getDescriptorType(MM.MT);

    // The slot lives at the function's entry so a loop does not grow the
    // stack; the store happens where the memref is mapped.
    Value Slot;
    {
      OpBuilder::InsertionGuard Guard(B);
      auto Func = Map->getParentOfType<FunctionOpInterface>();
      B.setInsertionPointToStart(&Func.getFunctionBody().front());
      Value One = LLVM::ConstantOp::create(B, Loc, B.getI64Type(), 1);
      Slot = LLVM::AllocaOp::create(B, Loc, Ptr, DescType, One);
    }
    Value Desc =
        UnrealizedConversionCastOp::create(B, Loc, TypeRange{DescType}, M)
            .getResult(0);
    LLVM::StoreOp::create(B, Loc, Desc, Slot);
    Value Field = LLVM::GEPOp::create(
        B, Loc, Ptr, DescType, Slot,
        llvm::ArrayRef<LLVM::GEPArg>{LLVM::GEPArg(0), LLVM::GEPArg(1)});
    Value Span = buildSpan(B, Loc, M, MM.MT);
    Value Bounds = buildBounds(B, Loc, Span);
    auto Member = omp::MapInfoOp::create(
        B, Loc, Ptr, Slot, getDataElementType(MM.MT), Map.getMapType(),
        omp::VariableCaptureKind::ByRef, Field, ValueRange(), ArrayAttr(),
        ValueRange{Bounds}, Map.getMapperIdAttr(), memberName(Map), false);
    // The descriptor only goes to the device: copying it back would replace
    // the host's data pointer by the device's.
    omp::ClauseMapFlags DescFlags = omp::ClauseMapFlags::to;
    if (bitEnumContainsAny(Map.getMapType(), omp::ClauseMapFlags::implicit))
      DescFlags = DescFlags | omp::ClauseMapFlags::implicit;
    ArrayAttr Index = B.getArrayAttr({B.getI64ArrayAttr({1})});
    auto Parent = omp::MapInfoOp::create(
        B, Loc, Ptr, Slot, DescType, DescFlags, omp::VariableCaptureKind::ByRef,
        /*var_ptr_ptr=*/Value(), ValueRange{Member.getResult()}, Index,
        ValueRange(), FlatSymbolRefAttr(), Map.getNameAttr(), false);
    return {Parent, Member};
  }

  LogicalResult rewriteTarget(omp::TargetOp Target, unsigned Index,
                              MemRefMap &MM) {
    OpBuilder B(MM.Original);
    auto [Parent, Member] = buildDescriptorMaps(B, MM);
    Location Loc = MM.Original.getLoc();

    llvm::SmallVector<Value> Maps(Target.getMapVars());
    Maps[Index] = Parent;
    Maps.insert(Maps.begin() + Index + 1, Member);
    Target.getMapVarsMutable().assign(Maps);

    auto Args = cast<omp::BlockArgOpenMPOpInterface>(Target.getOperation());
    unsigned ArgIndex = Args.getMapBlockArgsStart() + Index;
    Block &Entry = Target.getRegion().front();
    auto Ptr = LLVM::LLVMPointerType::get(B.getContext());
    BlockArgument Old = Entry.getArgument(ArgIndex);
    BlockArgument DescArg = Entry.insertArgument(ArgIndex, Ptr, Loc);
    Entry.insertArgument(ArgIndex + 1, Ptr, Loc);
    OpBuilder Inside = OpBuilder::atBlockBegin(&Entry);
    Value Desc =
        LLVM::LoadOp::create(Inside, Loc, getDescriptorType(MM.MT), DescArg);
    Value Rebuilt = UnrealizedConversionCastOp::create(
                        Inside, Loc, TypeRange{Old.getType()}, Desc)
                        .getResult(0);
    Old.replaceAllUsesWith(Rebuilt);
    Entry.eraseArgument(ArgIndex + 2);
    return success();
  }

  void rewriteDataOnly(Operation *User, MutableOperandRange Maps,
                       unsigned Index, MemRefMap &MM) {
    OpBuilder B(MM.Original);
    omp::MapInfoOp Data = buildDataMap(B, MM);
    llvm::SmallVector<Value> Values(Maps.getAsOperandRange());
    Values[Index] = Data;
    Maps.assign(Values);
  }

  void runOnOperation() override {
    llvm::SmallVector<MemRefMap> Work;
    getOperation().walk([&](omp::MapInfoOp Map) {
      if (auto Type = dyn_cast<MemRefType>(Map.getVarPtr().getType()))
        Work.push_back({Map, Type});
    });
    for (MemRefMap &MM : Work) {
      omp::MapInfoOp Map = MM.Original;
      if (!MM.MT.getLayout().isIdentity() &&
          !isa<StridedLayoutAttr>(MM.MT.getLayout())) {
        Map.emitError() << "cannot map " << MM.MT
                        << ": only identity and strided layouts are supported";
        return signalPassFailure();
      }
      if (MM.MT.getMemorySpace()) {
        Map.emitError() << "cannot map " << MM.MT
                        << ": memrefs in a memory space are not supported";
        return signalPassFailure();
      }
      if (!LLVM::isCompatibleType(getDataElementType(MM.MT))) {
        Map.emitError() << "cannot map " << MM.MT << ": element type "
                        << MM.MT.getElementType() << " has no LLVM equivalent";
        return signalPassFailure();
      }
      if (Map.getVarPtrPtr() || !Map.getMembers().empty()) {
        Map.emitError() << "a map of a memref cannot have var_ptr_ptr or "
                           "members: mlir-offload builds them itself";
        return signalPassFailure();
      }
      llvm::SmallVector<OpOperand *> Uses;
      for (OpOperand &Use : Map->getUses())
        Uses.push_back(&Use);
      for (OpOperand *Use : Uses) {
        Operation *User = Use->getOwner();
        unsigned Operand = Use->getOperandNumber();
        auto IndexIn = [&](OperandRange Range) {
          return Operand - Range.getBeginOperandIndex();
        };
        if (auto Target = dyn_cast<omp::TargetOp>(User)) {
          if (failed(rewriteTarget(Target, IndexIn(Target.getMapVars()), MM)))
            return signalPassFailure();
        } else if (auto Op = dyn_cast<omp::TargetEnterDataOp>(User)) {
          rewriteDataOnly(User, Op.getMapVarsMutable(),
                          IndexIn(Op.getMapVars()), MM);
        } else if (auto Op = dyn_cast<omp::TargetExitDataOp>(User)) {
          rewriteDataOnly(User, Op.getMapVarsMutable(),
                          IndexIn(Op.getMapVars()), MM);
        } else if (auto Op = dyn_cast<omp::TargetUpdateOp>(User)) {
          rewriteDataOnly(User, Op.getMapVarsMutable(),
                          IndexIn(Op.getMapVars()), MM);
        } else if (auto Op = dyn_cast<omp::TargetDataOp>(User)) {
          rewriteDataOnly(User, Op.getMapVarsMutable(),
                          IndexIn(Op.getMapVars()), MM);
        } else {
          User->emitError() << "'" << User->getName()
                            << "' uses a map of a memref; mlir-offload maps "
                               "memrefs on omp.target, omp.target_data, "
                               "omp.target_enter_data, omp.target_exit_data "
                               "and omp.target_update only";
          return signalPassFailure();
        }
      }
      if (Map->use_empty())
        Map.erase();
    }
  }
};

} // namespace

std::unique_ptr<Pass> createMarkDeclareTargetPass() {
  return std::make_unique<MarkDeclareTargetPass>();
}
std::unique_ptr<Pass> createMemRefMapsPass() {
  return std::make_unique<MemRefMapsPass>();
}
std::unique_ptr<Pass> createFilterFunctionsPass() {
  return std::make_unique<FilterFunctionsPass>();
}

void registerOffloadPasses() {
  PassRegistration<MarkDeclareTargetPass>();
  PassRegistration<MemRefMapsPass>();
  PassRegistration<FilterFunctionsPass>();
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
