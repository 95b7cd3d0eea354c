//===- Interface.h - Entry points of the device runtime ---------*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The core's internal view of the public entry points, for the few places
// where one entry point calls another. The complete list with signatures is
// in include/DeviceRuntime.h (what compiled kernels and tests call).
//
//===----------------------------------------------------------------------===//

#ifndef OPENMP_DEVICE_SRC_INTERFACE_H
#define OPENMP_DEVICE_SRC_INTERFACE_H

#include "DeviceRuntime.h"

#endif // OPENMP_DEVICE_SRC_INTERFACE_H
