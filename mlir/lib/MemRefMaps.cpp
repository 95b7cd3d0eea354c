//===- MemRefMaps.cpp - Maps of memrefs as descriptor maps ----------------===//
//
// The omp-offload-memref-maps pass (include/offload-mlir/Passes.h,
// docs/MLIR.md): the OpenMP translation maps pointers, not memrefs, so a
// map of a memref becomes a map of its descriptor with a member map of the
// data, or of the data alone on the data-movement constructs. The pass
// shares nothing with the other two: its helpers stay in this file.
//
//===----------------------------------------------------------------------===//

#include "offload-mlir/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/Pass.h"

#include "llvm/ADT/SmallVector.h"

using namespace mlir;

namespace offload::mlir_passes {
namespace {

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
        } else if (isa<omp::TargetEnterDataOp, omp::TargetExitDataOp,
                       omp::TargetUpdateOp, omp::TargetDataOp>(User)) {
          auto Owner = cast<omp::MapClauseOwningOpInterface>(User);
          rewriteDataOnly(User, Owner.getMapVarsMutable(),
                          IndexIn(Owner.getMapVars()), MM);
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

std::unique_ptr<Pass> createMemRefMapsPass() {
  return std::make_unique<MemRefMapsPass>();
}

} // namespace offload::mlir_passes
