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

namespace ompx {
namespace arch {
/// See the CPU layer: no host runtime shares a GPU's levels.
struct HostNestingBase {
  bool InPlace;
  int Level;
  int ActiveLevel;
};
inline HostNestingBase inPlaceHostNesting() { return {false, 0, 0}; }
} // namespace arch
} // namespace ompx

#define OMPX_HOST_FUNCTION(Name, FnType) static_cast<FnType>(nullptr)

#define OMPX_FORWARD_TO_HOST(Name, Ret, Params, ...)                           \
  do {                                                                         \
  } while (false)

#define OMPX_EXPORTED_GLOBAL __attribute__((visibility("protected")))

#endif // OPENMP_DEVICE_ARCH_GENERIC_ARCHCONFIG_H
