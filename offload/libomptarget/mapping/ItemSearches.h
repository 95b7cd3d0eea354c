//===- ItemSearches.h - The ranges a construct searches the table for -----===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Step 1 of a construct (DataMapping.cpp) waits until nothing that step 2
// will search the table for is unsettled. Both steps take the ranges from
// searchesFor: the planners decide how to treat an item by its kind here and
// search only the ranges it gives, and step 1 walks the same ranges
// (forEachSearch), so the two cannot disagree about what a list looks at.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_LIBOMPTARGET_MAPPING_ITEMSEARCHES_H
#define OFFLOAD_LIBOMPTARGET_MAPPING_ITEMSEARCHES_H

#include "mapping/MapItems.h"

#include <cstdint>

namespace offload {

/// What a construct does to the table.
enum class Action { Enter, Exit, Update };

/// A host range a planner searches the table for.
struct SearchRange {
  uintptr_t Begin = 0;
  uint64_t Size = 0;
};

/// How the planner of an action treats one item, decided by its map type
/// alone, and the ranges it searches the table for on the item's behalf.
struct ItemSearches {
  enum Kind : uint8_t {
    /// No device storage of its own (private, literal; attach maps on
    /// exit): nothing is searched.
    None,
    /// The item's storage, Range, is searched; with ptr_and_obj also that
    /// of the pointer it is reached through, Pointer.
    Storage,
    /// A lambda's by-reference capture, mapped as a member of the lambda
    /// (enter): once the list is mapped, the pointer at Pointer is pointed
    /// to the pointee at Range (size 0) when both are mapped.
    LambdaCapture,
    /// An attach map (enter): as LambdaCapture, after the captures.
    Attachment,
    /// A non-contiguous `target update` item: each piece forEachPiece gives.
    Pieces,
    /// A non-contiguous item without dimensions: step 2 refuses it.
    NoDimensions,
  };
  Kind K = None;
  bool HasPointer = false;
  SearchRange Pointer;
  SearchRange Range;
};

namespace detail {
inline ItemSearches storage(const MapItem &Item) {
  ItemSearches S;
  S.K = ItemSearches::Storage;
  S.Range = {addr(Item.Begin), static_cast<uint64_t>(Item.Size)};
  return S;
}

/// The pointer stored at the item's base and the pointee at its begin.
inline ItemSearches pointerTo(ItemSearches::Kind K, const MapItem &Item) {
  ItemSearches S;
  S.K = K;
  S.HasPointer = true;
  S.Pointer = {addr(Item.Base), sizeof(void *)};
  S.Range = {addr(Item.Begin), 0};
  return S;
}

inline ItemSearches enterSearches(const MapItem &Item) {
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

inline ItemSearches exitSearches(const MapItem &Item) {
  if (has(Item.Type, OMP_TGT_MAPTYPE_LITERAL | OMP_TGT_MAPTYPE_PRIVATE |
                         OMP_TGT_MAPTYPE_ATTACH))
    return {};
  return storage(Item);
}

inline ItemSearches updateSearches(const MapItem &Item) {
  if (!has(Item.Type, OMP_TGT_MAPTYPE_NON_CONTIG))
    return storage(Item);
  ItemSearches S;
  S.K = hasDimensions(Item) ? ItemSearches::Pieces : ItemSearches::NoDimensions;
  return S;
}

inline LookupResult implicitExtends(LookupResult R, const MapItem &Item) {
  if (R.Status == LookupResult::Overlap &&
      has(Item.Type, OMP_TGT_MAPTYPE_IMPLICIT))
    R.Status = LookupResult::Contained;
  return R;
}

} // namespace detail

/// The searches of \p A's planner for \p Item (of a list or of a declare
/// mapper's list; the mapper item itself is never searched). Inline: the
/// planners ask it for every item, on the path of every construct.
inline ItemSearches searchesFor(Action A, const MapItem &Item) {
  switch (A) {
  case Action::Enter:
    return detail::enterSearches(Item);
  case Action::Exit:
    return detail::exitSearches(Item);
  case Action::Update:
    return detail::updateSearches(Item);
  }
  return {};
}

/// \p Item with \p R as its range: the item a planner compares with the
/// table (and names in messages) for the search of \p R.
inline MapItem itemOver(const MapItem &Item, SearchRange R) {
  MapItem Over = Item;
  Over.Begin = reinterpret_cast<void *>(R.Begin);
  Over.Size = static_cast<int64_t>(R.Size);
  return Over;
}

/// Calls \p Fn for every range that applying \p A to \p L searches, the
/// lists of its declare mappers included. Stops, returning false, when
/// \p Fn does.
bool forEachSearch(const ExpandedList &L, Action A,
                   const std::function<bool(SearchRange)> &Fn);

/// The table's entry for \p Item. An implicit item (a variable the region
/// uses, mapped whole by default) that extends an entry is found in that
/// entry, as upstream does: the construct uses what an enclosing construct
/// mapped of it (`target data map(from: s.y)` around a region using `s`),
/// and counts a reference on it, instead of failing as an explicit
/// extension does.
inline LookupResult lookupItem(LockedMappingTable &Table, const MapItem &Item) {
  return detail::implicitExtends(Table->lookup(addr(Item.Begin), Item.Size),
                                 Item);
}
/// lookupItem, given the entry that contains the item's start.
inline LookupResult lookupItemIn(MapEntry &E, const MapItem &Item) {
  return detail::implicitExtends(
      MappingTable::lookupIn(E, addr(Item.Begin), Item.Size), Item);
}

} // namespace offload

#endif // OFFLOAD_LIBOMPTARGET_MAPPING_ITEMSEARCHES_H
