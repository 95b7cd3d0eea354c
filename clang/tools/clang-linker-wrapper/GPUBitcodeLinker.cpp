//===- GPUBitcodeLinker.cpp - LTO of GPU device bitcode -------------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "GPUBitcodeLinker.h"
#include "LinkerArguments.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/BinaryFormat/Magic.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

using namespace llvm;

namespace wrapper {

Expected<GPULinkOptions> parseGPULinkOptions(const DeviceLinkJob &Job,
                                             const ToolchainPaths &Paths) {
  GPULinkOptions Options;
  // The same resolution keys the device-link cache (DeviceLinkCache.cpp).
  LinkerArguments Resolved =
      resolveLinkerArguments(Job.LinkerArgs, {Paths.deviceLibDir(Job.Triple)},
                             LibraryKind::StaticOnly);
  if (!Resolved.Unresolved.empty()) {
    StringRef Name = Resolved.Unresolved.front();
    return createStringError(
        "cannot find -l" + Name + " for the " + Job.Triple.str() +
        " device link (" + Job.Arch + "); searched " +
        join(Resolved.SearchDirs, ", ") +
        (Name == "ompdevice" ? "; the GPU device runtime is not installed in "
                               "this prefix"
                             : ""));
  }
  for (const std::string &Arg : Job.LinkerArgs) {
    StringRef A(Arg);
    if (A.starts_with("-L") || A.starts_with("-l"))
      continue;
    if (A.ends_with(".a") && !A.starts_with("-"))
      Options.Archives.push_back(Arg);
    else
      Options.LinkerPassThrough.push_back(Arg);
  }
  Options.Archives.insert(Options.Archives.end(), Resolved.Libraries.begin(),
                          Resolved.Libraries.end());
  for (const std::string &Arg : Job.CompilerArgs) {
    StringRef A(Arg);
    if (A == "-g" || A.starts_with("-g"))
      Options.Debug = A != "-g0";
    if (!A.consume_front("-O"))
      continue;
    if (A == "0" || A == "1" || A == "2" || A == "3")
      Options.OptLevel = unsigned(A[0] - '0');
    else if (A == "s" || A == "z" || A.empty())
      Options.OptLevel = 2;
    else if (A == "fast")
      Options.OptLevel = 3;
  }
  return Options;
}

GPUBitcodeLink prepareGPUBitcodeLink(const DeviceLinkJob &Job,
                                     const GPULinkOptions &Options,
                                     CodeGenFileType FileType,
                                     std::vector<std::string> &OtherInputs) {
  GPUBitcodeLink Link;
  Link.Triple = Job.Triple;
  Link.CPU = Job.Arch;
  Link.OptLevel = Options.OptLevel;
  Link.FileType = FileType;
  Link.Archives = Options.Archives;
  Link.PassPlugins = Job.PassPlugins;
  Link.LLVMArgs = Job.LLVMArgs;
  for (const std::string &Symbol : Job.RequiredSymbols)
    Link.ExternalReferences.insert(Symbol);
  for (const std::string &Input : Job.Inputs) {
    if (isBitcodeFile(Input))
      Link.BitcodeFiles.push_back(Input);
    else
      OtherInputs.push_back(Input);
  }
  return Link;
}

Expected<std::string> findGPUTool(StringRef Tool,
                                  ArrayRef<std::string> Preferred,
                                  ArrayRef<std::string> Fallback,
                                  StringRef Purpose, StringRef Hint) {
  std::vector<std::string> Searched;
  auto SearchIn = [&](ArrayRef<std::string> Directories) -> std::string {
    for (const std::string &Dir : Directories) {
      if (Dir.empty())
        continue;
      SmallString<256> Candidate(Dir);
      sys::path::append(Candidate, Tool);
      if (sys::fs::can_execute(Candidate))
        return Candidate.str().str();
      Searched.push_back(Dir);
    }
    return "";
  };
  std::string Found = SearchIn(Preferred);
  if (!Found.empty())
    return Found;
  if (ErrorOr<std::string> OnPath = sys::findProgramByName(Tool))
    return *OnPath;
  Searched.push_back("PATH");
  Found = SearchIn(Fallback);
  if (!Found.empty())
    return Found;
  return createStringError("cannot find '" + Tool + "', needed for " + Purpose +
                           " (searched " + join(Searched, ", ") + "); " + Hint);
}

bool isBitcodeFile(StringRef Path) {
  file_magic Magic;
  return !identify_magic(Path, Magic) && Magic == file_magic::bitcode;
}

} // namespace wrapper
