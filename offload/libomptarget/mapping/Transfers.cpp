//===- Transfers.cpp - The copies a construct plans, made unlocked --------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mapping/Transfers.h"
#include "diagnostics/Diagnostics.h"
#include "diagnostics/Profiler.h"
#include "mapping/MapItems.h"

#include <algorithm>
#include <cinttypes>
#include <cstring>

using namespace offload;

namespace {

/// After a copy of \p Item's bytes, puts back the attached pointers inside
/// it: their device values on the device (queued after the copy), their
/// host values on the host (once the copy has completed).
bool restoreShadows(Device &D, LockedMappingTable &, AsyncContext &Ctx,
                    const MapEntry &E, const MapItem &Item, bool OnDevice) {
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
            Ctx.stage(&Shadow.DeviceValue, sizeof(void *)), sizeof(void *),
            Ctx.queue())) {
      errorMessage(
          "restoring the attached pointer at host address 0x%016" PRIxPTR
          " on device %d failed: %s",
          Shadow.HostAddress, D.Id, S.message().c_str());
      return false;
    }
  }
  return true;
}

/// Step 3's copy, without the table's lock.
bool transfer(Device &D, AsyncContext &Ctx, const Transfers::Copy &C) {
  const MapItem &Item = C.Item;
  if (C.ToDevice) {
    TraceScope Trace("data submit",
                     [&] { return std::to_string(Item.Size) + " bytes"; });
    ompt::DataOpScope Op(ompt::DataTransferToDevice, Item.Begin, -1,
                         C.DeviceAddress, D.Id, Item.Size);
    if (plugin::Status S = D.plugin().dataSubmit(C.DeviceAddress, Item.Begin,
                                                 Item.Size, Ctx.queue())) {
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
                                                 Item.Size, Ctx.queue())) {
    errorMessage("copying %s from device %d failed: %s",
                 mapName(Item.Name).c_str(), D.Id, S.message().c_str());
    return false;
  }
  return true;
}

} // namespace

void offload::planCopy(Transfers &T, MapEntry &E, const MapItem &Whole,
                       bool ToDevice) {
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

namespace {

/// Step 3's copies, made without the table's lock, then the device values
/// of the attached pointers they overwrote.
bool queueCopies(Device &D, LockedMappingTable &Table, Transfers &T) {
  AsyncContext &Ctx = *T.Context;
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
        if (!(Ok = transfer(D, Ctx, C)))
          break;
      }
      // Those of items without a copy after the last copy, and all of them
      // when a copy failed: each allocation happened.
      ReportAllocations(T.Allocations.size());
    });
  for (const Transfers::Copy &C : T.Copies)
    if (C.ToDevice)
      Ok = Ok && restoreShadows(D, Table, Ctx, *C.Entry, C.Item, true);
  return Ok;
}

/// Step 3 once the copies have completed: the host values of attached
/// pointers, the entries' states, and the removals with their device
/// memory.
void settle(Device &D, LockedMappingTable &Table, Transfers &T) {
  for (const Transfers::Copy &C : T.Copies)
    if (!C.ToDevice)
      (void)restoreShadows(D, Table, *T.Context, *C.Entry, C.Item, false);
  // A target region's exit may have marked for removal an entry its own
  // enter created.
  for (MapEntry *E : T.Created)
    if (E->State == MapState::Creating)
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
    notifySettled(Table);
  if (!Frees.empty())
    Table.unlocked([&] {
      for (void *P : Frees)
        (void)D.free(P, plugin::AllocKind::Device);
    });
}

} // namespace

bool offload::finish(Device &D, LockedMappingTable &Table, Transfers &T,
                     SettleWhen When, const std::shared_ptr<Transfers> &Held) {
  bool Ok = queueCopies(D, Table, T);
  AsyncContext &Ctx = *T.Context;
  if (Ctx.hasQueuedWork()) {
    if (When == SettleWhen::AtCompletion && Held) {
      Ctx.afterCompletion([&D, Held] {
        LockedMappingTable Again = D.Mappings.lock();
        settle(D, Again, *Held);
      });
      return Ok;
    }
    // Runs what earlier steps deferred too, which takes the lock.
    Table.unlocked([&] { Ok = Ctx.synchronize() && Ok; });
  }
  settle(D, Table, T);
  return Ok;
}
