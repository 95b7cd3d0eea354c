//===- LinkerArguments.cpp - What linker arguments name -------------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "LinkerArguments.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace wrapper {

std::string absolutePath(StringRef Path) {
  SmallString<256> Absolute(Path);
  (void)sys::fs::make_absolute(Absolute);
  sys::path::remove_dots(Absolute, /*remove_dot_dot=*/true);
  return Absolute.str().str();
}

std::optional<std::string>
findLibrary(StringRef Name, ArrayRef<std::string> Dirs, LibraryKind Kind) {
  std::vector<std::string> Candidates;
  if (Name.starts_with(":")) {
    Candidates.push_back(Name.drop_front().str());
  } else {
    if (Kind == LibraryKind::SharedThenStatic)
      Candidates.push_back(("lib" + Name + ".so").str());
    Candidates.push_back(("lib" + Name + ".a").str());
  }
  for (const std::string &Dir : Dirs) {
    for (const std::string &File : Candidates) {
      SmallString<256> Candidate(Dir);
      sys::path::append(Candidate, File);
      if (sys::fs::is_regular_file(Candidate))
        return absolutePath(Candidate);
    }
  }
  return std::nullopt;
}

LinkerArguments resolveLinkerArguments(ArrayRef<std::string> Args,
                                       ArrayRef<std::string> DefaultDirs,
                                       LibraryKind Kind) {
  LinkerArguments Result;
  std::vector<std::string> Names;
  for (const std::string &Arg : Args) {
    StringRef A(Arg);
    if (A.consume_front("-L"))
      Result.SearchDirs.push_back(A.str());
    else if (A.consume_front("-l"))
      Names.push_back(A.str());
    else if (!A.starts_with("-") && sys::fs::is_regular_file(A))
      Result.Files.push_back(Arg);
    else
      Result.Options.push_back(Arg);
  }
  Result.SearchDirs.insert(Result.SearchDirs.end(), DefaultDirs.begin(),
                           DefaultDirs.end());
  // Every -L applies to every -l, wherever it stands, as in a linker.
  for (const std::string &Name : Names) {
    if (std::optional<std::string> Found =
            findLibrary(Name, Result.SearchDirs, Kind))
      Result.Libraries.push_back(*Found);
    else
      Result.Unresolved.push_back(Name);
  }
  return Result;
}

} // namespace wrapper
