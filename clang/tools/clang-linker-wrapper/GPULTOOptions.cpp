//===- GPULTOOptions.cpp - LLVM options of the GPU LTO --------------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "GPULTOOptions.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>

using namespace llvm;

namespace wrapper {

std::vector<std::string> gpuLTOOptions(ArrayRef<std::string> UserArgs) {
  // Link-time OpenMPOpt is off unless asked for (GPULTOOptions.h says why).
  std::vector<std::string> Args = {"-openmp-opt-disable"};
  Args.insert(Args.end(), UserArgs.begin(), UserArgs.end());
  return Args;
}

Error applyGPULTOOptions(ArrayRef<std::string> UserArgs) {
  static std::once_flag Once;
  static std::string Failure;
  std::call_once(Once, [&] {
    std::vector<std::string> Args = gpuLTOOptions(UserArgs);
    std::vector<const char *> Argv = {"clang-linker-wrapper (GPU LTO)"};
    for (const std::string &Arg : Args)
      Argv.push_back(Arg.c_str());
    std::string Message;
    raw_string_ostream OS(Message);
    if (!cl::ParseCommandLineOptions(int(Argv.size()), Argv.data(), "", &OS))
      Failure = "invalid LLVM option for the GPU device link (-mllvm / "
                "--offload-opt): " +
                StringRef(Message).trim().str();
  });
  if (!Failure.empty())
    return createStringError(Failure);
  return Error::success();
}

} // namespace wrapper
