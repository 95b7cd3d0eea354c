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
#include <optional>

using namespace llvm;

namespace wrapper {

namespace {

/// Whether the last of \p Args that sets the boolean LLVM option \p Name
/// ("-Name", "--Name", "-Name=<value>") turns it on; std::nullopt when none
/// sets it. A value LLVM would refuse counts as neither (LLVM reports it).
std::optional<bool> lastBoolOption(ArrayRef<std::string> Args, StringRef Name) {
  std::optional<bool> Value;
  for (StringRef Arg : Args) {
    if (!Arg.consume_front("-"))
      continue;
    Arg.consume_front("-");
    if (!Arg.consume_front(Name))
      continue;
    if (Arg.empty())
      Value = true;
    else if (Arg == "=true" || Arg == "=1" || Arg == "=TRUE" || Arg == "=True")
      Value = true;
    else if (Arg == "=false" || Arg == "=0" || Arg == "=FALSE" ||
             Arg == "=False")
      Value = false;
  }
  return Value;
}

} // namespace

std::vector<std::string> gpuLTOOptions(ArrayRef<std::string> UserArgs) {
  std::vector<std::string> Args(UserArgs.begin(), UserArgs.end());
  // Without its state-machine rewrite, OpenMPOpt leaves a kernel it
  // SPMD-ised asking for the generic state machine, which the device
  // runtime reads as Flang's Generic-SPMD and runs in generic mode, with a
  // wrong result (GPULTOOptions.h); so that option turns SPMD-isation off
  // too, unless the user set SPMD-isation explicitly.
  if (lastBoolOption(UserArgs, "openmp-opt-disable-state-machine-rewrite")
          .value_or(false) &&
      !lastBoolOption(UserArgs, "openmp-opt-disable-spmdization"))
    Args.push_back("-openmp-opt-disable-spmdization");
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
