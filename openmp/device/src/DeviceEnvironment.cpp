//===- DeviceEnvironment.cpp - Per-image data a plugin fills in -----------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "DeviceEnvironment.h"

using namespace ompx;

/// Zero until a plugin writes it: device 0 of 0 devices, no indirect-call
/// table. Visible in the image's symbol table so the plugin can find it.
extern "C" {
OMPX_EXPORTED_GLOBAL DeviceEnvironmentTy __omp_rtl_device_environment = {};
}
