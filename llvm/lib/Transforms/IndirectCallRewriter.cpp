//===- IndirectCallRewriter.cpp - Translate host function pointers --------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// See IndirectCallRewriter.h for what the pass does and why. The work is done
// in two steps over a snapshot of the module's indirect calls, so the calls
// the pass inserts are never visited:
//  1. vtable pointers of recognised virtual calls are translated once, right
//     after they are loaded, and the slot address computations use the
//     translated pointer;
//  2. each call's target is translated right before the call.
//
//===----------------------------------------------------------------------===//

#include "offload/Transforms/IndirectCallRewriter.h"
#include "offload/Offloading/OffloadEntries.h"
#include "offload/Transforms/DirectRegionCalls.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

#define DEBUG_TYPE "offload-indirect-calls"

namespace offload {
namespace {

/// Functions whose indirect calls never see user function pointers: the
/// device runtime's own entry points and internals, which may be part of
/// the module during a link-time run. Skipping them only saves lookups.
bool isDeviceRuntimeFunction(const Function &F) {
  StringRef Name = F.getName();
  return Name.starts_with("__kmpc_") || Name.starts_with("__llvm_omp_") ||
         Name.starts_with("_ZN4ompx");
}

/// True when every value \p V can take at run time is the address of a
/// function of this module (a device function): a function, an alias of
/// one, or a select / phi whose every input is one.
bool isProvablyDeviceFunction(Value *V, SmallPtrSetImpl<Value *> &Visited) {
  V = V->stripPointerCastsAndAliases();
  if (isa<Function>(V))
    return true;
  if (!Visited.insert(V).second)
    return true; // A phi cycle adds no new possible target.
  if (auto *Select = dyn_cast<SelectInst>(V))
    return isProvablyDeviceFunction(Select->getTrueValue(), Visited) &&
           isProvablyDeviceFunction(Select->getFalseValue(), Visited);
  if (auto *Phi = dyn_cast<PHINode>(V))
    return all_of(Phi->incoming_values(), [&](Value *In) {
      return isProvablyDeviceFunction(In, Visited);
    });
  if (Value *Hidden = passThroughAsmOperand(V))
    return isProvablyDeviceFunction(Hidden, Visited);
  return false;
}

/// True when \p V is already the result of a translation (a second run of
/// the pass, or code that calls the lookup itself).
bool isTranslated(Value *V) {
  auto *Call = dyn_cast<CallBase>(V->stripPointerCasts());
  if (!Call)
    return false;
  Function *Callee = Call->getCalledFunction();
  return Callee && (Callee->getName() == IndirectCallLookupName ||
                    Callee->getName() == LegacyTranslateFptrName);
}

/// True when \p Load carries clang's "vtable pointer" TBAA access type.
bool hasVTablePointerTBAA(const LoadInst &Load) {
  const MDNode *Tag = Load.getMetadata(LLVMContext::MD_tbaa);
  if (!Tag || Tag->getNumOperands() < 2)
    return false;
  // Struct-path tag: { base type, access type, offset }; a type node starts
  // with its name.
  const auto *Access = dyn_cast<MDNode>(Tag->getOperand(1));
  if (!Access || Access->getNumOperands() < 1)
    return false;
  const auto *Name = dyn_cast<MDString>(Access->getOperand(0));
  return Name && Name->getString() == "vtable pointer";
}

/// Finds the loads of vtable pointers that \p Callee's value comes from: the
/// callee is (a phi / select of) a load from a slot address computed from a
/// pointer that was loaded from the object the call passes as `this`. That
/// shape is what clang emits for virtual calls and for virtual pointers to
/// member functions (whose slot offset is not a constant).
void findVTableLoads(Value *Callee, const CallBase &Call,
                     SmallPtrSetImpl<Value *> &Visited,
                     SmallVectorImpl<LoadInst *> &VTableLoads) {
  Value *V = Callee->stripPointerCasts();
  if (!Visited.insert(V).second)
    return;
  if (auto *Select = dyn_cast<SelectInst>(V)) {
    findVTableLoads(Select->getTrueValue(), Call, Visited, VTableLoads);
    findVTableLoads(Select->getFalseValue(), Call, Visited, VTableLoads);
    return;
  }
  if (auto *Phi = dyn_cast<PHINode>(V)) {
    for (Value *In : Phi->incoming_values())
      findVTableLoads(In, Call, Visited, VTableLoads);
    return;
  }
  auto *SlotLoad = dyn_cast<LoadInst>(V);
  if (!SlotLoad)
    return;
  // Walk the slot address back to its base through address arithmetic.
  Value *Base = SlotLoad->getPointerOperand()->stripPointerCasts();
  while (auto *GEP = dyn_cast<GEPOperator>(Base))
    Base = GEP->getPointerOperand()->stripPointerCasts();
  auto *VTableLoad = dyn_cast<LoadInst>(Base);
  if (!VTableLoad || !VTableLoad->getType()->isPointerTy())
    return;
  bool FromThis = false;
  Value *Object = VTableLoad->getPointerOperand()->stripPointerCasts();
  for (const Use &Arg : Call.args())
    if (Arg->getType()->isPointerTy() && Arg->stripPointerCasts() == Object)
      FromThis = true;
  if (FromThis || hasVTablePointerTBAA(*VTableLoad))
    VTableLoads.push_back(VTableLoad);
}

class Rewriter {
public:
  Rewriter(Module &M, const IndirectCallRewriterOptions &Options)
      : M(M), Options(Options) {}

  IndirectCallRewriterStats run() {
    SmallVector<CallBase *, 32> Calls;
    for (Function &F : M) {
      if (F.isDeclaration() || isDeviceRuntimeFunction(F))
        continue;
      for (Instruction &I : instructions(F))
        if (auto *Call = dyn_cast<CallBase>(&I))
          if (needsTranslation(*Call))
            Calls.push_back(Call);
    }
    if (Options.TranslateVTables)
      for (CallBase *Call : Calls)
        translateVTables(*Call);
    for (CallBase *Call : Calls)
      translateCallee(*Call);
    return Stats;
  }

private:
  /// Sorts the calls of the module: direct calls, inline asm and calls the
  /// pass cannot or need not change are counted and left alone.
  bool needsTranslation(CallBase &Call) {
    if (Call.isInlineAsm() || isa<CallBrInst>(Call))
      return false;
    Value *Callee = Call.getCalledOperand();
    if (isa<Function>(Callee->stripPointerCastsAndAliases()))
      return false; // A direct call.
    if (isTranslated(Callee)) {
      ++Stats.AlreadyTranslatedCalls;
      return false;
    }
    SmallPtrSet<Value *, 8> Visited;
    if (isProvablyDeviceFunction(Callee, Visited)) {
      ++Stats.ProvablyDirectCalls;
      return false;
    }
    return true;
  }

  FunctionCallee getLookup() {
    if (Lookup)
      return Lookup;
    LLVMContext &Ctx = M.getContext();
    PointerType *Ptr = PointerType::getUnqual(Ctx);
    FunctionType *Ty = FunctionType::get(Ptr, {Ptr}, /*isVarArg=*/false);
    bool Existed = M.getFunction(Options.LookupName) != nullptr;
    Lookup = M.getOrInsertFunction(Options.LookupName, Ty);
    if (auto *F = dyn_cast<Function>(Lookup.getCallee()); F && !Existed) {
      // It only reads the table and always returns: later passes may share
      // or hoist lookups of the same pointer.
      F->addFnAttr(Attribute::NoUnwind);
      F->addFnAttr(Attribute::WillReturn);
      F->addFnAttr(Attribute::NoSync);
      F->addFnAttr(Attribute::NoFree);
      F->setMemoryEffects(MemoryEffects::readOnly());
    }
    return Lookup;
  }

  /// Emits `lookup(V)` at \p Builder's position, converting between \p V's
  /// address space and the lookup's generic pointers when they differ.
  Value *emitLookup(IRBuilder<> &Builder, Value *V, const Twine &Name) {
    FunctionCallee Callee = getLookup();
    PointerType *Generic = PointerType::getUnqual(M.getContext());
    Value *Arg = Builder.CreatePointerBitCastOrAddrSpaceCast(V, Generic);
    CallInst *Result = Builder.CreateCall(Callee, {Arg}, Name);
    Result->setDoesNotThrow();
    return Builder.CreatePointerBitCastOrAddrSpaceCast(Result, V->getType());
  }

  void translateVTables(CallBase &Call) {
    SmallPtrSet<Value *, 8> Visited;
    SmallVector<LoadInst *, 2> VTableLoads;
    findVTableLoads(Call.getCalledOperand(), Call, Visited, VTableLoads);
    for (LoadInst *VTable : VTableLoads) {
      if (Translated.count(VTable))
        continue;
      IRBuilder<> Builder(VTable->getNextNode());
      Builder.SetCurrentDebugLocation(VTable->getDebugLoc());
      Value *Device = emitLookup(Builder, VTable, "vtable.device");
      Translated[VTable] = Device;
      ++Stats.TranslatedVTables;
      // Slot addresses (and direct slot loads) use the device vtable; other
      // uses (comparisons, stores) keep the value the object holds.
      SmallVector<Use *, 4> SlotUses;
      for (Use &U : VTable->uses()) {
        auto *User = dyn_cast<Instruction>(U.getUser());
        if (!User || User == Device || isa<CallBase>(User))
          continue;
        if (isa<GetElementPtrInst>(User) ||
            (isa<LoadInst>(User) &&
             U.getOperandNo() == LoadInst::getPointerOperandIndex()))
          SlotUses.push_back(&U);
      }
      for (Use *U : SlotUses)
        U->set(Device);
    }
  }

  void translateCallee(CallBase &Call) {
    IRBuilder<> Builder(&Call);
    Builder.SetCurrentDebugLocation(Call.getDebugLoc());
    Value *Device =
        emitLookup(Builder, Call.getCalledOperand(), "callee.device");
    Call.setCalledOperand(Device);
    ++Stats.RewrittenCalls;
    OptimizationRemarkEmitter ORE(Call.getFunction());
    ORE.emit([&] {
      return OptimizationRemark(DEBUG_TYPE, "IndirectCallTranslated", &Call)
             << "indirect call routed through " << Options.LookupName;
    });
  }

  Module &M;
  const IndirectCallRewriterOptions &Options;
  FunctionCallee Lookup;
  DenseMap<LoadInst *, Value *> Translated;
  IndirectCallRewriterStats Stats;
};

} // namespace

bool isOpenMPDeviceModule(const Module &M) {
  return M.getModuleFlag(OpenMPDeviceModuleFlag) != nullptr;
}

bool hasIndirectOffloadEntries(const Module &M) {
  // GPU device code has no entry table, but clang gives every indirect
  // function (and every registered vtable) a constant global
  // `__omp_offloading_<ids>_<name>_l<line>[addr]` holding its device address,
  // which the runtime reads.
  for (const GlobalVariable &GV : M.globals())
    if (GV.getName().starts_with("__omp_offloading_") && GV.isConstant() &&
        GV.hasInitializer())
      if (isa<Function, GlobalVariable>(
              GV.getInitializer()->stripPointerCasts()))
        return true;
  // Both entry layouts keep the 32-bit flags as their fourth field.
  constexpr unsigned FlagsField = 3;
  constexpr uint64_t IndirectFlags =
      OMPTargetGlobalVarEntryIndirect | OMPTargetGlobalVarEntryIndirectVTable;
  for (const GlobalVariable &GV : M.globals()) {
    if (!GV.hasInitializer() ||
        (GV.getSection() != getEntriesSectionName(EntryLayout::Current) &&
         GV.getSection() != getEntriesSectionName(EntryLayout::Legacy)))
      continue;
    auto *Entry = dyn_cast<ConstantStruct>(GV.getInitializer());
    if (!Entry || Entry->getNumOperands() <= FlagsField)
      continue;
    if (auto *Flags = dyn_cast<ConstantInt>(Entry->getOperand(FlagsField)))
      if (Flags->getZExtValue() & IndirectFlags)
        return true;
  }
  return false;
}

IndirectCallRewriterStats
rewriteIndirectCalls(Module &M, const IndirectCallRewriterOptions &Options) {
  if (!Options.Force && !isOpenMPDeviceModule(M))
    return {};
  // The optimizer is done (the pass runs last): the runtime's hidden region
  // calls become direct first, so they need no lookup (DirectRegionCalls.h).
  DirectRegionCallStats Direct = makeRegionCallsDirectAndInline(M);
  IndirectCallRewriterStats Stats = Rewriter(M, Options).run();
  Stats.DirectRegionCalls = Direct.Direct;
  Stats.FoldedModeQueries = Direct.FoldedModeQueries;
  Stats.RemovedTeamMemoryStores = Direct.RemovedTeamMemoryStores;
  return Stats;
}

PreservedAnalyses IndirectCallRewriterPass::run(Module &M,
                                                ModuleAnalysisManager &) {
  IndirectCallRewriterStats Stats = rewriteIndirectCalls(M, Options);
  if (Stats.RewrittenCalls == 0 && Stats.TranslatedVTables == 0 &&
      Stats.DirectRegionCalls == 0 && Stats.FoldedModeQueries == 0 &&
      Stats.RemovedTeamMemoryStores == 0)
    return PreservedAnalyses::all();
  // Region calls made direct were inlined, and folded mode queries
  // simplified branches: control flow changed.
  if (Stats.DirectRegionCalls || Stats.FoldedModeQueries)
    return PreservedAnalyses::none();
  PreservedAnalyses PA;
  PA.preserveSet<CFGAnalyses>();
  return PA;
}

} // namespace offload
