//===- DataMapping.cpp - OpenMP map clauses against a device's table -----===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A construct's map list is applied in three steps, so that the copies of
// two host threads mapping different data run at the same time:
//
// 1. With the device's table locked, wait until no entry the list will
//    look up is unsettled (being created, being removed, or, for an exit,
//    being copied by another construct). Nothing the list needs can change
//    from then on, because the lock is held through step 2.
// 2. Apply the mapping rules to the table: reference counts, new entries,
//    pointer attachment. New entries are inserted as Creating and entries
//    to remove are marked Releasing: other constructs that need them wait
//    (step 1), so they never see one half filled. Existing entries that
//    must be copied to or from are pinned. The copies are only listed.
// 3. Release the lock, copy, take it again; then put back the attached
//    pointers the copies overwrote, publish the new entries (Ready), unpin,
//    remove the released entries and wake the waiters.
//
// A construct waits only in step 1, while it owns no unsettled entry, and
// finishes the entries it owns without waiting for anything: two
// constructs cannot wait for each other.
//
//===----------------------------------------------------------------------===//

#include "mapping/DataMapping.h"
#include "diagnostics/Diagnostics.h"
#include "diagnostics/Profiler.h"
#include "mapping/InlineVector.h"
#include "ompt/OMPT.h"

#include <algorithm>
#include <cinttypes>
#include <cstring>
#include <functional>
#include <memory>

using namespace offload;

namespace {

bool has(int64_t Type, uint64_t Flag) {
  return static_cast<uint64_t>(Type) & Flag;
}

/// 0-based index of the struct a member belongs to, or -1.
int64_t parentIndex(int64_t Type) {
  return static_cast<int64_t>(
             offload_member_of_index(static_cast<uint64_t>(Type))) -
         1;
}

uintptr_t addr(const void *P) { return reinterpret_cast<uintptr_t>(P); }

/// Upstream's line for a search of the table that leaves the counts alone
/// (a launch's arguments, each piece of `target update`), with the counts
/// as they stand.
void reportLookup(int DeviceId, const MapEntry &E, uintptr_t Begin,
                  int64_t Size) {
  if (!(infoFlags() & InfoMappingExists))
    return;
  std::string Dyn = E.Permanent ? "INF" : std::to_string(E.DynRefCount);
  infoMessage(DeviceId,
              "Mapping exists with HstPtrBegin=0x%016" PRIxPTR
              ", TgtPtrBegin=0x%016" PRIxPTR ", Size=%" PRId64
              ", DynRefCount=%s (update suppressed), HoldRefCount=%lu",
              Begin, E.translate(Begin), Size, Dyn.c_str(),
              static_cast<unsigned long>(E.HoldRefCount));
}

/// "'name' (declared at file:line:col) at file:line:col" with whatever of
/// it the compiler recorded (names and locations need -g).
std::string describeItem(const ident_t *Loc, const MapItem &Item) {
  std::string Text = "'" + mapName(Item.Name) + "'";
  std::string Declared = mapLocation(Item.Name);
  if (Declared != UnknownLocation)
    Text += " (declared at " + Declared + ")";
  return Text + " at " + sourceLocation(Loc);
}

/// ", for <describeItem>" when the compiler recorded anything to name (-g),
/// otherwise nothing.
std::string forItem(const ident_t *Loc, const MapItem &Item) {
  if (mapName(Item.Name) == "unknown" &&
      sourceLocation(Loc) == UnknownLocation)
    return "";
  return ", for " + describeItem(Loc, Item);
}

/// Calls a user-defined mapper and returns the components it pushed.
MapperComponents runMapper(const MapItem &Item) {
  using MapperFn = void (*)(void *Handle, void *Base, void *Begin, int64_t Size,
                            int64_t Type, const void *Name);
  MapperComponents Components;
  reinterpret_cast<MapperFn>(Item.Mapper)(&Components, Item.Base, Item.Begin,
                                          Item.Size, Item.Type, Item.Name);
  return Components;
}

MapList listOf(std::vector<MapItem> &Items, std::vector<void *> &Bases,
               std::vector<void *> &Begins, std::vector<int64_t> &Sizes,
               std::vector<int64_t> &Types, std::vector<void *> &Names,
               std::vector<void *> &Mappers) {
  for (const MapItem &I : Items) {
    Bases.push_back(I.Base);
    Begins.push_back(I.Begin);
    Sizes.push_back(I.Size);
    Types.push_back(I.Type);
    Names.push_back(const_cast<void *>(I.Name));
    Mappers.push_back(I.Mapper);
  }
  return {static_cast<int32_t>(Items.size()),
          Bases.data(),
          Begins.data(),
          Sizes.data(),
          Types.data(),
          Names.data(),
          Mappers.data()};
}

/// A map list with the lists its declare mappers produce. A mapper item's
/// components form a list of their own (member-of indices in it refer to
/// it). The mappers are called once, before the table is locked.
struct ExpandedList {
  MapList List;
  /// For each item: the expansion of its mapper, or null; empty when no
  /// item has a mapper (see mapped()).
  std::vector<std::unique_ptr<ExpandedList>> Mapped;
  /// The expansion of item \p I's mapper, or null.
  const ExpandedList *mapped(int32_t I) const {
    return Mapped.empty() ? nullptr : Mapped[I].get();
  }
  // What List points into, for a mapper's list.
  MapperComponents Components;
  std::vector<void *> Bases, Begins, Names, Mappers;
  std::vector<int64_t> Sizes, Types;
};

std::unique_ptr<ExpandedList> expand(const MapList &Maps);

/// Fills \p L (fresh) with \p Maps and the expansions of its mappers.
void expandInto(ExpandedList &L, const MapList &Maps) {
  L.List = Maps;
  for (int32_t I = 0; I < Maps.Count; ++I) {
    MapItem Item = Maps.item(I);
    if (!Item.Mapper)
      continue;
    if (L.Mapped.empty())
      L.Mapped.resize(Maps.Count);
    auto Child = std::make_unique<ExpandedList>();
    Child->Components = runMapper(Item);
    ExpandedList &C = *Child;
    MapList ChildList = listOf(C.Components.Items, C.Bases, C.Begins, C.Sizes,
                               C.Types, C.Names, C.Mappers);
    // The components carry no mappers of their own, but expanding keeps
    // the shape uniform.
    auto Expanded = expand(ChildList);
    Expanded->Components = std::move(C.Components);
    Expanded->Bases = std::move(C.Bases);
    Expanded->Begins = std::move(C.Begins);
    Expanded->Sizes = std::move(C.Sizes);
    Expanded->Types = std::move(C.Types);
    Expanded->Names = std::move(C.Names);
    Expanded->Mappers = std::move(C.Mappers);
    L.Mapped[I] = std::move(Expanded);
  }
}

std::unique_ptr<ExpandedList> expand(const MapList &Maps) {
  auto L = std::make_unique<ExpandedList>();
  expandInto(*L, Maps);
  return L;
}

/// What a construct does to the table.
enum class Action { Enter, Exit, Update };

/// Calls \p Fn(Begin, Size) for each contiguous piece of a non-contiguous
/// `target update` item (a strided section, or several dimensions of which
/// not all are whole). The compiler passes the array's base as the base, a
/// `__tgt_target_non_contig` per dimension (outermost first, the last one
/// describing the element) as the begin, and the number of dimensions as
/// the size; element `i` of dimension `d` is at byte
/// `(Offset_d + i) * Stride_d` from the base, summed over the dimensions.
/// Stops at the first piece for which \p Fn returns false, and returns
/// false then.
bool forEachPiece(const MapItem &Item,
                  const std::function<bool(const MapItem &)> &Fn) {
  const auto *Dims = static_cast<const __tgt_target_non_contig *>(Item.Begin);
  int64_t NumDims = Item.Size;
  std::function<bool(int64_t, uint64_t)> Visit = [&](int64_t Dim,
                                                     uint64_t Offset) {
    const __tgt_target_non_contig &DimInfo = Dims[Dim];
    if (Dim == NumDims - 1) {
      // The innermost dimension is one contiguous run.
      MapItem Piece = Item;
      Piece.Begin = static_cast<char *>(Item.Base) + Offset +
                    DimInfo.Offset * DimInfo.Stride;
      Piece.Size = static_cast<int64_t>(DimInfo.Count * DimInfo.Stride);
      return Fn(Piece);
    }
    for (uint64_t I = 0; I < DimInfo.Count; ++I)
      if (!Visit(Dim + 1, Offset + (DimInfo.Offset + I) * DimInfo.Stride))
        return false;
    return true;
  };
  return Visit(0, 0);
}

bool hasDimensions(const MapItem &Item) {
  return Item.Begin && Item.Size >= 1;
}

/// Calls \p Fn(Begin, Size) for every range that applying \p A to \p L
/// looks up in the table (step 2 of the file comment). Stops, returning
/// false, when \p Fn does.
bool forEachLookup(const ExpandedList &L, Action A,
                   const std::function<bool(uintptr_t, uint64_t)> &Fn) {
  for (int32_t I = 0; I < L.List.Count; ++I) {
    MapItem Item = L.List.item(I);
    if (const ExpandedList *Sub = L.mapped(I)) {
      if (!forEachLookup(*Sub, A, Fn))
        return false;
      continue;
    }
    int64_t Type = Item.Type;
    switch (A) {
    case Action::Enter: {
      bool LambdaCapture = has(Type, OMP_TGT_MAPTYPE_LITERAL) &&
                           has(Type, OMP_TGT_MAPTYPE_PTR_AND_OBJ) &&
                           parentIndex(Type) >= 0;
      if (LambdaCapture || has(Type, OMP_TGT_MAPTYPE_ATTACH)) {
        if (!Fn(addr(Item.Base), sizeof(void *)) || !Fn(addr(Item.Begin), 0))
          return false;
        continue;
      }
      if (has(Type, OMP_TGT_MAPTYPE_LITERAL | OMP_TGT_MAPTYPE_PRIVATE))
        continue;
      if (has(Type, OMP_TGT_MAPTYPE_PTR_AND_OBJ) &&
          !Fn(addr(Item.Base), sizeof(void *)))
        return false;
      if (!Fn(addr(Item.Begin), Item.Size))
        return false;
      break;
    }
    case Action::Exit:
      if (has(Type, OMP_TGT_MAPTYPE_LITERAL | OMP_TGT_MAPTYPE_PRIVATE |
                        OMP_TGT_MAPTYPE_ATTACH))
        continue;
      if (!Fn(addr(Item.Begin), Item.Size))
        return false;
      break;
    case Action::Update:
      if (has(Type, OMP_TGT_MAPTYPE_NON_CONTIG)) {
        if (hasDimensions(Item) &&
            !forEachPiece(Item, [&](const MapItem &Piece) {
              return Fn(addr(Piece.Begin), Piece.Size);
            }))
          return false;
        continue;
      }
      if (!Fn(addr(Item.Begin), Item.Size))
        return false;
      break;
    }
  }
  return true;
}

/// Step 1: returns once no range \p L looks up for \p A is unsettled.
void waitUntilSettled(LockedMappingTable &Table, const ExpandedList &L,
                      Action A) {
  bool ToRemove = A == Action::Exit;
  for (;;) {
    // Nothing is unsettled: no need to look anything up.
    if (!Table->anyUnsettled())
      return;
    bool Settled = forEachLookup(L, A, [&](uintptr_t Begin, uint64_t Size) {
      LookupResult R = Table->lookup(Begin, Size);
      return !R.Entry || !R.Entry->unsettled(ToRemove);
    });
    if (Settled)
      return;
    Table.wait();
  }
}

/// The copies a construct decided on in step 2, and the entries whose
/// state it changed, for step 3.
struct Transfers {
  struct Copy {
    /// Created or pinned by this construct, or marked Releasing by it: it
    /// stays in the table until step 3 is over.
    MapEntry *Entry;
    /// The host range (and its name, for messages).
    MapItem Item;
    void *DeviceAddress;
    bool ToDevice;
    /// How many of Allocations were made before this copy was planned:
    /// the tool hears of those first.
    size_t AllocationsBefore;
  };
  /// The device the construct maps to (for messages).
  int32_t DeviceId = 0;
  /// Where planEnter records the entry of each item of \p Top (the
  /// construct's own list, not a declare mapper's), or null.
  EnteredEntries *Entered = nullptr;
  const void *Top = nullptr;
  InlineVector<Copy, 4> Copies;
  /// The allocations planning made, in item order, while a tool is active:
  /// traced at the start of step 3, and reported to the callbacks there,
  /// each before its item's copy (upstream's order).
  std::vector<ompt::DataOpRecord> Allocations;
  InlineVector<MapEntry *, 8> Created;
  InlineVector<MapEntry *, 8> Pinned;
  /// Host start addresses of the entries marked Releasing.
  InlineVector<uintptr_t, 8> Removed;
  /// What this construct counts in MappingTable::anyUnsettled: each entry
  /// it created or marked Releasing, each pin.
  uint64_t unsettled() const {
    return Created.size() + Pinned.size() + Removed.size();
  }
};

enum class PresentCheck { Map, Unmap, Motion };
void reportNotPresent(Device &D, LockedMappingTable &Table, const ident_t *Loc,
                      const MapItem &Item, PresentCheck Kind);

// The first line of each report is upstream's wording (tests and scripts
// look for it); what it names is appended.
void reportOverlap(Device &D, LockedMappingTable &Table, const ident_t *Loc,
                   const MapItem &Item, const MapEntry &E) {
  userMessage("explicit extension not allowed: host address specified is "
              "0x%016" PRIxPTR " (%" PRId64 " bytes), but device allocation "
              "maps to host at 0x%016" PRIxPTR " (%" PRIu64 " bytes)%s",
              addr(Item.Begin), Item.Size, E.HstBegin, E.size(),
              forItem(Loc, Item).c_str());
  // A `present` item is also reported as absent, as upstream does: the
  // range it names is not wholly on the device.
  if (has(Item.Type, OMP_TGT_MAPTYPE_PRESENT)) {
    reportNotPresent(D, Table, Loc, Item, PresentCheck::Map);
    return;
  }
  errorMessage("Call to getTargetPointer returned null pointer (device "
               "failure or illegal mapping).");
  if (infoFlags() & InfoDumpTable)
    D.dumpMappingTable(Table, "at the failure");
}

void reportNotPresent(Device &D, LockedMappingTable &Table, const ident_t *Loc,
                      const MapItem &Item, PresentCheck Kind) {
  userMessage("device mapping required by 'present' %s modifier does not "
              "exist for host address 0x%016" PRIxPTR " (%" PRId64 " bytes)%s",
              Kind == PresentCheck::Motion ? "motion" : "map type",
              addr(Item.Begin), Item.Size, forItem(Loc, Item).c_str());
  if (Kind == PresentCheck::Map)
    errorMessage("Call to getTargetPointer returned null pointer ('present' "
                 "map type modifier).");
  if (infoFlags() & InfoDumpTable)
    D.dumpMappingTable(Table, "at the failure");
}

/// After a copy of \p Item's bytes, puts back the attached pointers inside
/// it: their device values on the device, their host values on the host.
bool restoreShadows(Device &D, LockedMappingTable &, const MapEntry &E,
                    const MapItem &Item, bool OnDevice) {
  uintptr_t Begin = addr(Item.Begin), End = Begin + Item.Size;
  for (const ShadowPointer &Shadow : E.Shadows) {
    if (Shadow.HostAddress < Begin || Shadow.HostAddress + sizeof(void *) > End)
      continue;
    if (!OnDevice) {
      std::memcpy(reinterpret_cast<void *>(Shadow.HostAddress),
                  &Shadow.HostValue, sizeof(void *));
      continue;
    }
    if (plugin::Status S = D.plugin().dataSubmit(
            reinterpret_cast<void *>(E.translate(Shadow.HostAddress)),
            &Shadow.DeviceValue, sizeof(void *), nullptr)) {
      errorMessage(
          "restoring the attached pointer at host address 0x%016" PRIxPTR
          " on device %d failed: %s",
          Shadow.HostAddress, D.Id, S.message().c_str());
      return false;
    }
  }
  return true;
}

/// Step 2: lists a copy of \p Item between the host and \p E's device
/// copy, pinning \p E unless this construct already owns its state.
void planCopy(Transfers &T, MapEntry &E, const MapItem &Whole, bool ToDevice) {
  if (E.State == MapState::Ready) {
    ++E.Pins;
    T.Pinned.push_back(&E);
  }
  // An implicit item found in a smaller entry (see lookupItem) copies only
  // what the entry has.
  MapItem Item = Whole;
  uintptr_t Begin = std::max(addr(Item.Begin), E.HstBegin);
  uintptr_t End = std::min(addr(Item.Begin) + Item.Size, E.HstEnd);
  Item.Begin = reinterpret_cast<void *>(Begin);
  Item.Size = End > Begin ? static_cast<int64_t>(End - Begin) : 0;
  T.Copies.push_back({&E, Item,
                      reinterpret_cast<void *>(E.translate(addr(Item.Begin))),
                      ToDevice, T.Allocations.size()});
  // Said when decided, so that each copy follows the creation of its entry
  // as in upstream's output (the copies run after the whole list is
  // planned), and named by the entry, as upstream names it (a member copied
  // within its struct's entry: the struct).
  if (ToDevice && (infoFlags() & InfoDataTransfers))
    infoMessage(T.DeviceId,
                "Copying data from host to device, HstPtr=0x%016" PRIxPTR
                ", TgtPtr=0x%016" PRIxPTR ", Size=%" PRId64 ", Name=%s",
                addr(Item.Begin), addr(T.Copies.back().DeviceAddress),
                Item.Size, mapName(E.Name).c_str());
}

/// Step 3's copy, without the table's lock.
bool transfer(Device &D, const Transfers::Copy &C) {
  const MapItem &Item = C.Item;
  if (C.ToDevice) {
    TraceScope Trace("data submit",
                     [&] { return std::to_string(Item.Size) + " bytes"; });
    ompt::DataOpScope Op(ompt::DataTransferToDevice, Item.Begin, -1,
                         C.DeviceAddress, D.Id, Item.Size);
    if (plugin::Status S = D.plugin().dataSubmit(C.DeviceAddress, Item.Begin,
                                                 Item.Size, nullptr)) {
      errorMessage("copying %s to device %d failed: %s",
                   mapName(Item.Name).c_str(), D.Id, S.message().c_str());
      return false;
    }
    return true;
  }
  TraceScope Trace("data retrieve",
                   [&] { return std::to_string(Item.Size) + " bytes"; });
  ompt::DataOpScope Op(ompt::DataTransferFromDevice, C.DeviceAddress, D.Id,
                       Item.Begin, -1, Item.Size);
  if (infoFlags() & InfoDataTransfers)
    infoMessage(D.Id,
                "Copying data from device to host, TgtPtr=0x%016" PRIxPTR
                ", HstPtr=0x%016" PRIxPTR ", Size=%" PRId64 ", Name=%s",
                addr(C.DeviceAddress), addr(Item.Begin), Item.Size,
                mapName(C.Entry->Name).c_str());
  if (plugin::Status S = D.plugin().dataRetrieve(Item.Begin, C.DeviceAddress,
                                                 Item.Size, nullptr)) {
    errorMessage("copying %s from device %d failed: %s",
                 mapName(Item.Name).c_str(), D.Id, S.message().c_str());
    return false;
  }
  return true;
}

/// Step 3. Returns false when a copy failed (after saying why); the entries
/// are settled either way, so no other construct waits for them forever.
bool finish(Device &D, LockedMappingTable &Table, Transfers &T) {
  bool Ok = true;
  if (!T.Copies.empty() || !T.Allocations.empty())
    Table.unlocked([&] {
      // The trace keeps the order the operations happened in; the
      // callbacks follow the items, as upstream's.
      ompt::traceRecorded(T.Allocations);
      size_t Reported = 0;
      auto ReportAllocations = [&](size_t Upto) {
        for (; Reported < Upto; ++Reported)
          ompt::report(T.Allocations[Reported]);
      };
      for (const Transfers::Copy &C : T.Copies) {
        ReportAllocations(C.AllocationsBefore);
        if (!(Ok = transfer(D, C)))
          break;
      }
      // Those of items without a copy after the last copy, and all of them
      // when a copy failed: each allocation happened.
      ReportAllocations(T.Allocations.size());
    });
  for (const Transfers::Copy &C : T.Copies)
    Ok = Ok && restoreShadows(D, Table, *C.Entry, C.Item, C.ToDevice);
  for (MapEntry *E : T.Created)
    E->State = MapState::Ready;
  for (MapEntry *E : T.Pinned)
    --E->Pins;
  InlineVector<void *, 8> Frees;
  for (uintptr_t Key : T.Removed)
    Table->eraseIf(Key, [&](MapEntry &E) {
      if (E.State != MapState::Releasing)
        return false;
      if (infoFlags() & InfoMappingChanges)
        infoMessage(D.Id,
                    "Removing map entry with HstPtrBegin=0x%016" PRIxPTR
                    ", TgtPtrBegin=0x%016" PRIxPTR ", Size=%" PRIu64
                    ", Name=%s",
                    E.HstBegin, E.TgtBegin, E.size(), mapName(E.Name).c_str());
      // Entries hold the only references to blocks, all under the lock.
      if (E.Block && E.Block.use_count() == 1)
        Frees.push_back(E.Block->Memory);
      return true;
    });
  Table->removeUnsettled(T.unsettled());
  if (T.unsettled())
    Table.notifyAll();
  if (!Frees.empty())
    Table.unlocked([&] {
      for (void *P : Frees)
        (void)D.free(P, plugin::AllocKind::Device);
    });
  return Ok;
}

/// The entry of \p Item. An implicit item (a variable the region uses, mapped
/// whole by default) that extends an entry is found in that entry, as
/// upstream does: the construct uses what an enclosing construct mapped of
/// it (`target data map(from: s.y)` around a region using `s`), and counts
/// a reference on it, instead of failing as an explicit extension does.
LookupResult implicitExtends(LookupResult R, const MapItem &Item) {
  if (R.Status == LookupResult::Overlap &&
      has(Item.Type, OMP_TGT_MAPTYPE_IMPLICIT))
    R.Status = LookupResult::Contained;
  return R;
}
LookupResult lookupItem(LockedMappingTable &Table, const MapItem &Item) {
  return implicitExtends(Table->lookup(addr(Item.Begin), Item.Size), Item);
}
/// lookupItem, given the entry that contains the item's start.
LookupResult lookupItemIn(MapEntry &E, const MapItem &Item) {
  return implicitExtends(MappingTable::lookupIn(E, addr(Item.Begin), Item.Size),
                         Item);
}

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
    // A large block the CPU will copy keeps its host offset in the page
    // (plugin::LargeCopyBytes says why).
    uintptr_t Padding = 0;
    if (End - BlockBegin >= plugin::LargeCopyBytes &&
        D.plugin().supportsUnifiedMemory())
      Padding = BlockBegin % plugin::LargeCopyAlignment;
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
  if (Runtime::get().unifiedSharedMemory() &&
      !has(Item.Type, OMP_TGT_MAPTYPE_CLOSE))
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
                Item.Size,
                New.DynRefCount, New.HoldRefCount, mapName(Item.Name).c_str());
  MapEntry &Inserted = Table->insert(std::move(New));
  T.Created.push_back(&Inserted);
  return &Inserted;
}

/// Stores into the device copy of the pointer at \p PointerHost the device
/// address that corresponds to the host pointer's current value, given that
/// the pointee range starting at \p PointeeBegin is mapped by \p Pointee.
bool attachPointer(Device &D, LockedMappingTable &, MapEntry &PointerEntry,
                   uintptr_t PointerHost,
                   const MapEntry &Pointee, uintptr_t PointeeBegin) {
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
  if (plugin::Status S = D.plugin().dataSubmit(Slot, &DeviceValue,
                                               sizeof(DeviceValue), nullptr)) {
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
bool attachPointerToHost(Device &D, MapEntry &PointerEntry,
                         uintptr_t PointerHost) {
  uintptr_t HostValue;
  std::memcpy(&HostValue, reinterpret_cast<void *>(PointerHost),
              sizeof(HostValue));
  void *Slot = reinterpret_cast<void *>(PointerEntry.translate(PointerHost));
  if (plugin::Status S = D.plugin().dataSubmit(Slot, &HostValue,
                                               sizeof(HostValue), nullptr)) {
    errorMessage("setting the pointer at host address 0x%016" PRIxPTR
                 " on device %d failed: %s",
                 PointerHost, D.Id, S.message().c_str());
    return false;
  }
  return true;
}

/// Points the device copy of the pointer at \p Item's base to the device
/// copy of its begin, when both are mapped (a lambda's by-reference capture
/// or an attach map). Otherwise the device keeps the host address.
bool attachIfBothMapped(Device &D, LockedMappingTable &Table,
                        const MapItem &Item) {
  LookupResult Pointer = Table->lookup(addr(Item.Base), sizeof(void *));
  LookupResult Pointee = Table->lookup(addr(Item.Begin), 0);
  // Upstream reports both searches, the pointee's first.
  if (Pointee.Status == LookupResult::Contained)
    reportLookup(D.Id, *Pointee.Entry, addr(Item.Begin), 0);
  if (Pointer.Status == LookupResult::Contained)
    reportLookup(D.Id, *Pointer.Entry, addr(Item.Base), sizeof(void *));
  if (Pointer.Status != LookupResult::Contained ||
      Pointee.Status != LookupResult::Contained)
    return true;
  return attachPointer(D, Table, *Pointer.Entry, addr(Item.Base),
                       *Pointee.Entry, addr(Item.Begin));
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
      infoMessage(D.Id,
                  "variable %s does not have a valid device counterpart",
                  mapName(Item.Name).c_str());
    // Under unified shared memory the pointee stays in host memory, so a
    // mapped pointer (such as the reference pointer of a declare target
    // variable) must hold the host address on the device too.
    return !PointerEntry || !Runtime::get().unifiedSharedMemory() ||
           attachPointerToHost(D, *PointerEntry, addr(Item.Base));
  }
  if (has(Item.Type, OMP_TGT_MAPTYPE_TO) &&
      (IsNew || has(Item.Type, OMP_TGT_MAPTYPE_ALWAYS)))
    planCopy(T, *E, Item, /*ToDevice=*/true);
  // Written now; step 3 writes it again if a copy covers it.
  if (PointerEntry && !attachPointer(D, Table, *PointerEntry, addr(Item.Base),
                                     *E, addr(Item.Begin)))
    return false;
  if (has(Item.Type, OMP_TGT_MAPTYPE_RETURN_PARAM)) {
    // The base the region adds its offset to: for ptr_and_obj, Base is
    // where the pointer (or reference) is stored, and the base is its
    // value.
    uintptr_t Base = addr(Item.Base);
    if (has(Item.Type, OMP_TGT_MAPTYPE_PTR_AND_OBJ))
      std::memcpy(&Base, Item.Base, sizeof(Base));
    Maps.Bases[I] = reinterpret_cast<void *>(
        E->translate(addr(Item.Begin)) - (addr(Item.Begin) - Base));
  }
  return true;
}

/// Step 2 of a map-entering list.
bool planEnter(Device &D, LockedMappingTable &Table, Transfers &T,
               const ident_t *Loc, const ExpandedList &L) {
  const MapList &Maps = L.List;
  InlineVector<char, 32> IsNew(Maps.Count, 0);
  std::vector<int32_t> Attachments, LambdaCaptures;
  for (int32_t I = 0; I < Maps.Count; ++I) {
    MapItem Item = Maps.item(I);
    if (const ExpandedList *Sub = L.mapped(I)) {
      if (!planEnter(D, Table, T, Loc, *Sub))
        return false;
      continue;
    }
    if (has(Item.Type, OMP_TGT_MAPTYPE_LITERAL) &&
        has(Item.Type, OMP_TGT_MAPTYPE_PTR_AND_OBJ) &&
        parentIndex(Item.Type) >= 0) {
      // A by-reference capture of a lambda mapped as item MEMBER_OF: its
      // field in the device copy of the lambda must point to the device
      // copy of the captured variable.
      LambdaCaptures.push_back(I);
      continue;
    }
    if (has(Item.Type, OMP_TGT_MAPTYPE_LITERAL | OMP_TGT_MAPTYPE_PRIVATE))
      continue;
    if (has(Item.Type, OMP_TGT_MAPTYPE_ATTACH)) {
      Attachments.push_back(I);
      continue;
    }
    int64_t Parent = parentIndex(Item.Type);
    // A member lies inside its struct's storage and shares its reference
    // count; the pointee of a member pointer (ptr_and_obj) is storage of its
    // own and is counted like any list item.
    bool IsMember = Parent >= 0 && Parent < Maps.Count &&
                    !has(Item.Type, OMP_TGT_MAPTYPE_PTR_AND_OBJ);

    MapEntry *PointerEntry = nullptr;
    if (has(Item.Type, OMP_TGT_MAPTYPE_PTR_AND_OBJ)) {
      // The pointer itself lives at Base; make its storage present too.
      MapItem Pointer = Item;
      Pointer.Begin = Item.Base;
      Pointer.Size = sizeof(void *);
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
    bool StructStart = I + 1 < Maps.Count &&
                       parentIndex(Maps.item(I + 1).Type) == I;
    MapEntry *E = enterRange(D, Table, T, Loc, Item,
                             /*CountReference=*/!IsMember, StructStart, New,
                             Failed);
    if (Failed)
      return false;
    if (T.Entered && &L == T.Top && E &&
        MappingTable::containsBegin(*E, addr(Item.Begin)))
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
    if (!useEntry(D, Table, T, Maps, I, E, PointerEntry, IsNew[I]))
      return false;
  }
  for (int32_t I : LambdaCaptures)
    if (!attachIfBothMapped(D, Table, Maps.item(I)))
      return false;
  // Attach maps (OpenMP 6 / LLVM 22): once everything else is mapped, point
  // the device copy of the pointer at Base to the device copy of its
  // pointee, when both are present.
  for (int32_t I : Attachments)
    if (!attachIfBothMapped(D, Table, Maps.item(I)))
      return false;
  return true;
}

/// planExit's pass 1 for an item found in \p E: drops the item's
/// reference (none for a struct's member, which shares its struct's) and
/// reports it. Returns whether no reference holds \p E any more.
bool releaseReference(Device &D, MapEntry &E, const MapItem &Item,
                      bool IsMember) {
  if (!IsMember && has(Item.Type, OMP_TGT_MAPTYPE_OMPX_HOLD)) {
    if (E.HoldRefCount)
      --E.HoldRefCount;
  } else if (!IsMember && !E.Permanent) {
    if (has(Item.Type, OMP_TGT_MAPTYPE_DELETE))
      E.DynRefCount = 0;
    else if (E.DynRefCount)
      --E.DynRefCount;
  }
  bool Released = E.isReleasable();
  if (infoFlags() & InfoMappingExists) {
    bool Hold = has(Item.Type, OMP_TGT_MAPTYPE_OMPX_HOLD);
    std::string Dyn = E.Permanent ? "INF" : std::to_string(E.DynRefCount);
    std::string HoldCount = std::to_string(E.HoldRefCount);
    std::string &Changed = Hold ? HoldCount : Dyn;
    if (IsMember || (E.Permanent && !Hold))
      Changed += " (update suppressed)";
    else if (has(Item.Type, OMP_TGT_MAPTYPE_DELETE))
      Changed += " (reset, delayed deletion)";
    else
      Changed +=
          Released ? " (decremented, delayed deletion)" : " (decremented)";
    infoMessage(D.Id,
                "Mapping exists with HstPtrBegin=0x%016" PRIxPTR
                ", TgtPtrBegin=0x%016" PRIxPTR ", Size=%" PRId64
                ", DynRefCount=%s, HoldRefCount=%s",
                addr(Item.Begin), E.translate(addr(Item.Begin)), Item.Size,
                Dyn.c_str(), HoldCount.c_str());
  }
  return Released;
}

/// Step 2 of a map-exiting list.
bool planExit(Device &D, LockedMappingTable &Table, Transfers &T,
              const ident_t *Loc, const ExpandedList &L) {
  const MapList &Maps = L.List;
  // Pass 1, in reverse list order: reference counts and which entries this
  // construct releases.
  // For each item: the entry it names, if any, and whether it releases it.
  // Entries stay in the table (and their nodes in place) until step 3, so
  // the later passes reach them without searching again.
  struct ItemEntry {
    MapEntry *Entry = nullptr;
    bool Released = false;
  };
  InlineVector<ItemEntry, 16> Items(Maps.Count, ItemEntry());
  for (int32_t I = Maps.Count - 1; I >= 0; --I) {
    MapItem Item = Maps.item(I);
    if (const ExpandedList *Sub = L.mapped(I)) {
      if (!planExit(D, Table, T, Loc, *Sub))
        return false;
      continue;
    }
    if (has(Item.Type, OMP_TGT_MAPTYPE_LITERAL | OMP_TGT_MAPTYPE_PRIVATE |
                           OMP_TGT_MAPTYPE_ATTACH))
      continue;
    LookupResult R = lookupItem(Table, Item);
    if (R.Entry && R.Entry->State == MapState::Releasing)
      R = LookupResult();
    if (R.Status != LookupResult::Contained) {
      if (has(Item.Type, OMP_TGT_MAPTYPE_PRESENT) &&
          !Runtime::get().unifiedSharedMemory()) {
        reportNotPresent(D, Table, Loc, Item, PresentCheck::Unmap);
        return false;
      }
      continue;
    }
    MapEntry &E = *R.Entry;
    Items[I].Entry = &E;
    int64_t Parent = parentIndex(Item.Type);
    bool IsMember = Parent >= 0 && Parent < Maps.Count &&
                    !has(Item.Type, OMP_TGT_MAPTYPE_PTR_AND_OBJ);
    Items[I].Released = releaseReference(D, E, Item, IsMember);
  }
  // Pass 2: copies back, while every device copy still exists.
  for (int32_t I = 0; I < Maps.Count; ++I) {
    if (!Items[I].Entry)
      continue;
    MapItem Item = Maps.item(I);
    int64_t Parent = parentIndex(Item.Type);
    // A member goes away with its struct; parents come first in the list,
    // so this propagates down chains of members.
    bool ParentReleased = Parent >= 0 && Parent < I &&
                          !has(Item.Type, OMP_TGT_MAPTYPE_PTR_AND_OBJ) &&
                          Items[Parent].Released;
    Items[I].Released = Items[I].Released || ParentReleased;
    if (!has(Item.Type, OMP_TGT_MAPTYPE_FROM) ||
        !(Items[I].Released || has(Item.Type, OMP_TGT_MAPTYPE_ALWAYS)))
      continue;
    // A declare mapper's own exit (pass 1) may have released an entry
    // another item also named: it is as good as gone.
    MapEntry *E = Items[I].Entry;
    if (E->State != MapState::Releasing)
      planCopy(T, *E, Item, /*ToDevice=*/false);
  }
  // Pass 3: what no reference holds any more goes once the copies are
  // done (step 3). Several items may name one entry: each is marked once.
  for (int32_t I = Maps.Count - 1; I >= 0; --I) {
    MapEntry *E = Items[I].Entry;
    if (!E || !Items[I].Released || E->State == MapState::Releasing ||
        !E->isReleasable())
      continue;
    E->State = MapState::Releasing;
    T.Removed.push_back(E->HstBegin);
  }
  return true;
}

/// Step 2 of one contiguous piece of a `target update` list item, when it
/// is mapped (OpenMP: updating absent storage does nothing, unless
/// `present`).
bool planUpdateRange(Device &D, LockedMappingTable &Table, Transfers &T,
                     const ident_t *Loc, const MapItem &Piece) {
  LookupResult R = Table->lookup(addr(Piece.Begin), Piece.Size);
  if (R.Status != LookupResult::Contained) {
    // Under unified shared memory data without a device copy (`close`, or
    // omp_target_associate_ptr, make one) is the host's: nothing to do.
    if (Runtime::get().unifiedSharedMemory())
      return true;
    if (has(Piece.Type, OMP_TGT_MAPTYPE_PRESENT)) {
      reportNotPresent(D, Table, Loc, Piece, PresentCheck::Motion);
      return false;
    }
    return true;
  }
  reportLookup(D.Id, *R.Entry, addr(Piece.Begin), Piece.Size);
  if (has(Piece.Type, OMP_TGT_MAPTYPE_TO))
    planCopy(T, *R.Entry, Piece, /*ToDevice=*/true);
  if (has(Piece.Type, OMP_TGT_MAPTYPE_FROM))
    planCopy(T, *R.Entry, Piece, /*ToDevice=*/false);
  return true;
}

/// Step 2 of a `target update` list.
bool planUpdate(Device &D, LockedMappingTable &Table, Transfers &T,
                const ident_t *Loc, const ExpandedList &L) {
  const MapList &Maps = L.List;
  for (int32_t I = 0; I < Maps.Count; ++I) {
    MapItem Item = Maps.item(I);
    if (const ExpandedList *Sub = L.mapped(I)) {
      if (!planUpdate(D, Table, T, Loc, *Sub))
        return false;
      continue;
    }
    if (has(Item.Type, OMP_TGT_MAPTYPE_NON_CONTIG)) {
      if (!hasDimensions(Item)) {
        errorMessage("non-contiguous 'target update' of %s has no dimensions",
                     describeItem(Loc, Item).c_str());
        return false;
      }
      if (!forEachPiece(Item, [&](const MapItem &Piece) {
            return planUpdateRange(D, Table, T, Loc, Piece);
          }))
        return false;
      continue;
    }
    if (!planUpdateRange(D, Table, T, Loc, Item))
      return false;
  }
  return true;
}

using Planner = bool (*)(Device &, LockedMappingTable &, Transfers &,
                         const ident_t *, const ExpandedList &);

/// The three steps of the file comment for one construct's list.
bool apply(Device &D, const ident_t *Loc, const MapList &Maps, Action A,
           Planner Plan, EnteredEntries *Entered = nullptr) {
  // An empty list (a region without maps) neither waits nor changes
  // anything.
  if (Maps.Count == 0)
    return true;
  ExpandedList L;
  expandInto(L, Maps);
  LockedMappingTable Table = D.Mappings.lock();
  waitUntilSettled(Table, L, A);
  Transfers T;
  T.DeviceId = D.Id;
  if (Entered) {
    Entered->Entries.assign(Maps.Count, nullptr);
    T.Entered = Entered;
    T.Top = &L;
  }
  bool Planned;
  {
    ompt::DeferAllocations Defer(T.Allocations);
    Planned = Plan(D, Table, T, Loc, L);
  }
  // What the plan made unsettled (with the lock held throughout), until
  // finish settles it.
  Table->addUnsettled(T.unsettled());
  if (!Planned)
    T.Copies.clear(); // The construct fails; settle what it touched.
  bool Finished = finish(D, Table, T);
  if (Entered) {
    Entered->Erasures = Table->erasures();
    Entered->Valid = Planned && Finished;
  }
  return Planned && Finished;
}

} // namespace

bool offload::mapEnter(Device &D, const ident_t *Loc, const MapList &Maps,
                       EnteredEntries *Entered) {
  return apply(D, Loc, Maps, Action::Enter, planEnter, Entered);
}

bool offload::mapExit(Device &D, const ident_t *Loc, const MapList &Maps) {
  return apply(D, Loc, Maps, Action::Exit, planExit);
}

bool offload::mapUpdate(Device &D, const ident_t *Loc, const MapList &Maps) {
  return apply(D, Loc, Maps, Action::Update, planUpdate);
}

bool offload::kernelArguments(Device &D, const ident_t *Loc,
                              const MapList &Maps, std::vector<void *> &Args,
                              PrivateAllocations &Privates,
                              const EnteredEntries *Entered) {
  if (Maps.Count == 0)
    return true; // Nothing to pass.
  LockedMappingTable Table = D.Mappings.lock();
  bool Complete = Entered && Entered->Valid &&
                  Entered->Entries.size() == static_cast<size_t>(Maps.Count);
  // Checked at each use: the lock is released for private copies below,
  // and another thread may erase entries meanwhile. While no entry went
  // away since mapEnter found them, they are what a search would find.
  auto Reusable = [&] {
    return Complete && Entered->Erasures == Table->erasures();
  };
  // Device copies of the private items, by item index, for the captures
  // below.
  InlineVector<void *, 16> PrivateCopies(Maps.Count, nullptr);
  for (int32_t I = 0; I < Maps.Count; ++I) {
    MapItem Item = Maps.item(I);
    int64_t Parent = parentIndex(Item.Type);
    if (has(Item.Type, OMP_TGT_MAPTYPE_LITERAL) &&
        has(Item.Type, OMP_TGT_MAPTYPE_PTR_AND_OBJ) && Parent >= 0 &&
        Parent < I && PrivateCopies[Parent]) {
      // A by-reference capture of a lambda passed by value (firstprivate):
      // its field in the lambda's private copy must point to the device
      // copy of the captured variable, as upstream attaches it.
      MapItem Lambda = Maps.item(static_cast<int32_t>(Parent));
      LookupResult Pointee = Table->lookup(addr(Item.Begin), 0);
      uintptr_t Field = addr(Item.Base) - addr(Lambda.Begin);
      if (Pointee.Status != LookupResult::Contained ||
          Field + sizeof(void *) > static_cast<uint64_t>(Lambda.Size))
        continue; // Not mapped: the host address stays (shared memory).
      uintptr_t DeviceValue = Pointee.Entry->translate(addr(Item.Begin));
      void *Slot = static_cast<char *>(PrivateCopies[Parent]) + Field;
      if (plugin::Status S = D.plugin().dataSubmit(
              Slot, &DeviceValue, sizeof(DeviceValue), nullptr)) {
        errorMessage("attaching a capture of %s failed: %s",
                     describeItem(Loc, Lambda).c_str(), S.message().c_str());
        return false;
      }
      continue;
    }
    if (!has(Item.Type, OMP_TGT_MAPTYPE_TARGET_PARAM))
      continue;
    if (has(Item.Type, OMP_TGT_MAPTYPE_LITERAL)) {
      Args.push_back(Item.Base); // the value itself, passed as uintptr_t
      continue;
    }
    if (has(Item.Type, OMP_TGT_MAPTYPE_PRIVATE)) {
      // private / firstprivate: a fresh device copy for this launch only,
      // which no other construct can see: made without the table's lock.
      void *Copy = nullptr;
      bool Copied = true;
      Table.unlocked([&] {
        Copy =
            D.allocate(static_cast<uint64_t>(std::max<int64_t>(Item.Size, 1)),
                       plugin::AllocKind::Device);
        if (!Copy || !has(Item.Type, OMP_TGT_MAPTYPE_TO) || Item.Size <= 0)
          return;
        if (plugin::Status S =
                D.plugin().dataSubmit(Copy, Item.Begin, Item.Size, nullptr)) {
          errorMessage("firstprivate copy of %s failed: %s",
                       describeItem(Loc, Item).c_str(), S.message().c_str());
          Copied = false;
        }
      });
      if (!Copy) {
        errorMessage("device %d cannot allocate %" PRId64
                     " bytes for private copy of %s",
                     D.Id, Item.Size, describeItem(Loc, Item).c_str());
        return false;
      }
      Privates.Pointers.push_back(Copy);
      if (!Copied)
        return false;
      PrivateCopies[I] = Copy;
      Args.push_back(reinterpret_cast<void *>(
          addr(Copy) - (addr(Item.Begin) - addr(Item.Base))));
      continue;
    }
    MapEntry *Known = Reusable() ? Entered->Entries[I] : nullptr;
    LookupResult R =
        Known ? lookupItemIn(*Known, Item) : lookupItem(Table, Item);
    if (R.Status != LookupResult::Contained) {
      // An absent zero-length section (or unified shared memory): the
      // device sees the original pointer value.
      Args.push_back(Item.Base);
      continue;
    }
    reportLookup(D.Id, *R.Entry, addr(Item.Begin), Item.Size);
    Args.push_back(
        reinterpret_cast<void *>(R.Entry->translate(addr(Item.Begin)) -
                                 (addr(Item.Begin) - addr(Item.Base))));
  }
  return true;
}

static std::string mapTypeName(int64_t Type) {
  bool To = has(Type, OMP_TGT_MAPTYPE_TO),
       From = has(Type, OMP_TGT_MAPTYPE_FROM);
  if (has(Type, OMP_TGT_MAPTYPE_LITERAL))
    return "firstprivate";
  if (has(Type, OMP_TGT_MAPTYPE_PRIVATE))
    return To ? "firstprivate" : "private";
  if (has(Type, OMP_TGT_MAPTYPE_ATTACH))
    return "attach";
  if (has(Type, OMP_TGT_MAPTYPE_DELETE))
    return "delete";
  return To && From ? "tofrom" : To ? "to" : From ? "from" : "alloc";
}

void offload::printConstructMaps(Device &D, const char *Construct,
                                 const ident_t *Loc, const MapList &Maps) {
  // Worded as upstream's runtime, down to the trailing space of each item.
  infoMessage(D.Id, "%s at %s with %d arguments:", Construct,
              sourceLocation(Loc).c_str(), Maps.Count);
  for (int32_t I = 0; I < Maps.Count; ++I) {
    MapItem Item = Maps.item(I);
    infoMessage(D.Id, "%s(%s)[%" PRId64 "] %s", mapTypeName(Item.Type).c_str(),
                mapName(Item.Name).c_str(), Item.Size,
                has(Item.Type, OMP_TGT_MAPTYPE_IMPLICIT) ? "(implicit)" : "");
  }
}
