//===- ArchConfig.h - Inline configuration of the AMDGPU layer --*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A GPU image never shares a process with a host OpenMP runtime, so the
// self-contained configuration applies unchanged.
//
//===----------------------------------------------------------------------===//

#ifndef OPENMP_DEVICE_ARCH_AMDGPU_ARCHCONFIG_H
#define OPENMP_DEVICE_ARCH_AMDGPU_ARCHCONFIG_H
#include "../generic/ArchConfig.h"
#endif // OPENMP_DEVICE_ARCH_AMDGPU_ARCHCONFIG_H
