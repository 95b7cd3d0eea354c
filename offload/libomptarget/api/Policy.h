//===- Policy.h - Which device a construct runs on, and failure handling -===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// OMP_TARGET_OFFLOAD is parsed by libomp (its ICV, __kmpc_get_target_offload)
// and OMP_DEFAULT_DEVICE too (omp_get_default_device); this runtime asks
// libomp, as upstream does, so both libraries always agree.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_LIBOMPTARGET_POLICY_H
#define OFFLOAD_LIBOMPTARGET_POLICY_H

#include "images/Runtime.h"

namespace offload {

enum class OffloadPolicy { Disabled = 0, Default = 1, Mandatory = 2 };

OffloadPolicy offloadPolicy();

/// The number of devices programs see: zero when offloading is disabled
/// (then the host is the only device), otherwise every device found.
int32_t visibleDevices();

/// The device a construct with device clause \p RequestedId (-1: none) runs
/// on, or null when it runs on the host. Under OMP_TARGET_OFFLOAD=mandatory
/// a construct that cannot run on a device is a fatal error.
Device *selectDevice(int64_t RequestedId, const ident_t *Loc,
                     const char *Construct);

/// A target construct failed on its device: fatal, as in upstream.
[[noreturn]] void targetConstructFailed(const ident_t *Loc);

} // namespace offload

#endif // OFFLOAD_LIBOMPTARGET_POLICY_H
