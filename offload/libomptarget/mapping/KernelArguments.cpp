//===- KernelArguments.cpp - The arguments of a target region's kernel ----===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// One argument per TARGET_PARAM item of the region's list, after mapEnter
// made the list present: a literal's value, a private copy's device address,
// or the device address of the mapped storage, each shifted as the item's
// base is from its begin.
//
//===----------------------------------------------------------------------===//

#include "mapping/DataMapping.h"
#include "mapping/ItemSearches.h"
#include "mapping/MappingDiagnostics.h"
#include "mapping/PrivateCopies.h"

using namespace offload;

bool offload::kernelArguments(Device &D, const ident_t *Loc,
                              const MapList &Maps, AsyncContext &Ctx,
                              std::vector<void *> &Args,
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
      // A by-reference capture of a lambda passed by value (firstprivate).
      if (!attachCaptureInCopy(D, Table, Ctx, Loc, Item,
                               Maps.item(static_cast<int32_t>(Parent)),
                               PrivateCopies[Parent]))
        return false;
      continue;
    }
    if (!has(Item.Type, OMP_TGT_MAPTYPE_TARGET_PARAM))
      continue;
    if (has(Item.Type, OMP_TGT_MAPTYPE_LITERAL)) {
      Args.push_back(Item.Base); // the value itself, passed as uintptr_t
      continue;
    }
    if (has(Item.Type, OMP_TGT_MAPTYPE_PRIVATE)) {
      // private / firstprivate: releases the lock (see Reusable).
      void *Copy = makePrivateCopy(D, Table, Ctx, Loc, Item, Privates);
      if (!Copy)
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

bool offload::kernelArguments(Device &D, const ident_t *Loc,
                              const MapList &Maps, std::vector<void *> &Args,
                              PrivateAllocations &Privates,
                              const EnteredEntries *Entered) {
  AsyncContext Ctx(D, Loc, "target region");
  bool Ok = kernelArguments(D, Loc, Maps, Ctx, Args, Privates, Entered);
  return Ctx.synchronize() && Ok;
}
