//===- GPUAssert.cpp - assert() in GPU target regions ---------------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Target regions include the host's <assert.h>, so a failed assert() in
// device code calls glibc's __assert_fail(expression, file, line, function)
// on NVIDIA and AMD GPUs alike. The CPU device links glibc's own.
//
//===----------------------------------------------------------------------===//

#include "Arch.h"

extern "C" [[noreturn]] void __assert_fail(const char *Expression,
                                           const char *File, unsigned Line,
                                           const char *Function) {
  ompx::arch::assertFail(Expression, File, Line, Function);
}
