//===- DeviceEnvironment.h - The image's device environment -----*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef OPENMP_DEVICE_SRC_DEVICEENVIRONMENT_H
#define OPENMP_DEVICE_SRC_DEVICEENVIRONMENT_H

#include "Arch.h"

/// Defined once per image (DeviceEnvironment.cpp); read inline, so that a
/// kernel's checks of it need no call.
extern "C" OMPX_EXPORTED_GLOBAL ompx::DeviceEnvironmentTy
    __omp_rtl_device_environment;

namespace ompx {
/// `__omp_rtl_device_environment`, which a plugin may fill in after loading
/// the image (device number, number of devices, indirect-call table).
inline const DeviceEnvironmentTy &deviceEnvironment() {
  return __omp_rtl_device_environment;
}
} // namespace ompx

#endif // OPENMP_DEVICE_SRC_DEVICEENVIRONMENT_H
