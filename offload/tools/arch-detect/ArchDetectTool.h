//===- ArchDetectTool.h - The nvptx-arch/amdgpu-arch command line -*- C++ -*-=//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Both tools behave alike and differ only in the vendor they ask about, so
// their main() functions are one call into this.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_TOOLS_ARCHDETECT_ARCHDETECTTOOL_H
#define OFFLOAD_TOOLS_ARCHDETECT_ARCHDETECTTOOL_H

#include "GPUArchDetection.h"

namespace offload {
namespace archdetect {

/// Parses the command line (--help, --version), prints one architecture per
/// GPU on stdout, or the default architecture with a note on stderr when there
/// is no GPU. Returns the exit status: 0, or 1 when the default named in the
/// environment is not an architecture.
int runArchDetectTool(GPUVendor Vendor, int Argc, char **Argv);

} // namespace archdetect
} // namespace offload

#endif // OFFLOAD_TOOLS_ARCHDETECT_ARCHDETECTTOOL_H
