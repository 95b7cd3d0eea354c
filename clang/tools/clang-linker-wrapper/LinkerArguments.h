//===- LinkerArguments.h - What linker arguments name -----------*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The `--device-linker=` values of a device link (`-Xoffload-linker` on the
// driver's command line) name files: `-L<dir>` search directories, `-l<name>`
// libraries found in them, and archives or objects given by path. The GPU
// device links resolve them here to know what to link; the device-link cache
// resolves them with the same function to key the link by what those names
// mean now, not by how they are spelled.
//
//===----------------------------------------------------------------------===//

#ifndef CLANG_LINKER_WRAPPER_LINKERARGUMENTS_H
#define CLANG_LINKER_WRAPPER_LINKERARGUMENTS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace wrapper {

/// Which files `-l<name>` may name, as a linker searches each directory.
enum class LibraryKind {
  /// `lib<name>.a` only (the GPU links, which take bitcode archives).
  StaticOnly,
  /// `lib<name>.so`, then `lib<name>.a` (a host-style ELF link).
  SharedThenStatic,
};

/// The file `-l<Name>` names in \p Dirs (searched in order): `-l:<file>`
/// names the file itself. None when no directory has it.
std::optional<std::string> findLibrary(llvm::StringRef Name,
                                       llvm::ArrayRef<std::string> Dirs,
                                       LibraryKind Kind);

/// What a list of linker arguments names.
struct LinkerArguments {
  /// `-L` directories in order, then the defaults given to the resolution.
  std::vector<std::string> SearchDirs;
  /// The files `-l` options name, in order (absolute paths).
  std::vector<std::string> Libraries;
  /// `-l` names found in no search directory.
  std::vector<std::string> Unresolved;
  /// Arguments that are paths of existing files (archives, objects, linker
  /// scripts), in order, as written.
  std::vector<std::string> Files;
  /// Everything else: options for the final linker.
  std::vector<std::string> Options;
};

/// Resolves \p Args; \p DefaultDirs are searched after the `-L` directories.
LinkerArguments resolveLinkerArguments(llvm::ArrayRef<std::string> Args,
                                       llvm::ArrayRef<std::string> DefaultDirs,
                                       LibraryKind Kind);

/// \p Path made absolute against the current directory (for keys and
/// records that must not depend on where the link ran).
std::string absolutePath(llvm::StringRef Path);

} // namespace wrapper

#endif // CLANG_LINKER_WRAPPER_LINKERARGUMENTS_H
