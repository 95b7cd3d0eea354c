//===- OclcConstant.cpp - A constant of AMD's device libraries ------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// AMD's device libraries (ocml, ockl) read their configuration from
// constants that clang links from small `oclc_*.bc` files: the target's ISA
// version (`oclc_isa_version_<NNN>.bc`) and the code object ABI version
// (`oclc_abi_version_<N>.bc`). Debian's rocm-device-libs (ROCm 5.2) predates
// some that clang-22 asks for: gfx942's ISA version, and ABI version 600
// (code object version 6, clang-22's default; ockl 5.2 only distinguishes
// versions below 500 from the others, so 600 selects the same code as 500).
// The build compiles this file once per missing constant with
// OMPX_OCLC_NAME and OMPX_OCLC_VALUE set, and puts the result next to links
// to Debian's files.
//
//===----------------------------------------------------------------------===//

#if !defined(OMPX_OCLC_NAME) || !defined(OMPX_OCLC_VALUE)
#error                                                                         \
    "define OMPX_OCLC_NAME and OMPX_OCLC_VALUE, e.g. __oclc_ISA_version, 9402"
#endif

// Constant address space (4), as the device libraries declare it.
extern "C" __attribute__((address_space(4), visibility("protected"), weak))
const int OMPX_OCLC_NAME = OMPX_OCLC_VALUE;
