//===- ArchDetectTool.cpp - The nvptx-arch/amdgpu-arch command line -------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "ArchDetectTool.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace offload::archdetect;

int offload::archdetect::runArchDetectTool(GPUVendor Vendor, int Argc,
                                           char **Argv) {
  const bool NVIDIA = Vendor == GPUVendor::NVIDIA;
  const char *ToolName = NVIDIA ? "nvptx-arch" : "amdgpu-arch";
  const char *Variable = defaultArchVariable(Vendor);
  std::string Overview =
      std::string("Prints the architecture of each ") +
      (NVIDIA ? "NVIDIA GPU of this machine (sm_XY, from the CUDA driver)"
              : "AMD GPU of this machine (gfxNNN, from the HSA runtime)") +
      ",\none per line. clang's driver runs it for offload targets given "
      "without an\narchitecture.\n\n"
      "Without a GPU (no driver, a stub driver or zero devices) it prints a "
      "default\narchitecture instead and says so on stderr: $" +
      Variable + "\nwhen set, else " + builtInDefaultArch(Vendor) +
      " (chosen when the toolchain was built).\n\nThe driver is the library "
      "the " +
      (NVIDIA ? "cuda" : "amdgpu") + " plugin loads: " +
      (NVIDIA ? "$LIBOMPTARGET_CUDA_DRIVER or libcuda.so.1"
              : "$LIBOMPTARGET_HSA_RUNTIME or libhsa-runtime64.so.1") +
      ".\n";
  // Only --help and --version: the options libLLVM registers for itself
  // mean nothing here.
  static cl::OptionCategory ToolCategory("Options");
  cl::HideUnrelatedOptions(ToolCategory);
  if (!cl::ParseCommandLineOptions(Argc, Argv, Overview, &errs()))
    return 1;

  DetectedArchs Detected = detectArchs(Vendor);
  if (!Detected.Archs.empty()) {
    for (const std::string &Arch : Detected.Archs)
      outs() << Arch << '\n';
    return 0;
  }

  DefaultArch Default = chooseDefaultArch(Vendor);
  if (!Default.Error.empty()) {
    errs() << ToolName << ": error: no " << (NVIDIA ? "NVIDIA" : "AMD")
           << " GPU found, and " << Default.Error
           << "; pass --offload-arch= to clang or fix the variable\n";
    return 1;
  }
  errs() << ToolName << ": no " << (NVIDIA ? "NVIDIA" : "AMD") << " GPU found ("
         << Detected.NoGPUReason << "); building for ";
  if (Default.FromVariable.empty())
    errs() << "the default " << Default.Arch << "; pass --offload-arch= or set "
           << Variable << '\n';
  else
    errs() << Default.Arch << " from " << Default.FromVariable
           << "; pass --offload-arch= to choose another\n";
  outs() << Default.Arch << '\n';
  return 0;
}
