//===- ImageTriple.h - The target triple of a bare device image ----------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_LIBOMPTARGET_IMAGETRIPLE_H
#define OFFLOAD_LIBOMPTARGET_IMAGETRIPLE_H

#include <string>
#include <string_view>

namespace offload {

/// The target triple of a device image registered without an OffloadBinary
/// container (our linker wrapper registers the linked image itself), read
/// from its ELF header: the triple the toolchains link such images for.
/// Empty when the bytes are not an ELF file of a known device machine.
std::string elfImageTriple(std::string_view Bytes);

} // namespace offload

#endif // OFFLOAD_LIBOMPTARGET_IMAGETRIPLE_H
