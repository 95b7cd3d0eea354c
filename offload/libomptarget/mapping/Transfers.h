//===- Transfers.h - The copies a construct plans, made unlocked ----------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What step 2 of a construct (DataMapping.cpp) decides to copy and which
// entries it made unsettled, and step 3, which makes the copies with the
// table's lock released and then settles those entries.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_LIBOMPTARGET_MAPPING_TRANSFERS_H
#define OFFLOAD_LIBOMPTARGET_MAPPING_TRANSFERS_H

#include "images/Runtime.h"
#include "mapping/AsyncContext.h"
#include "mapping/MapList.h"
#include "mapping/InlineVector.h"
#include "ompt/OMPT.h"

#include <vector>

namespace offload {

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
  /// The construct's queue: every copy, and the pointer attachments of
  /// step 2, go on it.
  AsyncContext *Context = nullptr;
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

/// Step 2: lists a copy of \p Whole (the part of it \p E holds) between
/// the host and \p E's device copy, pinning \p E unless this construct
/// already owns its state.
void planCopy(Transfers &T, MapEntry &E, const MapItem &Whole, bool ToDevice);

/// Step 3: queues the copies on T.Context and settles the entries (see
/// SettleWhen; on a synchronous device, at once). \p Held, when settling
/// may be deferred, owns \p T. Returns false when a copy failed (after
/// saying why); the entries are settled either way, so no other construct
/// waits for them forever.
bool finish(Device &D, LockedMappingTable &Table, Transfers &T, SettleWhen When,
            const std::shared_ptr<Transfers> &Held);

} // namespace offload

#endif // OFFLOAD_LIBOMPTARGET_MAPPING_TRANSFERS_H
