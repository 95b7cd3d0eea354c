//===- PrivateCopies.h - A launch's private and firstprivate copies -------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_LIBOMPTARGET_MAPPING_PRIVATECOPIES_H
#define OFFLOAD_LIBOMPTARGET_MAPPING_PRIVATECOPIES_H

#include "images/Runtime.h"
#include "mapping/AsyncContext.h"
#include "mapping/MapList.h"

namespace offload {

/// A fresh device copy of the private item \p Item for one launch (with the
/// host's bytes for firstprivate, copied on \p Ctx: firstprivate values
/// stay valid until a target task completes), recorded in \p Privates. No other
/// construct can see it, so it is made with \p Table's lock released:
/// entries found before may be gone when this returns. Null, after
/// printing why, on failure.
void *makePrivateCopy(Device &D, LockedMappingTable &Table, AsyncContext &Ctx,
                      const ident_t *Loc, const MapItem &Item,
                      PrivateAllocations &Privates);

/// For a by-reference capture \p Capture of the lambda \p Lambda passed by
/// value (firstprivate, copied to \p LambdaCopy): points its field in the
/// copy to the device copy of the captured variable, as upstream attaches
/// it. A variable that is not mapped keeps its host address (shared
/// memory). Returns false after printing why the copy failed.
bool attachCaptureInCopy(Device &D, LockedMappingTable &Table,
                         AsyncContext &Ctx, const ident_t *Loc,
                         const MapItem &Capture, const MapItem &Lambda,
                         void *LambdaCopy);

} // namespace offload

#endif // OFFLOAD_LIBOMPTARGET_MAPPING_PRIVATECOPIES_H
