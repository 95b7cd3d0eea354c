//===- ZeroCopyMaps.h - OMPX_APU_MAPS ---------------------------*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Upstream's OMPX_APU_MAPS: on a GPU that shares the host's memory (an APU
// such as MI300A, or a GPU that reads pageable host memory through HMM or a
// coherent link), maps may use the host's memory directly, as under
// `requires unified_shared_memory`, without the program saying so. It is the
// user's choice: on a discrete GPU every access then crosses the bus.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_PLUGINS_GPU_ZEROCOPYMAPS_H
#define OFFLOAD_PLUGINS_GPU_ZEROCOPYMAPS_H

#include <cstdlib>
#include <strings.h>

namespace offload {
namespace plugin {

/// Whether OMPX_APU_MAPS asks for zero-copy maps (true, on, 1; upstream's
/// boolean spellings). Any other value, or none, keeps device copies.
inline bool zeroCopyMapsRequested() {
  const char *Value = std::getenv("OMPX_APU_MAPS");
  if (!Value)
    return false;
  for (const char *Yes : {"true", "on", "1"})
    if (strcasecmp(Value, Yes) == 0)
      return true;
  return false;
}

} // namespace plugin
} // namespace offload

#endif // OFFLOAD_PLUGINS_GPU_ZEROCOPYMAPS_H
