//===- ItemSearches.cpp - The ranges a construct searches the table for ---===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mapping/ItemSearches.h"

using namespace offload;

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
