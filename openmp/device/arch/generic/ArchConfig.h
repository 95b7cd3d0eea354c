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
/// Deepest parallel-region nesting a thread's state counts: a GPU keeps
/// the level in six bits of team-shared memory per thread (GPUArch.cpp).
constexpr uint32_t MaxCountedLevel = 63;

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

/// The runtime's hot paths (kernel start and end, parallel regions, static
/// loops, thread identity, barriers), in the NVPTX compile-time module
/// (OMPX_INLINE_HOT_PATHS, see gpu/CMakeLists.txt): always inlined into the
/// kernels of a translation unit compiled without -foffload-lto, as
/// upstream's runtime is. There the inliner's cost model kept several of
/// them as calls, each costing the kernel the calling convention's
/// registers and stack. The device link's LTO inlines them by its own
/// measure; forcing it there grew every kernel's code (a parallel region's
/// 65-way argument switch in each) and the gfx90a link of 48 kernels took
/// 4x longer.
#if defined(OMPX_INLINE_HOT_PATHS)
#define OMPX_HOT [[gnu::always_inline]]
#else
#define OMPX_HOT
#endif

#endif // OPENMP_DEVICE_ARCH_GENERIC_ARCHCONFIG_H
