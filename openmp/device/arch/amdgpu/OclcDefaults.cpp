//===- OclcDefaults.cpp - Device-library constants clang-22 leaves out ----===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Debian's ocml (ROCm 5.2) reads __oclc_daz_opt (flush single-precision
// subnormals to zero?) in its float functions (fmodf, powf, tgammaf,
// erff, ...). clang-22 no longer links the oclc_daz_opt_*.bc library that
// defined it, so without this definition no program calling them linked for
// an AMD GPU. It comes with the device runtime, weak, so that a definition
// of the program's own prevails. 0 keeps subnormals, gfx90a's default.
//
//===----------------------------------------------------------------------===//

// Constant address space (4), as the device libraries declare it.
extern "C" __attribute__((address_space(4), visibility("protected"), weak))
const unsigned char __oclc_daz_opt = 0;
