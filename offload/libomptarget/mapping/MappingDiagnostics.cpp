//===- MappingDiagnostics.cpp - What the data mapping tells the user ------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mapping/MappingDiagnostics.h"
#include "diagnostics/Diagnostics.h"
#include "mapping/MapItems.h"

#include <cinttypes>

using namespace offload;

void offload::reportLookup(int DeviceId, const MapEntry &E, uintptr_t Begin,
                           int64_t Size) {
  if (!(infoFlags() & InfoMappingExists))
    return;
  std::string Dyn = E.Permanent ? "INF" : std::to_string(E.DynRefCount);
  infoMessage(DeviceId,
              "Mapping exists with HstPtrBegin=0x%016" PRIxPTR
              ", TgtPtrBegin=0x%016" PRIxPTR ", Size=%" PRId64
              ", DynRefCount=%s (update suppressed), HoldRefCount=%lu",
              Begin, E.translate(Begin), Size, Dyn.c_str(),
              static_cast<unsigned long>(E.HoldRefCount));
}

std::string offload::describeItem(const ident_t *Loc, const MapItem &Item) {
  std::string Text = "'" + mapName(Item.Name) + "'";
  std::string Declared = mapLocation(Item.Name);
  if (Declared != UnknownLocation)
    Text += " (declared at " + Declared + ")";
  return Text + " at " + sourceLocation(Loc);
}

namespace {

/// ", for <describeItem>" when the compiler recorded anything to name (-g),
/// otherwise nothing.
std::string forItem(const ident_t *Loc, const MapItem &Item) {
  if (mapName(Item.Name) == "unknown" && sourceLocation(Loc) == UnknownLocation)
    return "";
  return ", for " + describeItem(Loc, Item);
}

std::string mapTypeName(int64_t Type) {
  bool To = has(Type, OMP_TGT_MAPTYPE_TO),
       From = has(Type, OMP_TGT_MAPTYPE_FROM);
  if (has(Type, OMP_TGT_MAPTYPE_LITERAL))
    return "firstprivate";
  if (has(Type, OMP_TGT_MAPTYPE_PRIVATE))
    return To ? "firstprivate" : "private";
  if (has(Type, OMP_TGT_MAPTYPE_ATTACH))
    return "attach";
  if (has(Type, OMP_TGT_MAPTYPE_DELETE))
    return "delete";
  return To && From ? "tofrom" : To ? "to" : From ? "from" : "alloc";
}

} // namespace

// The first line of each report is upstream's wording (tests and scripts
// look for it); what it names is appended.
void offload::reportOverlap(Device &D, LockedMappingTable &Table,
                            const ident_t *Loc, const MapItem &Item,
                            const MapEntry &E) {
  userMessage("explicit extension not allowed: host address specified is "
              "0x%016" PRIxPTR " (%" PRId64 " bytes), but device allocation "
              "maps to host at 0x%016" PRIxPTR " (%" PRIu64 " bytes)%s",
              addr(Item.Begin), Item.Size, E.HstBegin, E.size(),
              forItem(Loc, Item).c_str());
  // A `present` item is also reported as absent, as upstream does: the
  // range it names is not wholly on the device.
  if (has(Item.Type, OMP_TGT_MAPTYPE_PRESENT)) {
    reportNotPresent(D, Table, Loc, Item, PresentCheck::Map);
    return;
  }
  errorMessage("Call to getTargetPointer returned null pointer (device "
               "failure or illegal mapping).");
  if (infoFlags() & InfoDumpTable)
    D.dumpMappingTable(Table, "at the failure");
}

void offload::reportNotPresent(Device &D, LockedMappingTable &Table,
                               const ident_t *Loc, const MapItem &Item,
                               PresentCheck Kind) {
  userMessage("device mapping required by 'present' %s modifier does not "
              "exist for host address 0x%016" PRIxPTR " (%" PRId64 " bytes)%s",
              Kind == PresentCheck::Motion ? "motion" : "map type",
              addr(Item.Begin), Item.Size, forItem(Loc, Item).c_str());
  if (Kind == PresentCheck::Map)
    errorMessage("Call to getTargetPointer returned null pointer ('present' "
                 "map type modifier).");
  if (infoFlags() & InfoDumpTable)
    D.dumpMappingTable(Table, "at the failure");
}

void offload::printConstructMaps(Device &D, const char *Construct,
                                 const ident_t *Loc, const MapList &Maps) {
  // Worded as upstream's runtime, down to the trailing space of each item.
  infoMessage(D.Id, "%s at %s with %d arguments:", Construct,
              sourceLocation(Loc).c_str(), Maps.Count);
  for (int32_t I = 0; I < Maps.Count; ++I) {
    MapItem Item = Maps.item(I);
    infoMessage(D.Id, "%s(%s)[%" PRId64 "] %s", mapTypeName(Item.Type).c_str(),
                mapName(Item.Name).c_str(), Item.Size,
                has(Item.Type, OMP_TGT_MAPTYPE_IMPLICIT) ? "(implicit)" : "");
  }
}
