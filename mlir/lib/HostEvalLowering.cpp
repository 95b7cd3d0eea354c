//===- HostEvalLowering.cpp - host_eval operands as kernel values ---------===//
//
// Lowering of the host_eval operands of omp.target (PassHelpers.h), which
// the omp-offload-filter-functions pass (FilterFunctions.cpp) runs on every
// target region of a host or a device module. It is a file of its own
// because it rewrites the construct's maps and block arguments, a job apart
// from deciding which functions a module keeps.
//
//===----------------------------------------------------------------------===//

#include "PassHelpers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include "llvm/ADT/SmallVector.h"

using namespace mlir;

namespace offload::mlir_passes {

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

} // namespace offload::mlir_passes
