//===- PlanUpdate.cpp - Step 2 of a `target update` list ------------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "diagnostics/Diagnostics.h"
#include "mapping/MappingDiagnostics.h"
#include "mapping/Planners.h"

using namespace offload;

namespace {

/// Step 2 of one contiguous piece of a `target update` list item, when it
/// is mapped (OpenMP: updating absent storage does nothing, unless
/// `present`).
bool planUpdateRange(Device &D, LockedMappingTable &Table, Transfers &T,
                     const ident_t *Loc, const MapItem &Piece) {
  LookupResult R = Table->lookup(addr(Piece.Begin), Piece.Size);
  if (R.Status != LookupResult::Contained) {
    // Under unified shared memory data without a device copy (`close`, or
    // omp_target_associate_ptr, make one) is the host's: nothing to do.
    if (D.zeroCopyMaps())
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

} // namespace

bool offload::planUpdate(Device &D, LockedMappingTable &Table, Transfers &T,
                         const ident_t *Loc, const ExpandedList &L) {
  const MapList &Maps = L.List;
  for (int32_t I = 0; I < Maps.Count; ++I) {
    MapItem Item = Maps.item(I);
    if (const ExpandedList *Sub = L.mapped(I)) {
      if (!planUpdate(D, Table, T, Loc, *Sub))
        return false;
      continue;
    }
    ItemSearches S = searchesFor(Action::Update, Item);
    switch (S.K) {
    case ItemSearches::NoDimensions:
      errorMessage("non-contiguous 'target update' of %s has no dimensions",
                   describeItem(Loc, Item).c_str());
      return false;
    case ItemSearches::Pieces:
      if (!forEachPiece(Item, [&](const MapItem &Piece) {
            return planUpdateRange(D, Table, T, Loc, Piece);
          }))
        return false;
      break;
    case ItemSearches::Storage:
      if (!planUpdateRange(D, Table, T, Loc, itemOver(Item, S.Range)))
        return false;
      break;
    default:
      break;
    }
  }
  return true;
}
