//===- DataMapping.cpp - OpenMP map clauses against a device's table -----===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A construct's map list is applied in three steps, so that the copies of
// two host threads mapping different data run at the same time:
//
// 1. With the device's table locked, wait until no entry the list will
//    look up is unsettled (being created, being removed, or, for an exit,
//    being copied by another construct). Nothing the list needs can change
//    from then on, because the lock is held through step 2. The ranges
//    waited for are those step 2's planner searches, from the same
//    searchesFor (ItemSearches.h).
// 2. Apply the mapping rules to the table (Planners.h): reference counts,
//    new entries, pointer attachment. New entries are inserted as Creating
//    and entries to remove are marked Releasing: other constructs that need
//    them wait (step 1), so they never see one half filled. Existing
//    entries that must be copied to or from are pinned. The copies are only
//    listed.
// 3. Release the lock, copy, take it again (Transfers.h); then put back the
//    attached pointers the copies overwrote, publish the new entries
//    (Ready), unpin, remove the released entries and wake the waiters.
//
// A construct waits only in step 1, while it owns no unsettled entry, and
// finishes the entries it owns without waiting for anything: two
// constructs cannot wait for each other.
//
//===----------------------------------------------------------------------===//

#include "mapping/DataMapping.h"
#include "mapping/Planners.h"
#include "ompt/OMPT.h"

using namespace offload;

namespace {

/// Step 1: returns once no range that applying \p A to \p L searches (the
/// planner's own searches, ItemSearches.h) is unsettled.
void waitUntilSettled(LockedMappingTable &Table, const ExpandedList &L,
                      Action A) {
  bool ToRemove = A == Action::Exit;
  for (;;) {
    // Nothing is unsettled: no need to look anything up.
    if (!Table->anyUnsettled())
      return;
    bool Settled = forEachSearch(L, A, [&](SearchRange R) {
      LookupResult Found = Table->lookup(R.Begin, R.Size);
      return !Found.Entry || !Found.Entry->unsettled(ToRemove);
    });
    if (Settled)
      return;
    waitForSettlement(Table);
  }
}

/// Step 2 of \p A: the planner whose searches step 1 waited for.
bool plan(Action A, Device &D, LockedMappingTable &Table, Transfers &T,
          const ident_t *Loc, const ExpandedList &L) {
  switch (A) {
  case Action::Enter:
    return planEnter(D, Table, T, Loc, L);
  case Action::Exit:
    return planExit(D, Table, T, Loc, L);
  case Action::Update:
    return planUpdate(D, Table, T, Loc, L);
  }
  return false;
}

/// The three steps of the file comment for one construct's list, with
/// its copies queued on \p Ctx and its entries settled as \p When says
/// (Transfers.h).
bool apply(Device &D, const ident_t *Loc, const MapList &Maps, Action A,
           AsyncContext &Ctx, SettleWhen When,
           EnteredEntries *Entered = nullptr) {
  // An empty list (a region without maps) neither waits nor changes
  // anything.
  if (Maps.Count == 0)
    return true;
  ExpandedList L;
  expandInto(L, Maps);
  // Settled later, its Transfers must outlive this call.
  std::shared_ptr<Transfers> Held;
  Transfers Local;
  if (Ctx.asynchronous())
    Held = std::make_shared<Transfers>();
  Transfers &T = Held ? *Held : Local;
  LockedMappingTable Table = D.Mappings.lock();
  waitUntilSettled(Table, L, A);
  T.DeviceId = D.Id;
  T.Context = &Ctx;
  if (Entered) {
    Entered->Entries.assign(Maps.Count, nullptr);
    T.Entered = Entered;
    T.Top = &L;
  }
  bool Planned;
  {
    ompt::DeferAllocations Defer(T.Allocations);
    Planned = plan(A, D, Table, T, Loc, L);
  }
  // What the plan made unsettled (with the lock held throughout), until
  // finish settles it.
  Table->addUnsettled(T.unsettled());
  if (!Planned)
    T.Copies.clear(); // The construct fails; settle what it touched.
  T.Entered = nullptr; // Not needed once planned (and it may not outlive).
  T.Top = nullptr;
  bool Finished = finish(D, Table, T, When, Held);
  if (Entered) {
    Entered->Erasures = Table->erasures();
    Entered->Valid = Planned && Finished;
  }
  return Planned && Finished;
}

} // namespace

bool offload::mapEnter(Device &D, const ident_t *Loc, const MapList &Maps,
                       AsyncContext &Ctx, SettleWhen When,
                       EnteredEntries *Entered) {
  return apply(D, Loc, Maps, Action::Enter, Ctx, When, Entered);
}

bool offload::mapExit(Device &D, const ident_t *Loc, const MapList &Maps,
                      AsyncContext &Ctx) {
  return apply(D, Loc, Maps, Action::Exit, Ctx, SettleWhen::AtCompletion);
}

bool offload::mapUpdate(Device &D, const ident_t *Loc, const MapList &Maps,
                        AsyncContext &Ctx) {
  return apply(D, Loc, Maps, Action::Update, Ctx, SettleWhen::AtCompletion);
}

bool offload::mapEnter(Device &D, const ident_t *Loc, const MapList &Maps,
                       EnteredEntries *Entered) {
  AsyncContext Ctx(D, Loc, "target enter data");
  bool Ok = mapEnter(D, Loc, Maps, Ctx, SettleWhen::AtCompletion, Entered);
  return Ctx.synchronize() && Ok;
}

bool offload::mapExit(Device &D, const ident_t *Loc, const MapList &Maps) {
  AsyncContext Ctx(D, Loc, "target exit data");
  bool Ok = mapExit(D, Loc, Maps, Ctx);
  return Ctx.synchronize() && Ok;
}

bool offload::mapUpdate(Device &D, const ident_t *Loc, const MapList &Maps) {
  AsyncContext Ctx(D, Loc, "target update");
  bool Ok = mapUpdate(D, Loc, Maps, Ctx);
  return Ctx.synchronize() && Ok;
}
