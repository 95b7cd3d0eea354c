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
