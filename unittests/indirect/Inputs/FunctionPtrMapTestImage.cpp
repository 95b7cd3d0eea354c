//===- FunctionPtrMapTestImage.cpp - A stand-in CPU device image ----------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The smallest image the host plugin loads that a function-pointer table can
// be installed into: a shared object with the device runtime's device
// environment and nothing else.
//
//===----------------------------------------------------------------------===//

#include "DeviceABI.h"

__attribute__((visibility("default")))
ompx::DeviceEnvironmentTy __omp_rtl_device_environment = {};
