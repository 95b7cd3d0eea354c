//===- Debug.cpp - Whether the runtime checks its own invariants ---------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Debug.h"
#include "DeviceEnvironment.h"

using namespace ompx;

// Clang defines this (weak_odr) in every device translation unit, 1 with
// -fopenmp-target-debug; ours is the fallback for images without one, and
// is weak so that the compiler's definition prevails at the device link.
extern "C" {
[[gnu::weak]] extern const uint32_t __omp_rtl_debug_kind = 0;
}

/// The compiler's setting. GCC (which may build the CPU runtime) folds even
/// a weak constant to its own initializer, so it reads through a volatile
/// access; clang keeps a weak definition's loads, and folds the compiler's
/// own value once LTO has picked it (GPU images).
static uint32_t compiledDebugKind() {
#if defined(__clang__)
  return __omp_rtl_debug_kind;
#else
  return *static_cast<const volatile uint32_t *>(&__omp_rtl_debug_kind);
#endif
}

bool ompx::debugChecks() {
  return ((compiledDebugKind() | deviceEnvironment().DeviceDebugKind) & 1) != 0;
}
