//===- DeviceLinkKey.h - What a cached device image depends on --*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A cached device image may be reused only while everything its link read
// and ran is unchanged. That is checked in two steps:
//  * the key, before the link: the job (input bytes, options, pass plugins),
//    what the device linker says it will read and run
//    (DeviceLinker::dependencies(), found by the lookups the link itself
//    makes), the environment that steers it, the wrapper and every library
//    loaded into it (the GPU links run LLVM's LTO in process), and the
//    installed device runtime;
//  * the record stored with the image: what the link reported it read and
//    ran once it had run (DeviceLinker::linkRecordingReads(): the CPU link's
//    libraries as its linker found them, the programs clang's driver ran),
//    checked again before an entry is used.
// Files read count by content, programs and libraries that run by identity
// (real path, size, modification time: hashing compilers whole on every
// link would cost more than it saves).
//
//===----------------------------------------------------------------------===//

#ifndef CLANG_LINKER_WRAPPER_DEVICELINKKEY_H
#define CLANG_LINKER_WRAPPER_DEVICELINKKEY_H

#include "DeviceLinker.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace wrapper {

/// The key of \p Job: a hex SHA-256 over everything its image depends on
/// that is known before the link, \p Deps being what its linker named. Fails
/// when a file that must be hashed cannot be read.
llvm::Expected<std::string>
computeDeviceLinkKey(const DeviceLinkJob &Job, const ToolchainPaths &Paths,
                     const DeviceLinkDependencies &Deps);

/// What a record holds.
enum class ReadKind {
  /// A file read: compared by content.
  File,
  /// A program that ran: compared by identity.
  Program,
  /// What PATH found for a program's name (Path: the name; Digest: the
  /// program found, or empty): clang's driver falls back to PATH, so a PATH
  /// that now finds another linker changes the link, and one that finds the
  /// same does not.
  OnPath,
};

/// A file or program a stored image was linked with, as it was then.
struct RecordedRead {
  std::string Path;
  ReadKind Kind = ReadKind::File;
  uint64_t Size = 0;
  /// Nanoseconds since the epoch.
  int64_t ModificationTime = 0;
  /// Files: a digest of their contents (XXH3-128); programs: their real
  /// path.
  std::string Digest;
};

/// Records what \p Read names (files that no longer exist are left out:
/// temporaries of the link).
std::vector<RecordedRead> recordReads(const DeviceLinkDependencies &Read);

/// The first of \p Reads that no longer holds, as "'<path>' changed" (or
/// "is gone"); empty when all hold. A file whose time changed but whose
/// contents did not still holds.
std::string findChangedRead(llvm::ArrayRef<RecordedRead> Reads);

/// The bytes of \p Reads in a cache entry, and the inverse.
std::string encodeReads(llvm::ArrayRef<RecordedRead> Reads);
llvm::Expected<std::vector<RecordedRead>> decodeReads(llvm::StringRef Bytes);

} // namespace wrapper

#endif // CLANG_LINKER_WRAPPER_DEVICELINKKEY_H
