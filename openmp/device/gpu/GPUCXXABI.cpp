//===- GPUCXXABI.cpp - The C++ ABI's error hooks on GPUs ------------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The vtable of a class with a pure virtual function holds
// __cxa_pure_virtual in that function's slot (__cxa_deleted_virtual for a
// deleted one), so device code that uses such a class references them.
// The host's C++ runtime defines them; on GPUs nothing did, and ld.lld
// refused the AMD GPU image (`undefined symbol: __cxa_pure_virtual`,
// referenced by the vtable). Calling one is a program error: the kernel
// stops with a message, as the host's runtime aborts. The CPU device links
// the host's.
//
//===----------------------------------------------------------------------===//

#include "Arch.h"

extern "C" [[noreturn]] void __cxa_pure_virtual() {
  ompx::arch::fatal("pure virtual function called");
}

extern "C" [[noreturn]] void __cxa_deleted_virtual() {
  ompx::arch::fatal("deleted virtual function called");
}
