//===- IsaVersion.cpp - ISA version constant for AMD's device libraries ---===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// AMD's device libraries (ocml, ockl) read the target's ISA version from a
// constant that clang links from `oclc_isa_version_<NNN>.bc`, one file per
// gfx target. Debian's rocm-device-libs (ROCm 5.2) predates some targets we
// support (gfx942), so the build compiles this file once per missing target
// with OMPX_ISA_VERSION set (e.g. 9402 for gfx942) and puts the result next
// to links to Debian's files.
//
//===----------------------------------------------------------------------===//

#ifndef OMPX_ISA_VERSION
#error "define OMPX_ISA_VERSION, e.g. -DOMPX_ISA_VERSION=9402 for gfx942"
#endif

// Constant address space (4), as the device libraries declare it.
extern "C" __attribute__((address_space(4), visibility("protected"),
                          weak)) const int __oclc_ISA_version =
    OMPX_ISA_VERSION;
