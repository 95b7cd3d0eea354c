//===- PlanEnter.cpp - Step 2 of a map-entering list ----------------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Makes the storage of each item present (a new entry, or a reference on
// the one that holds it), attaches pointers to their pointees' device
// copies, and lists the copies to the device.
//
//===----------------------------------------------------------------------===//

#include "diagnostics/Diagnostics.h"
#include "mapping/MappingDiagnostics.h"
#include "mapping/Planners.h"

#include <cinttypes>
#include <cstring>
#include <memory>

using namespace offload;

namespace {

/// enterRange for an item \p E contains: counts the reference (unless
/// \p CountReference is false) and reports it.
void countExisting(Device &D, MapEntry &E, const MapItem &Item,
                   bool CountReference) {
  uintptr_t Begin = addr(Item.Begin);
  bool Hold = has(Item.Type, OMP_TGT_MAPTYPE_OMPX_HOLD);
  // A permanent entry's dynamic count is infinite; its hold count is
  // still counted (omp_target_disassociate_ptr refuses while it is set).
  bool Counted = CountReference && (!E.Permanent || Hold);
  if (Counted) {
    if (Hold)
      ++E.HoldRefCount;
    else
      ++E.DynRefCount;
  }
  if (infoFlags() & InfoMappingExists) {
    bool Implicit = has(Item.Type, OMP_TGT_MAPTYPE_IMPLICIT);
    std::string Dyn = E.Permanent ? "INF" : std::to_string(E.DynRefCount);
    std::string HoldCount = std::to_string(E.HoldRefCount);
    std::string &Changed = Counted && Hold ? HoldCount : Dyn;
    Changed += Counted ? " (incremented)" : " (update suppressed)";
    infoMessage(D.Id,
                "Mapping exists%s with HstPtrBegin=0x%016" PRIxPTR
                ", TgtPtrBegin=0x%016" PRIxPTR ", Size=%" PRId64
                ", DynRefCount=%s, HoldRefCount=%s, Name=%s",
                Implicit ? " (implicit)" : "", Begin, E.translate(Begin),
                Item.Size, Dyn.c_str(), HoldCount.c_str(),
                mapName(Item.Name).c_str());
  }
}

/// The device storage of a new entry for \p Item: the block of another
/// part of the same struct when it covers the item, else a new allocation
/// (from the struct's start for a struct's combined entry, \p StructStart).
/// Null, after printing why, when the device has no memory for it.
std::shared_ptr<DeviceBlock> blockFor(Device &D, LockedMappingTable &Table,
                                      const ident_t *Loc, const MapItem &Item,
                                      bool StructStart) {
  uintptr_t Begin = addr(Item.Begin);
  uintptr_t End = Begin + Item.Size;
  uintptr_t Base = addr(Item.Base);
  bool NearBase = Base < Begin && Begin - Base <= MaxStructLeadBytes;
  // Another part of the same struct may be mapped already: use its block
  // when it covers this range, so the members keep their offsets.
  std::shared_ptr<DeviceBlock> Block;
  if (Base <= Begin && Begin - Base <= MaxStructLeadBytes)
    Block = Table->findStructBlock(Base, Begin, End);
  if (!Block) {
    // A struct's block starts at the struct, so members before this part
    // that a later construct maps find room at their offsets.
    uintptr_t BlockBegin = StructStart && NearBase ? Base : Begin;
    // A large block the CPU will copy starts LargeCopyLead bytes before
    // its host offset in the page (plugin::LargeCopyBytes says why).
    uintptr_t Padding = 0;
    if (End - BlockBegin >= plugin::LargeCopyBytes &&
        D.plugin().supportsUnifiedMemory())
      Padding = (BlockBegin - plugin::LargeCopyLead) %
                plugin::LargeCopyAlignment;
    void *Memory = D.allocate(End - BlockBegin + Padding,
                              plugin::AllocKind::Device, Item.Begin);
    if (!Memory) {
      errorMessage("device %d cannot allocate %" PRIu64 " bytes for %s", D.Id,
                   static_cast<uint64_t>(End - BlockBegin),
                   describeItem(Loc, Item).c_str());
      return nullptr;
    }
    Block = std::make_shared<DeviceBlock>();
    Block->Memory = Memory;
    Block->TgtBegin = addr(Memory) + Padding;
    Block->HstBegin = BlockBegin;
    Block->HstEnd = End;
    if (BlockBegin < Begin)
      Table->addStructBlock(Block);
  }
  return Block;
}

/// Makes [Begin, Begin+Size) present (or finds it), counting a reference
/// unless \p CountReference is false. \p IsNew reports a fresh allocation.
/// \p StructStart: the item is the combined entry of a struct's members.
/// Returns null for an absent zero-length item (not an error). A new entry
/// is Creating until \p T is finished.
MapEntry *enterRange(Device &D, LockedMappingTable &Table, Transfers &T,
                     const ident_t *Loc, const MapItem &Item,
                     bool CountReference, bool StructStart, bool &IsNew,
                     bool &Failed) {
  IsNew = false;
  Failed = false;
  uintptr_t Begin = addr(Item.Begin);
  LookupResult R = lookupItem(Table, Item);
  if (R.Status == LookupResult::Overlap) {
    reportOverlap(D, Table, Loc, Item, *R.Entry);
    Failed = true;
    return nullptr;
  }
  if (R.Status == LookupResult::Contained) {
    countExisting(D, *R.Entry, Item, CountReference);
    return R.Entry;
  }
  // Under unified shared memory the device uses the host copy, which is
  // always present, unless the map has the `close` modifier: then the data
  // gets a device copy, as without unified shared memory (as upstream).
  if (D.zeroCopyMaps() && !has(Item.Type, OMP_TGT_MAPTYPE_CLOSE))
    return nullptr;
  if (has(Item.Type, OMP_TGT_MAPTYPE_PRESENT)) {
    reportNotPresent(D, Table, Loc, Item, PresentCheck::Map);
    Failed = true;
    return nullptr;
  }
  // Zero-length sections never create storage.
  if (Item.Size == 0)
    return nullptr;
  uintptr_t End = Begin + Item.Size;
  uintptr_t Base = addr(Item.Base);
  std::shared_ptr<DeviceBlock> Block =
      blockFor(D, Table, Loc, Item, StructStart);
  if (!Block) {
    Failed = true;
    return nullptr;
  }
  MapEntry New;
  New.HstBegin = Begin;
  New.HstEnd = End;
  New.HstBase = Base;
  New.TgtBegin = Block->TgtBegin + (Begin - Block->HstBegin);
  New.Block = Block;
  New.Name = Item.Name;
  // Filled without the lock (step 3); others wait until it is Ready.
  New.State = MapState::Creating;
  if (CountReference) {
    if (has(Item.Type, OMP_TGT_MAPTYPE_OMPX_HOLD))
      New.HoldRefCount = 1;
    else
      New.DynRefCount = 1;
  } else {
    New.DynRefCount = 1;
  }
  IsNew = true;
  if (infoFlags() & InfoMappingChanges)
    infoMessage(D.Id,
                "Creating new map entry with HstPtrBase=0x%016" PRIxPTR
                ", HstPtrBegin=0x%016" PRIxPTR ", TgtAllocBegin=0x%016" PRIxPTR
                ", TgtPtrBegin=0x%016" PRIxPTR ", Size=%" PRId64
                ", DynRefCount=%" PRIu64 ", HoldRefCount=%" PRIu64 ", Name=%s",
                New.HstBase, Begin, addr(New.Block->Memory), New.TgtBegin,
                Item.Size, New.DynRefCount, New.HoldRefCount,
                mapName(Item.Name).c_str());
  MapEntry &Inserted = Table->insert(std::move(New));
  T.Created.push_back(&Inserted);
  return &Inserted;
}

/// Stores into the device copy of the pointer at \p PointerHost the device
/// address that corresponds to the host pointer's current value, given that
/// the pointee range starting at \p PointeeBegin is mapped by \p Pointee.
bool attachPointer(Device &D, AsyncContext &Ctx, MapEntry &PointerEntry,
                   uintptr_t PointerHost, const MapEntry &Pointee,
                   uintptr_t PointeeBegin) {
  uintptr_t HostValue;
  std::memcpy(&HostValue, reinterpret_cast<void *>(PointerHost),
              sizeof(HostValue));
  uintptr_t DeviceValue =
      Pointee.translate(PointeeBegin) - (PointeeBegin - HostValue);
  void *Slot = reinterpret_cast<void *>(PointerEntry.translate(PointerHost));
  if (infoFlags() & InfoDataTransfers)
    infoMessage(D.Id,
                "Copying data from host to device, HstPtr=0x%016" PRIxPTR
                ", TgtPtr=0x%016" PRIxPTR ", Size=%zu, Name=%s",
                PointerHost, addr(Slot), sizeof(DeviceValue),
                mapName(PointerEntry.Name).c_str());
  if (plugin::Status S = D.plugin().dataSubmit(
          Slot, Ctx.stage(&DeviceValue, sizeof(DeviceValue)),
          sizeof(DeviceValue), Ctx.queue())) {
    errorMessage("attaching the pointer at host address 0x%016" PRIxPTR
                 " on device %d failed: %s",
                 PointerHost, D.Id, S.message().c_str());
    return false;
  }
  for (ShadowPointer &Shadow : PointerEntry.Shadows)
    if (Shadow.HostAddress == PointerHost) {
      Shadow.HostValue = HostValue;
      Shadow.DeviceValue = DeviceValue;
      return true;
    }
  PointerEntry.Shadows.push_back({PointerHost, HostValue, DeviceValue});
  return true;
}

/// Stores the host value of the pointer at \p PointerHost into its device
/// copy (its pointee is not mapped: the device uses host memory).
bool attachPointerToHost(Device &D, AsyncContext &Ctx, MapEntry &PointerEntry,
                         uintptr_t PointerHost) {
  uintptr_t HostValue;
  std::memcpy(&HostValue, reinterpret_cast<void *>(PointerHost),
              sizeof(HostValue));
  void *Slot = reinterpret_cast<void *>(PointerEntry.translate(PointerHost));
  if (plugin::Status S =
          D.plugin().dataSubmit(Slot, Ctx.stage(&HostValue, sizeof(HostValue)),
                                sizeof(HostValue), Ctx.queue())) {
    errorMessage("setting the pointer at host address 0x%016" PRIxPTR
                 " on device %d failed: %s",
                 PointerHost, D.Id, S.message().c_str());
    return false;
  }
  return true;
}

/// planEnter for item \p I of \p Maps once its entry \p E (null when it
/// has no device copy) and that of its pointer, \p PointerEntry, are
/// known: the copy to the device, the pointer attachment and the device
/// address of a use_device_ptr/addr item.
bool useEntry(Device &D, LockedMappingTable &Table, Transfers &T,
              const MapList &Maps, int32_t I, MapEntry *E,
              MapEntry *PointerEntry, bool IsNew) {
  MapItem Item = Maps.item(I);
  if (!E) {
    // use_device_ptr/addr of storage that is not mapped: the region keeps
    // the host address.
    if (has(Item.Type, OMP_TGT_MAPTYPE_RETURN_PARAM) &&
        (infoFlags() & InfoEmptyMapping))
      infoMessage(D.Id, "variable %s does not have a valid device counterpart",
                  mapName(Item.Name).c_str());
    // Under unified shared memory the pointee stays in host memory, so a
    // mapped pointer (such as the reference pointer of a declare target
    // variable) must hold the host address on the device too.
    return !PointerEntry || !D.zeroCopyMaps() ||
           attachPointerToHost(D, *T.Context, *PointerEntry, addr(Item.Base));
  }
  if (has(Item.Type, OMP_TGT_MAPTYPE_TO) &&
      (IsNew || has(Item.Type, OMP_TGT_MAPTYPE_ALWAYS)))
    planCopy(T, *E, Item, /*ToDevice=*/true);
  // Written now; step 3 writes it again if a copy covers it.
  if (PointerEntry && !attachPointer(D, *T.Context, *PointerEntry,
                                     addr(Item.Base), *E, addr(Item.Begin)))
    return false;
  if (has(Item.Type, OMP_TGT_MAPTYPE_RETURN_PARAM)) {
    // The base the region adds its offset to: for ptr_and_obj, Base is
    // where the pointer (or reference) is stored, and the base is its
    // value.
    uintptr_t Base = addr(Item.Base);
    if (has(Item.Type, OMP_TGT_MAPTYPE_PTR_AND_OBJ))
      std::memcpy(&Base, Item.Base, sizeof(Base));
    Maps.Bases[I] = reinterpret_cast<void *>(E->translate(addr(Item.Begin)) -
                                             (addr(Item.Begin) - Base));
  }
  return true;
}

/// planEnter for a by-reference capture's or an attach map's \p S: points
/// the device copy of the pointer to the device copy of its pointee, when
/// both are mapped. Otherwise the device keeps the host address.
bool attachIfBothMapped(Device &D, LockedMappingTable &Table, AsyncContext &Ctx,
                        const ItemSearches &S) {
  LookupResult Pointer = Table->lookup(S.Pointer.Begin, S.Pointer.Size);
  LookupResult Pointee = Table->lookup(S.Range.Begin, S.Range.Size);
  // Upstream reports both searches, the pointee's first.
  if (Pointee.Status == LookupResult::Contained)
    reportLookup(D.Id, *Pointee.Entry, S.Range.Begin,
                 static_cast<int64_t>(S.Range.Size));
  if (Pointer.Status == LookupResult::Contained)
    reportLookup(D.Id, *Pointer.Entry, S.Pointer.Begin,
                 static_cast<int64_t>(S.Pointer.Size));
  if (Pointer.Status != LookupResult::Contained ||
      Pointee.Status != LookupResult::Contained)
    return true;
  return attachPointer(D, Ctx, *Pointer.Entry, S.Pointer.Begin, *Pointee.Entry,
                       S.Range.Begin);
}

/// planEnter for an item whose storage \p S names: makes it (and, for
/// ptr_and_obj, its pointer's) present, and uses the entry. \p IsNew
/// receives whether each item's storage is new to the construct.
bool enterStorage(Device &D, LockedMappingTable &Table, Transfers &T,
                  const ident_t *Loc, const ExpandedList &L, int32_t I,
                  const ItemSearches &S, InlineVector<char, 32> &IsNew) {
  const MapList &Maps = L.List;
  MapItem Item = Maps.item(I);
  int64_t Parent = parentIndex(Item.Type);
  // A member lies inside its struct's storage and shares its reference
  // count; the pointee of a member pointer (ptr_and_obj) is storage of its
  // own and is counted like any list item.
  bool IsMember = Parent >= 0 && Parent < Maps.Count &&
                  !has(Item.Type, OMP_TGT_MAPTYPE_PTR_AND_OBJ);

  MapEntry *PointerEntry = nullptr;
  if (S.HasPointer) {
    MapItem Pointer = itemOver(Item, S.Pointer);
    Pointer.Type &= ~static_cast<int64_t>(OMP_TGT_MAPTYPE_PRESENT);
    bool PointerNew, Failed;
    PointerEntry = enterRange(D, Table, T, Loc, Pointer,
                              /*CountReference=*/false,
                              /*StructStart=*/false, PointerNew, Failed);
    if (Failed)
      return false;
  }

  bool New, Failed;
  // The combined entry of a struct's mapped members: the next items are
  // its members.
  bool StructStart =
      I + 1 < Maps.Count && parentIndex(Maps.item(I + 1).Type) == I;
  MapEntry *E =
      enterRange(D, Table, T, Loc, itemOver(Item, S.Range),
                 /*CountReference=*/!IsMember, StructStart, New, Failed);
  if (Failed)
    return false;
  if (T.Entered && &L == T.Top && E &&
      MappingTable::containsBegin(*E, S.Range.Begin))
    T.Entered->Entries[I] = E;
  // A member is new when its struct is (a declare mapper chains members
  // of members: the element of an array section, its fields...).
  bool ParentNew = IsMember && Parent < I && IsNew[Parent];
  // Storage this construct allocated is new to every item in it, in
  // particular to the components of a declare mapper applied to a member
  // of a new struct, which arrive as a list of their own. (Step 1 left no
  // other construct's entry Creating.)
  bool CreatedHere = E && E->State == MapState::Creating;
  IsNew[I] = New || ParentNew || CreatedHere;
  return useEntry(D, Table, T, Maps, I, E, PointerEntry, IsNew[I]);
}

} // namespace

bool offload::planEnter(Device &D, LockedMappingTable &Table, Transfers &T,
                        const ident_t *Loc, const ExpandedList &L) {
  const MapList &Maps = L.List;
  InlineVector<char, 32> IsNew(Maps.Count, 0);
  // Items attached once the rest of the list is mapped.
  InlineVector<int32_t, 16> Attachments, LambdaCaptures;
  for (int32_t I = 0; I < Maps.Count; ++I) {
    if (const ExpandedList *Sub = L.mapped(I)) {
      if (!planEnter(D, Table, T, Loc, *Sub))
        return false;
      continue;
    }
    ItemSearches S = searchesFor(Action::Enter, Maps.item(I));
    switch (S.K) {
    case ItemSearches::LambdaCapture:
      // A by-reference capture of a lambda mapped as item MEMBER_OF: its
      // field in the device copy of the lambda must point to the device
      // copy of the captured variable.
      LambdaCaptures.push_back(I);
      break;
    case ItemSearches::Attachment:
      Attachments.push_back(I);
      break;
    case ItemSearches::Storage:
      if (!enterStorage(D, Table, T, Loc, L, I, S, IsNew))
        return false;
      break;
    default:
      break;
    }
  }
  for (int32_t I : LambdaCaptures)
    if (!attachIfBothMapped(D, Table, *T.Context,
                            searchesFor(Action::Enter, Maps.item(I))))
      return false;
  // Attach maps (OpenMP 6 / LLVM 22): once everything else is mapped, point
  // the device copy of the pointer at Base to the device copy of its
  // pointee, when both are present.
  for (int32_t I : Attachments)
    if (!attachIfBothMapped(D, Table, *T.Context,
                            searchesFor(Action::Enter, Maps.item(I))))
      return false;
  return true;
}
