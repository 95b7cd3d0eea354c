//===- Debug.h - The runtime's checks of its own invariants -----*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Checks that cost a branch on every runtime call are made only when asked
// for: at compile time with -fopenmp-target-debug (clang emits
// `__omp_rtl_debug_kind`, 1 or the option's value, into every device
// translation unit) or, on the CPU device, also at run time with
// LIBOMPTARGET_DEVICE_RTL_DEBUG (the plugin copies it into the device
// environment). Bit 0 turns them on. On GPUs only the compiler's setting
// counts, as in upstream's runtime, where both must ask: a check that the
// device environment could turn on stays in every kernel, with the
// message's printf and its stack frame, and a GPU pays for that in
// registers and stack (32 bytes of stack in every sm_90 kernel). A failed
// check is reported like a failed assert() in user code: file, line,
// function, block and thread; then the kernel stops.
//
//===----------------------------------------------------------------------===//

#ifndef OPENMP_DEVICE_SRC_DEBUG_H
#define OPENMP_DEVICE_SRC_DEBUG_H

#include "DeviceEnvironment.h"

extern "C" {
/// The compiler's setting (Debug.cpp has the fallback definition).
extern const uint32_t __omp_rtl_debug_kind;
}

namespace ompx {
/// The compiler's setting. GCC (which may build the CPU runtime) folds even
/// a weak constant to its own initializer where it sees one, so it reads
/// through a volatile access; clang keeps a weak definition's loads, and
/// folds the compiler's own value once LTO has picked it (GPU images).
inline uint32_t compiledDebugKind() {
#if defined(__clang__)
  return __omp_rtl_debug_kind;
#else
  return *static_cast<const volatile uint32_t *>(&__omp_rtl_debug_kind);
#endif
}

/// Whether the runtime checks its invariants (see the file comment). Inline:
/// every check asks, on the kernels' hot paths.
inline bool debugChecks() {
#if defined(__NVPTX__) || defined(__AMDGPU__)
  // Folded at compile or link time: no check is left in a kernel unless
  // the program asked for them (see the file comment).
  return (compiledDebugKind() & 1) != 0;
#else
  return ((compiledDebugKind() | deviceEnvironment().DeviceDebugKind) & 1) != 0;
#endif
}
} // namespace ompx

/// Checks \p Cond when debugChecks() is on; \p What says what went wrong in
/// the user's or the compiler's terms.
#define OMPX_ASSERT(Cond, What)                                                \
  do {                                                                         \
    if (::ompx::debugChecks() && !(Cond))                                      \
      ::ompx::arch::assertFail(What, __FILE__, __LINE__, __func__);            \
  } while (false)

#endif // OPENMP_DEVICE_SRC_DEBUG_H
