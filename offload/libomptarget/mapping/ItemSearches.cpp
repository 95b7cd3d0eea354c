//===- ItemSearches.cpp - The ranges a construct searches the table for ---===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mapping/ItemSearches.h"

using namespace offload;

namespace {

ItemSearches storage(const MapItem &Item) {
  ItemSearches S;
  S.K = ItemSearches::Storage;
  S.Range = {addr(Item.Begin), static_cast<uint64_t>(Item.Size)};
  return S;
}

/// The pointer stored at the item's base and the pointee at its begin.
ItemSearches pointerTo(ItemSearches::Kind K, const MapItem &Item) {
  ItemSearches S;
  S.K = K;
  S.HasPointer = true;
  S.Pointer = {addr(Item.Base), sizeof(void *)};
  S.Range = {addr(Item.Begin), 0};
  return S;
}

ItemSearches enterSearches(const MapItem &Item) {
  int64_t Type = Item.Type;
  if (has(Type, OMP_TGT_MAPTYPE_LITERAL) &&
      has(Type, OMP_TGT_MAPTYPE_PTR_AND_OBJ) && parentIndex(Type) >= 0)
    return pointerTo(ItemSearches::LambdaCapture, Item);
  if (has(Type, OMP_TGT_MAPTYPE_LITERAL | OMP_TGT_MAPTYPE_PRIVATE))
    return {};
  if (has(Type, OMP_TGT_MAPTYPE_ATTACH))
    return pointerTo(ItemSearches::Attachment, Item);
  ItemSearches S = storage(Item);
  // The pointer itself lives at Base; its storage is made present too.
  if (has(Type, OMP_TGT_MAPTYPE_PTR_AND_OBJ)) {
    S.HasPointer = true;
    S.Pointer = {addr(Item.Base), sizeof(void *)};
  }
  return S;
}

ItemSearches exitSearches(const MapItem &Item) {
  if (has(Item.Type, OMP_TGT_MAPTYPE_LITERAL | OMP_TGT_MAPTYPE_PRIVATE |
                         OMP_TGT_MAPTYPE_ATTACH))
    return {};
  return storage(Item);
}

ItemSearches updateSearches(const MapItem &Item) {
  if (!has(Item.Type, OMP_TGT_MAPTYPE_NON_CONTIG))
    return storage(Item);
  ItemSearches S;
  S.K = hasDimensions(Item) ? ItemSearches::Pieces : ItemSearches::NoDimensions;
  return S;
}

LookupResult implicitExtends(LookupResult R, const MapItem &Item) {
  if (R.Status == LookupResult::Overlap &&
      has(Item.Type, OMP_TGT_MAPTYPE_IMPLICIT))
    R.Status = LookupResult::Contained;
  return R;
}

} // namespace

ItemSearches offload::searchesFor(Action A, const MapItem &Item) {
  switch (A) {
  case Action::Enter:
    return enterSearches(Item);
  case Action::Exit:
    return exitSearches(Item);
  case Action::Update:
    return updateSearches(Item);
  }
  return {};
}

bool offload::forEachSearch(const ExpandedList &L, Action A,
                            const std::function<bool(SearchRange)> &Fn) {
  for (int32_t I = 0; I < L.List.Count; ++I) {
    if (const ExpandedList *Sub = L.mapped(I)) {
      if (!forEachSearch(*Sub, A, Fn))
        return false;
      continue;
    }
    MapItem Item = L.List.item(I);
    ItemSearches S = searchesFor(A, Item);
    switch (S.K) {
    case ItemSearches::None:
    case ItemSearches::NoDimensions:
      break;
    case ItemSearches::Pieces:
      if (!forEachPiece(Item, [&](const MapItem &Piece) {
            return Fn({addr(Piece.Begin), static_cast<uint64_t>(Piece.Size)});
          }))
        return false;
      break;
    case ItemSearches::Storage:
    case ItemSearches::LambdaCapture:
    case ItemSearches::Attachment:
      if ((S.HasPointer && !Fn(S.Pointer)) || !Fn(S.Range))
        return false;
      break;
    }
  }
  return true;
}

LookupResult offload::lookupItem(LockedMappingTable &Table,
                                 const MapItem &Item) {
  return implicitExtends(Table->lookup(addr(Item.Begin), Item.Size), Item);
}

LookupResult offload::lookupItemIn(MapEntry &E, const MapItem &Item) {
  return implicitExtends(MappingTable::lookupIn(E, addr(Item.Begin), Item.Size),
                         Item);
}
