//===- Planners.h - Step 2 of entering, exiting and updating --------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Each planner applies OpenMP's rules for one action to the table, with its
// lock held and after step 1 (DataMapping.cpp): reference counts, new and
// released entries, pointer attachment. The copies it decides on are only
// listed in the Transfers, for step 3. Each searches the table only for the
// ranges searchesFor (ItemSearches.h) gives for its action.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_LIBOMPTARGET_MAPPING_PLANNERS_H
#define OFFLOAD_LIBOMPTARGET_MAPPING_PLANNERS_H

#include "mapping/ItemSearches.h"
#include "mapping/Transfers.h"

namespace offload {

/// Each returns false after printing why the list cannot be applied.
bool planEnter(Device &D, LockedMappingTable &Table, Transfers &T,
               const ident_t *Loc, const ExpandedList &L);
bool planExit(Device &D, LockedMappingTable &Table, Transfers &T,
              const ident_t *Loc, const ExpandedList &L);
bool planUpdate(Device &D, LockedMappingTable &Table, Transfers &T,
                const ident_t *Loc, const ExpandedList &L);

} // namespace offload

#endif // OFFLOAD_LIBOMPTARGET_MAPPING_PLANNERS_H
