//===- PrivateCopies.cpp - A launch's private and firstprivate copies -----===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mapping/PrivateCopies.h"
#include "diagnostics/Diagnostics.h"
#include "mapping/MapItems.h"
#include "mapping/MappingDiagnostics.h"

#include <algorithm>
#include <cinttypes>

using namespace offload;

void *offload::makePrivateCopy(Device &D, LockedMappingTable &Table,
                               AsyncContext &Ctx, const ident_t *Loc,
                               const MapItem &Item,
                               PrivateAllocations &Privates) {
  void *Copy = nullptr;
  bool Copied = true;
  Table.unlocked([&] {
    Copy = D.allocate(static_cast<uint64_t>(std::max<int64_t>(Item.Size, 1)),
                      plugin::AllocKind::Device);
    if (!Copy || !has(Item.Type, OMP_TGT_MAPTYPE_TO) || Item.Size <= 0)
      return;
    if (plugin::Status S =
            D.plugin().dataSubmit(Copy, Item.Begin, Item.Size, Ctx.queue())) {
      errorMessage("firstprivate copy of %s failed: %s",
                   describeItem(Loc, Item).c_str(), S.message().c_str());
      Copied = false;
    }
  });
  if (!Copy) {
    errorMessage("device %d cannot allocate %" PRId64
                 " bytes for private copy of %s",
                 D.Id, Item.Size, describeItem(Loc, Item).c_str());
    return nullptr;
  }
  // Freed with the launch's other copies, also when the copy failed.
  Privates.Pointers.push_back(Copy);
  return Copied ? Copy : nullptr;
}

bool offload::attachCaptureInCopy(Device &D, LockedMappingTable &Table,
                                  AsyncContext &Ctx, const ident_t *Loc,
                                  const MapItem &Capture, const MapItem &Lambda,
                                  void *LambdaCopy) {
  LookupResult Pointee = Table->lookup(addr(Capture.Begin), 0);
  uintptr_t Field = addr(Capture.Base) - addr(Lambda.Begin);
  if (Pointee.Status != LookupResult::Contained ||
      Field + sizeof(void *) > static_cast<uint64_t>(Lambda.Size))
    return true;
  uintptr_t DeviceValue = Pointee.Entry->translate(addr(Capture.Begin));
  void *Slot = static_cast<char *>(LambdaCopy) + Field;
  if (plugin::Status S = D.plugin().dataSubmit(
          Slot, Ctx.stage(&DeviceValue, sizeof(DeviceValue)),
          sizeof(DeviceValue), Ctx.queue())) {
    errorMessage("attaching a capture of %s failed: %s",
                 describeItem(Loc, Lambda).c_str(), S.message().c_str());
    return false;
  }
  return true;
}
