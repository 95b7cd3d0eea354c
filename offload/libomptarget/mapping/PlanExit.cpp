//===- PlanExit.cpp - Step 2 of a map-exiting list ------------------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Drops each item's reference, lists the copies back to the host, and marks
// the entries no reference holds any more for removal after those copies.
//
//===----------------------------------------------------------------------===//

#include "diagnostics/Diagnostics.h"
#include "mapping/MappingDiagnostics.h"
#include "mapping/Planners.h"

#include <cinttypes>

using namespace offload;

namespace {

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

} // namespace

bool offload::planExit(Device &D, LockedMappingTable &Table, Transfers &T,
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
    ItemSearches S = searchesFor(Action::Exit, Item);
    if (S.K != ItemSearches::Storage)
      continue;
    LookupResult R = lookupItem(Table, itemOver(Item, S.Range));
    if (R.Entry && R.Entry->State == MapState::Releasing)
      R = LookupResult();
    if (R.Status != LookupResult::Contained) {
      if (has(Item.Type, OMP_TGT_MAPTYPE_PRESENT) &&
          !D.zeroCopyMaps()) {
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
