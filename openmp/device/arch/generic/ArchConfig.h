//===- ArchConfig.h - Inline configuration for self-contained devices ----===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// For architectures whose device code never shares a process with a host
// OpenMP runtime (GPUs): nothing to forward, globals are protected.
//
//===----------------------------------------------------------------------===//

#ifndef OPENMP_DEVICE_ARCH_GENERIC_ARCHCONFIG_H
#define OPENMP_DEVICE_ARCH_GENERIC_ARCHCONFIG_H

#define OMPX_FORWARD_TO_HOST(Name, Ret, Params, ...)                           \
  do {                                                                         \
  } while (false)

#define OMPX_EXPORTED_GLOBAL __attribute__((visibility("protected")))

#endif // OPENMP_DEVICE_ARCH_GENERIC_ARCHCONFIG_H
