//===- AMDGPUArch.cpp - Print the gfxNNN of each AMD GPU ------------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "ArchDetectTool.h"

int main(int Argc, char **Argv) {
  return offload::archdetect::runArchDetectTool(
      offload::archdetect::GPUVendor::AMD, Argc, Argv);
}
