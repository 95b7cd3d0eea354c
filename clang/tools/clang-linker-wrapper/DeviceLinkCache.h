//===- DeviceLinkCache.h - Reuse device links whose inputs are unchanged --===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Relinking a program whose device code did not change would redo every
// device link (LTO, ptxas, nvlink, lld), most of a GPU program's link. The
// cache keeps each linked device image under a key computed from everything
// the link reads and runs, with a record of what the link reported reading,
// checked before the entry is used (DeviceLinkKey.h). Entries live in LLVM's
// local file cache (llvm/Support/Caching.h), which writes a temporary file and
// renames it into place, so concurrent links sharing a directory never see
// half-written entries; LLVM's pruning keeps the directory within its policy.
// Each entry carries the SHA-256 of its record and image, so a damaged entry is
// detected, removed and relinked; an entry whose record no longer holds is
// removed and relinked too.
//
// The cache never makes a link fail: a directory that cannot be used is
// reported as a warning and the link runs uncached.
//
//===----------------------------------------------------------------------===//

#ifndef CLANG_LINKER_WRAPPER_DEVICELINKCACHE_H
#define CLANG_LINKER_WRAPPER_DEVICELINKCACHE_H

#include "DeviceLinkKey.h"
#include "DeviceLinker.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CachePruning.h"
#include "llvm/Support/Caching.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <memory>
#include <mutex>
#include <string>

namespace wrapper {

struct WrapperConfig;

/// What the wrapper's options and environment say about the cache.
struct DeviceLinkCacheSettings {
  bool Enabled = false;
  std::string Directory;
  std::string Policy;
};

/// The default pruning policy: entries unused for a week go, and the
/// directory stays under 2 GiB.
inline constexpr const char *DefaultDeviceLinkCachePolicy =
    "prune_interval=20m:prune_after=168h:cache_size_bytes=2g";

/// The environment variable that turns the cache off ("0", "off", "no",
/// "false").
inline constexpr const char *DeviceLinkCacheEnvironmentVariable =
    "OFFLOAD_WRAPPER_CACHE";

/// `$XDG_CACHE_HOME/offload-toolchain`, else `~/.cache/offload-toolchain`;
/// empty when neither variable is set.
std::string defaultDeviceLinkCacheDirectory();

/// Resolves --wrapper-cache-dir=, --no-wrapper-cache, --wrapper-cache-policy=
/// and the environment. Never enabled under --dry-run.
DeviceLinkCacheSettings resolveDeviceLinkCacheSettings(const WrapperConfig &C);

/// A decoded cache entry: the image and the record of what its link read.
struct CacheEntry {
  llvm::StringRef Image;
  std::vector<RecordedRead> Reads;
};

/// The bytes stored for \p Image linked with \p Reads (a header with the
/// sizes and a SHA-256 of both, the record, then the image), and the
/// inverse, which fails on anything that is not an intact entry.
std::string encodeCacheEntry(llvm::StringRef Image,
                             llvm::ArrayRef<RecordedRead> Reads = {});
llvm::Expected<CacheEntry> decodeCacheEntry(llvm::StringRef Entry);

class DeviceLinkCache {
public:
  /// Opens the cache in \p Directory (created on first store) with pruning
  /// \p Policy (LLVM's syntax; empty: the default).
  static llvm::Expected<std::unique_ptr<DeviceLinkCache>>
  open(llvm::StringRef Directory, llvm::StringRef Policy);

  /// Writes the image cached under \p Key to \p Output. False on a miss; an
  /// entry that is damaged is removed (and \p Why says so), one whose
  /// recorded reads changed is removed (and \p Stale says which), and both
  /// count as a miss. Errors are for an output that cannot be written.
  llvm::Expected<bool> fetch(llvm::StringRef Key, llvm::StringRef Output,
                             std::string &Why, std::string &Stale);
  /// Stores the image in \p Output under \p Key, with \p Reads.
  llvm::Error store(llvm::StringRef Key, llvm::StringRef Output,
                    llvm::ArrayRef<RecordedRead> Reads = {});
  /// Applies the pruning policy (at most once per its interval).
  void prune();

  const std::string &directory() const { return Directory; }
  /// The file holding the entry for \p Key (LLVM's naming, which pruning
  /// relies on).
  std::string entryPath(llvm::StringRef Key) const;

private:
  DeviceLinkCache(std::string Directory, llvm::CachePruningPolicy Policy,
                  llvm::FileCache Cache)
      : Directory(std::move(Directory)), Policy(Policy),
        Cache(std::move(Cache)) {}

  std::string Directory;
  llvm::CachePruningPolicy Policy;
  llvm::FileCache Cache;
  /// The buffer LLVM's cache hands back on a hit, per calling thread.
  static thread_local std::unique_ptr<llvm::MemoryBuffer> Found;
};

/// A DeviceLinker that consults \p Cache before running \p Inner and stores
/// what Inner links, with what Inner reports it read. A job whose inputs are
/// still in memory (DeviceLinkJob::WriteInputs) has them written only on a
/// miss. \p Report receives the hit/miss lines of --wrapper-verbose (null:
/// silent).
std::unique_ptr<DeviceLinker>
createCachingDeviceLinker(std::unique_ptr<DeviceLinker> Inner,
                          std::shared_ptr<DeviceLinkCache> Cache,
                          const ToolchainPaths &Paths,
                          std::function<void(const std::string &)> Report);

} // namespace wrapper

#endif // CLANG_LINKER_WRAPPER_DEVICELINKCACHE_H
