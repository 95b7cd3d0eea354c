//===- MappingDiagnostics.h - What the data mapping tells the user --------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The errors of a map list that breaks OpenMP's rules and the
// LIBOMPTARGET_INFO lines shared by several parts of the data mapping, worded
// as upstream's runtime words them (tests and scripts look for them).
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_LIBOMPTARGET_MAPPING_MAPPINGDIAGNOSTICS_H
#define OFFLOAD_LIBOMPTARGET_MAPPING_MAPPINGDIAGNOSTICS_H

#include "images/Runtime.h"
#include "mapping/MapList.h"

#include <string>

namespace offload {

/// Upstream's line for a search of the table that leaves the counts alone
/// (a launch's arguments, each piece of `target update`), with the counts
/// as they stand.
void reportLookup(int DeviceId, const MapEntry &E, uintptr_t Begin,
                  int64_t Size);

/// "'name' (declared at file:line:col) at file:line:col" with whatever of
/// it the compiler recorded (names and locations need -g).
std::string describeItem(const ident_t *Loc, const MapItem &Item);

/// Which clause required the data to be present.
enum class PresentCheck { Map, Unmap, Motion };

/// A `present` item whose storage is not on the device.
void reportNotPresent(Device &D, LockedMappingTable &Table, const ident_t *Loc,
                      const MapItem &Item, PresentCheck Kind);

/// An item that extends the existing entry \p E.
void reportOverlap(Device &D, LockedMappingTable &Table, const ident_t *Loc,
                   const MapItem &Item, const MapEntry &E);

/// Prints "<Construct> at <loc> with N arguments:" and one line per map
/// (LIBOMPTARGET_INFO bit 0x01).
void printConstructMaps(Device &D, const char *Construct, const ident_t *Loc,
                        const MapList &Maps);

} // namespace offload

#endif // OFFLOAD_LIBOMPTARGET_MAPPING_MAPPINGDIAGNOSTICS_H
