//===- MapList.h - A construct's map list and what step 3 needs -*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The types the mapping code passes between its steps (DataMapping.h): the
// list of maps as the compiler lays it out, its items, what a declare
// mapper collects, the entries a region's enter step found, its private
// copies. They depend on nothing of the runtime, so the planners, the
// transfers and the item searches can use them without including the
// entry points that drive them.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_LIBOMPTARGET_MAPPING_MAPLIST_H
#define OFFLOAD_LIBOMPTARGET_MAPPING_MAPLIST_H

#include "OffloadABI.h"
#include "mapping/InlineVector.h"
#include "mapping/MappingTable.h"

#include <cstdint>
#include <vector>

namespace offload {

/// When step 3 settles the entries after asynchronous copies.
enum class SettleWhen {
  /// Wait for the construct's queue now, then settle: the construct goes
  /// on with entries Ready (the enter step of a target region).
  Now,
  /// When the queue completes (a construct's last step): the entries stay
  /// unsettled until then, and other constructs that need them wait.
  AtCompletion,
};

/// One list item.
struct MapItem {
  void *Base;
  void *Begin;
  int64_t Size;
  int64_t Type;
  const void *Name;
  void *Mapper;
};

/// The arrays of one construct, as the compiler lays them out.
struct MapList {
  int32_t Count = 0;
  void **Bases = nullptr;
  void **Begins = nullptr;
  int64_t *Sizes = nullptr;
  int64_t *Types = nullptr;
  void **Names = nullptr;
  void **Mappers = nullptr;

  MapItem item(int32_t I) const {
    return {Bases[I],
            Begins[I],
            Sizes ? Sizes[I] : 0,
            Types ? Types[I] : 0,
            Names ? Names[I] : nullptr,
            Mappers ? Mappers[I] : nullptr};
  }
};

/// Components collected by a user-defined mapper (declare mapper) through
/// __tgt_push_mapper_component.
struct MapperComponents {
  std::vector<MapItem> Items;
};

/// The entry mapEnter found or made for each item of a region's list (when
/// it contains the item's start, null otherwise), and the table's
/// MappingTable::erasures() once it was done. While that count stays the
/// same the entries are still there, and kernelArguments uses them instead
/// of searching the table again.
struct EnteredEntries {
  InlineVector<MapEntry *, 32> Entries;
  uint64_t Erasures = 0;
  bool Valid = false;
};

/// Device memory made for private/firstprivate list items of one launch.
struct PrivateAllocations {
  std::vector<void *> Pointers;
};

} // namespace offload

#endif // OFFLOAD_LIBOMPTARGET_MAPPING_MAPLIST_H
