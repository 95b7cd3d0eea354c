//===- Policy.cpp - Which device a construct runs on ---------------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "api/Policy.h"
#include "api/LibompABI.h"
#include "diagnostics/Diagnostics.h"

using namespace offload;

OffloadPolicy offload::offloadPolicy() {
  int Value = __kmpc_get_target_offload();
  if (Value <= 0)
    return OffloadPolicy::Disabled;
  return Value >= 2 ? OffloadPolicy::Mandatory : OffloadPolicy::Default;
}

int32_t offload::visibleDevices() {
  if (offloadPolicy() == OffloadPolicy::Disabled)
    return 0;
  return Runtime::get().numDevices();
}

Device *offload::selectDevice(int64_t RequestedId, const ident_t *Loc,
                              const char *Construct) {
  OffloadPolicy Policy = offloadPolicy();
  if (Policy == OffloadPolicy::Disabled)
    return nullptr;
  Runtime &RT = Runtime::get();
  int32_t NumDevices = RT.numDevices();
  int64_t Id = RequestedId == -1 ? omp_get_default_device() : RequestedId;
  // The initial device number (omp_get_initial_device) means the host.
  if (Id == NumDevices && RequestedId != -1)
    return nullptr;
  Device *D = RT.device(Id);
  if (D && D->prepare())
    return D;
  if (Policy == OffloadPolicy::Mandatory) {
    if (!D)
      errorMessage("%s at %s: device %lld is not available (%d device(s))",
                   Construct, sourceLocation(Loc).c_str(),
                   static_cast<long long>(Id), NumDevices);
    targetConstructFailed(Loc);
  }
  OFFLOAD_DEBUG("%s at %s runs on the host: device %lld unavailable", Construct,
                sourceLocation(Loc).c_str(), static_cast<long long>(Id));
  return nullptr;
}

void offload::targetConstructFailed(const ident_t *Loc) {
  // Worded and laid out as upstream's runtime does.
  std::string Where = sourceLocation(Loc);
  bool Known = Where != UnknownLocation;
  if (!Known)
    errorMessage("Source location information not present. Compile with -g "
                 "or -gline-tables-only.");
  // The policy named is the resolved one, as upstream's runtime words it:
  // OMP_TARGET_OFFLOAD=DEFAULT becomes mandatory once a device exists (and
  // disabled when none does, when no construct can fail).
  bool Resolved = offloadPolicy() == OffloadPolicy::Mandatory ||
                  Runtime::get().numDevices() > 0;
  fatalError(Known ? Where.c_str() : nullptr,
             "failure of target construct while offloading is %s",
             Resolved ? "mandatory" : "default");
}
