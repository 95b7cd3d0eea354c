//===- MapItems.h - A construct's map list as the planners read it --------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The map-type flags of one item, the lists its declare mappers produce and
// the contiguous pieces of a non-contiguous `target update` item: what every
// part of the data mapping needs to read a list the compiler passed.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_LIBOMPTARGET_MAPPING_MAPITEMS_H
#define OFFLOAD_LIBOMPTARGET_MAPPING_MAPITEMS_H

#include "mapping/MapList.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace offload {

inline bool has(int64_t Type, uint64_t Flag) {
  return static_cast<uint64_t>(Type) & Flag;
}

/// 0-based index of the struct a member belongs to, or -1.
inline int64_t parentIndex(int64_t Type) {
  return static_cast<int64_t>(
             offload_member_of_index(static_cast<uint64_t>(Type))) -
         1;
}

inline uintptr_t addr(const void *P) { return reinterpret_cast<uintptr_t>(P); }

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

/// Fills \p L (fresh) with \p Maps and the expansions of its mappers.
void expandInto(ExpandedList &L, const MapList &Maps);

/// Whether a non-contiguous item describes at least one dimension.
inline bool hasDimensions(const MapItem &Item) {
  return Item.Begin && Item.Size >= 1;
}

/// Calls \p Fn for each contiguous piece (an item of its own) of a
/// non-contiguous `target update` item (a strided section, or several
/// dimensions of which not all are whole). The compiler passes the array's
/// base as the base, a `__tgt_target_non_contig` per dimension (outermost
/// first, the last one describing the element) as the begin, and the number
/// of dimensions as the size; element `i` of dimension `d` is at byte
/// `(Offset_d + i) * Stride_d` from the base, summed over the dimensions.
/// Stops at the first piece for which \p Fn returns false, and returns
/// false then.
bool forEachPiece(const MapItem &Item,
                  const std::function<bool(const MapItem &)> &Fn);

} // namespace offload

#endif // OFFLOAD_LIBOMPTARGET_MAPPING_MAPITEMS_H
