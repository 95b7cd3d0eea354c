//===- DataMapping.h - OpenMP map clauses against a device's table -------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The map-entering, map-exiting and update actions of OpenMP 5.2 applied to
// the list of maps the compiler passes (base, begin, size, type, name and
// mapper of every list item), plus the kernel arguments of a target region.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_LIBOMPTARGET_DATAMAPPING_H
#define OFFLOAD_LIBOMPTARGET_DATAMAPPING_H

#include "images/Runtime.h"
#include "mapping/AsyncContext.h"
#include "mapping/MapList.h"

#include <cstdint>
#include <vector>

namespace offload {

/// Each returns true on success; on failure the reason has been printed.
/// \p Loc is the construct's source location for messages. Each takes the
/// device's table lock itself, and releases it while it copies data: a list
/// is applied atomically with respect to other host threads' lists, but
/// their copies run at the same time (DataMapping.cpp says how).
/// \p Entered, when given, receives the entries found for the list's items
/// (for kernelArguments).
/// The copies go on \p Ctx, the construct's queue. mapExit and mapUpdate
/// settle what they changed once \p Ctx completes (they are the last step
/// of their construct); mapEnter as \p When says (Transfers.h).
bool mapEnter(Device &D, const ident_t *Loc, const MapList &Maps,
              AsyncContext &Ctx, SettleWhen When,
              EnteredEntries *Entered = nullptr);
bool mapExit(Device &D, const ident_t *Loc, const MapList &Maps,
             AsyncContext &Ctx);
bool mapUpdate(Device &D, const ident_t *Loc, const MapList &Maps,
               AsyncContext &Ctx);
/// The same, each waiting for its own copies before it returns.
bool mapEnter(Device &D, const ident_t *Loc, const MapList &Maps,
              EnteredEntries *Entered = nullptr);
bool mapExit(Device &D, const ident_t *Loc, const MapList &Maps);
bool mapUpdate(Device &D, const ident_t *Loc, const MapList &Maps);

/// The kernel arguments of a target region: one per TARGET_PARAM item, in
/// order; private copies are queued on \p Ctx. Must run after mapEnter on the
/// same list (\p Entered: what that mapEnter found, used only while no entry
/// has been erased since). Takes the table lock, and releases it while it makes
/// private copies.
bool kernelArguments(Device &D, const ident_t *Loc, const MapList &Maps,
                     AsyncContext &Ctx, std::vector<void *> &Args,
                     PrivateAllocations &Privates,
                     const EnteredEntries *Entered = nullptr);
/// The same, waiting for the private copies before it returns.
bool kernelArguments(Device &D, const ident_t *Loc, const MapList &Maps,
                     std::vector<void *> &Args, PrivateAllocations &Privates,
                     const EnteredEntries *Entered = nullptr);

} // namespace offload

#endif // OFFLOAD_LIBOMPTARGET_DATAMAPPING_H
