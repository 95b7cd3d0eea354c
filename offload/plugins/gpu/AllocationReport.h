//===- AllocationReport.h - Say why device memory was refused ---*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// GenericDevice::allocate answers with a pointer or null, so the driver's
// reason for a refusal (out of memory, a context already broken by an
// earlier fault) cannot travel back in a Status. libomptarget then reports
// the device, the size and the variable being mapped; the plugin prints the
// driver's side just before, so together the two lines say what failed and
// why. Upstream's plugins print the driver's error in the same situation.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_PLUGINS_GPU_ALLOCATIONREPORT_H
#define OFFLOAD_PLUGINS_GPU_ALLOCATIONREPORT_H

#include "PluginInterface.h"

#include <cstdio>

namespace offload {
namespace plugin {

/// Prints "omptarget error: <message of Failure>" on stderr.
inline void reportAllocationFailure(const Status &Failure) {
  std::fprintf(stderr, "omptarget error: %s\n", Failure.message().c_str());
}

} // namespace plugin
} // namespace offload

#endif // OFFLOAD_PLUGINS_GPU_ALLOCATIONREPORT_H
