//===- FuzzWrapperOptions.cpp - Fuzz the linker wrapper's command line ----===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The input is a command line, arguments separated by NUL bytes, as clang's
// driver (or a user, or a response file) hands it to clang-linker-wrapper.
// The parser (clang/tools/clang-linker-wrapper/WrapperOptions.cpp, with the
// table generated from LinkerWrapperOpts.td) splits it into the wrapper's
// settings, the link inputs and the host linker's arguments. Besides memory
// errors, the harness checks that the wrapper's own options never reach the
// host linker (the linker's arguments, parsed again, set nothing of the
// wrapper's and come out unchanged) and that errors quote what was wrong.
//
//===----------------------------------------------------------------------===//

#include "FuzzCheck.h"

#include "WrapperOptions.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/TargetParser/Triple.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

using namespace llvm;
using namespace offload_fuzz;
using namespace wrapper;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  // Each argument in its own exact-size allocation, so a read past an
  // argument's terminator is caught.
  // (std::string would keep short ones inside itself.)
  std::vector<std::unique_ptr<char[]>> Strings;
  std::vector<const char *> Argv;
  StringRef Rest(reinterpret_cast<const char *>(Data), Size);
  while (!Rest.empty()) {
    auto [Arg, Tail] = Rest.split('\0');
    Strings.emplace_back(new char[Arg.size() + 1]);
    std::memcpy(Strings.back().get(), Arg.data(), Arg.size());
    Strings.back()[Arg.size()] = '\0';
    Argv.push_back(Strings.back().get());
    Rest = Tail;
  }

  Expected<WrapperConfig> ConfigOrErr = parseCommandLine(Argv);
  if (!ConfigOrErr) {
    std::string Message = toString(ConfigOrErr.takeError());
    FUZZ_CHECK(StringRef(Message).contains('\''),
               "a command-line error does not quote what was wrong");
    return 0;
  }
  const WrapperConfig &Config = *ConfigOrErr;

  // What goes to the host linker holds none of the wrapper's options: read
  // again, it sets nothing of the wrapper's and gives the same inputs and
  // the same linker arguments.
  std::vector<const char *> LinkerArgv;
  for (const std::string &Arg : Config.LinkerArgs)
    LinkerArgv.push_back(Arg.c_str());
  Expected<WrapperConfig> AgainOrErr = parseCommandLine(LinkerArgv);
  if (!AgainOrErr) {
    std::fprintf(stderr, "%s\n", toString(AgainOrErr.takeError()).c_str());
    FUZZ_CHECK(false, "the host linker's arguments do not parse again");
  }
  const WrapperConfig &Again = *AgainOrErr;
  FUZZ_CHECK(!Again.Help && !Again.Verbose && !Again.DryRun &&
                 !Again.SaveTemps && !Again.PrintWrappedModule &&
                 Again.Jobs == 0 && Again.LinkerPath.empty() &&
                 Again.CudaPath.empty() && Again.DeviceLinkerArgs.empty() &&
                 Again.DeviceCompilerArgs.empty() && Again.LLVMArgs.empty() &&
                 Again.ShouldExtract.empty() && Again.Output == "a.out",
             "a wrapper option reached the host linker");
  FUZZ_CHECK(Again.LinkerArgs == Config.LinkerArgs,
             "the host linker's arguments change when read again");
  FUZZ_CHECK(Again.Inputs.size() == Config.Inputs.size(),
             "the link inputs change when read again");
  for (size_t I = 0; I < Config.Inputs.size(); ++I)
    FUZZ_CHECK(Again.Inputs[I].Kind == Config.Inputs[I].Kind &&
                   Again.Inputs[I].Value == Config.Inputs[I].Value,
               "a link input changes when read again");

  unsigned Sum = touch(Config.Output) + touch(Config.LinkerPath);
  for (const LinkInput &Input : Config.Inputs)
    Sum += touch(Input.Value);
  for (const char *Target :
       {"x86_64-pc-linux-gnu", "nvptx64-nvidia-cuda", "amdgcn-amd-amdhsa"}) {
    Triple T(Target);
    for (const std::string &Arg :
         WrapperConfig::forTriple(Config.DeviceLinkerArgs, T))
      Sum += touch(Arg);
    for (const std::string &Arg :
         WrapperConfig::forTriple(Config.DeviceCompilerArgs, T))
      Sum += touch(Arg);
  }
  keep(Sum);
  return 0;
}
