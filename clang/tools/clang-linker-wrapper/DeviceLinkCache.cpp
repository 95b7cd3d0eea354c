//===- DeviceLinkCache.cpp - Reuse device links whose inputs are unchanged ===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "DeviceLinkCache.h"
#include "CommandRunner.h"
#include "DeviceLinkKey.h"
#include "WrapperOptions.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdlib>

using namespace llvm;

namespace wrapper {

thread_local std::unique_ptr<MemoryBuffer> DeviceLinkCache::Found;

namespace {

constexpr StringLiteral EntryMagic = "OFFLDLC2";
constexpr size_t DigestSize = 32;
/// Magic, the sizes of the record and of the image, and the SHA-256 of both.
constexpr size_t HeaderSize = 8 + 8 + 8 + DigestSize;

std::array<uint8_t, 32> digestOf(StringRef Reads, StringRef Image) {
  SHA256 Hash;
  Hash.update(Reads);
  Hash.update(Image);
  return Hash.final();
}

bool isOff(StringRef Value) {
  std::string Lower = Value.lower();
  return Lower == "0" || Lower == "off" || Lower == "no" || Lower == "false";
}

} // namespace

std::string defaultDeviceLinkCacheDirectory() {
  SmallString<256> Dir;
  if (std::optional<std::string> Xdg = sys::Process::GetEnv("XDG_CACHE_HOME");
      Xdg && !Xdg->empty())
    Dir = *Xdg;
  else if (std::optional<std::string> Home = sys::Process::GetEnv("HOME");
           Home && !Home->empty())
    sys::path::append(Dir, *Home, ".cache");
  else
    return std::string();
  sys::path::append(Dir, "offload-toolchain");
  return Dir.str().str();
}

DeviceLinkCacheSettings resolveDeviceLinkCacheSettings(const WrapperConfig &C) {
  DeviceLinkCacheSettings S;
  std::optional<std::string> Env =
      sys::Process::GetEnv(DeviceLinkCacheEnvironmentVariable);
  S.Enabled = C.UseCache && !C.DryRun && !(Env && isOff(*Env));
  S.Directory =
      C.CacheDir.empty() ? defaultDeviceLinkCacheDirectory() : C.CacheDir;
  S.Policy =
      C.CachePolicy.empty() ? DefaultDeviceLinkCachePolicy : C.CachePolicy;
  if (S.Directory.empty())
    S.Enabled = false;
  return S;
}

std::string encodeCacheEntry(StringRef Image, ArrayRef<RecordedRead> Reads) {
  std::string ReadBytes = encodeReads(Reads);
  std::string Entry;
  Entry.reserve(HeaderSize + ReadBytes.size() + Image.size());
  Entry += EntryMagic;
  char Size[8];
  support::endian::write64le(Size, ReadBytes.size());
  Entry.append(Size, 8);
  support::endian::write64le(Size, Image.size());
  Entry.append(Size, 8);
  std::array<uint8_t, 32> Digest = digestOf(ReadBytes, Image);
  Entry.append(reinterpret_cast<const char *>(Digest.data()), DigestSize);
  Entry += ReadBytes;
  Entry += Image;
  return Entry;
}

Expected<CacheEntry> decodeCacheEntry(StringRef Entry) {
  if (Entry.size() < HeaderSize || !Entry.starts_with(EntryMagic))
    return createStringError("not a device-link cache entry (" +
                             Twine(Entry.size()) + " bytes)");
  uint64_t ReadsSize = support::endian::read64le(Entry.data() + 8);
  uint64_t ImageSize = support::endian::read64le(Entry.data() + 16);
  StringRef Payload = Entry.substr(HeaderSize);
  if (ReadsSize > Payload.size() || Payload.size() - ReadsSize != ImageSize)
    return createStringError("truncated: " + Twine(Payload.size()) + " of " +
                             Twine(ReadsSize + ImageSize) + " bytes");
  StringRef ReadBytes = Payload.take_front(ReadsSize);
  StringRef Image = Payload.drop_front(ReadsSize);
  std::array<uint8_t, 32> Digest = digestOf(ReadBytes, Image);
  if (StringRef(reinterpret_cast<const char *>(Digest.data()), DigestSize) !=
      Entry.substr(24, DigestSize))
    return createStringError("its checksum does not match its contents");
  Expected<std::vector<RecordedRead>> Reads = decodeReads(ReadBytes);
  if (!Reads)
    return Reads.takeError();
  return CacheEntry{Image, std::move(*Reads)};
}

Expected<std::unique_ptr<DeviceLinkCache>>
DeviceLinkCache::open(StringRef Directory, StringRef Policy) {
  Expected<CachePruningPolicy> PolicyOrErr = parseCachePruningPolicy(
      Policy.empty() ? StringRef(DefaultDeviceLinkCachePolicy) : Policy);
  if (!PolicyOrErr)
    return createStringError("invalid --wrapper-cache-policy '" + Policy +
                             "': " + toString(PolicyOrErr.takeError()));
  Expected<FileCache> CacheOrErr = localCache(
      "offload device links", "device-link", Directory,
      [](unsigned, const Twine &, std::unique_ptr<MemoryBuffer> Buffer) {
        Found = std::move(Buffer);
      });
  if (!CacheOrErr)
    return CacheOrErr.takeError();
  return std::unique_ptr<DeviceLinkCache>(new DeviceLinkCache(
      Directory.str(), *PolicyOrErr, std::move(*CacheOrErr)));
}

std::string DeviceLinkCache::entryPath(StringRef Key) const {
  SmallString<256> Path(Directory);
  sys::path::append(Path, "llvmcache-" + Key);
  return Path.str().str();
}

Expected<bool> DeviceLinkCache::fetch(StringRef Key, StringRef Output,
                                      std::string &Why, std::string &Stale) {
  Found.reset();
  Expected<AddStreamFn> StreamOrErr = Cache(0, Key, Output);
  if (!StreamOrErr) {
    // An entry that exists but cannot be read: treat as a miss.
    Why = toString(StreamOrErr.takeError());
    return false;
  }
  if (*StreamOrErr || !Found)
    return false; // A miss: LLVM offers a stream to fill.
  std::unique_ptr<MemoryBuffer> Entry = std::move(Found);
  Expected<CacheEntry> Decoded = decodeCacheEntry(Entry->getBuffer());
  if (!Decoded) {
    Why = "the cache entry " + entryPath(Key) + " is damaged (" +
          toString(Decoded.takeError()) +
          "); it is removed and the image "
          "relinked";
    Entry.reset();
    (void)sys::fs::remove(entryPath(Key));
    return false;
  }
  // Stale: something the link read or ran has changed since. The entry
  // makes room for the image linked now.
  Stale = findChangedRead(Decoded->Reads);
  if (!Stale.empty()) {
    Entry.reset();
    (void)sys::fs::remove(entryPath(Key));
    return false;
  }
  StringRef Image = Decoded->Image;
  std::error_code EC;
  raw_fd_ostream OS(Output, EC, sys::fs::OF_None);
  if (EC)
    return createStringError("cannot write the cached device image to '" +
                             Output + "': " + EC.message());
  OS << Image;
  OS.close();
  if (OS.has_error())
    return createStringError("cannot write the cached device image to '" +
                             Output + "': " + OS.error().message());
  return true;
}

Error DeviceLinkCache::store(StringRef Key, StringRef Output,
                             ArrayRef<RecordedRead> Reads) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Image =
      MemoryBuffer::getFile(Output, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  if (!Image)
    return createStringError("cannot read the linked image '" + Output +
                             "': " + Image.getError().message());
  Found.reset();
  Expected<AddStreamFn> StreamOrErr = Cache(0, Key, Output);
  if (!StreamOrErr)
    return StreamOrErr.takeError();
  Found.reset();
  if (!*StreamOrErr)
    return Error::success(); // Another link stored it meanwhile.
  Expected<std::unique_ptr<CachedFileStream>> FileOrErr =
      (*StreamOrErr)(0, Output);
  if (!FileOrErr)
    return FileOrErr.takeError();
  *(*FileOrErr)->OS << encodeCacheEntry((*Image)->getBuffer(), Reads);
  Error E = (*FileOrErr)->commit();
  Found.reset();
  return E;
}

void DeviceLinkCache::prune() { (void)pruneCache(Directory, Policy); }

namespace {

class CachingDeviceLinker final : public DeviceLinker {
public:
  CachingDeviceLinker(std::unique_ptr<DeviceLinker> Inner,
                      std::shared_ptr<DeviceLinkCache> Cache,
                      const ToolchainPaths &Paths,
                      std::function<void(const std::string &)> Report)
      : Inner(std::move(Inner)), Cache(std::move(Cache)), Paths(Paths),
        Report(std::move(Report)) {}

  Expected<DeviceLinkDependencies>
  dependencies(const DeviceLinkJob &Job) const override {
    return Inner->dependencies(Job);
  }

  Error link(const DeviceLinkJob &Job, CommandRunner &Runner) const override {
    if (Runner.isDryRun())
      return onDisk(Job, [&](const DeviceLinkJob &OnDisk) {
        return Inner->link(OnDisk, Runner);
      });
    Expected<std::string> KeyOrErr = keyOf(Job);
    if (!KeyOrErr) {
      say("not cached: " + toString(KeyOrErr.takeError()));
      return onDisk(Job, [&](const DeviceLinkJob &OnDisk) {
        return Inner->link(OnDisk, Runner);
      });
    }
    std::string Why, Stale;
    Expected<bool> Hit = Cache->fetch(*KeyOrErr, Job.Output, Why, Stale);
    if (!Hit)
      return Hit.takeError();
    if (!Why.empty())
      warn(Why);
    if (*Hit) {
      say("device link cache hit for " + Job.describe() + " (" +
          Cache->entryPath(*KeyOrErr) + ")");
      return Error::success();
    }
    say("device link cache miss for " + Job.describe() + " (key " + *KeyOrErr +
        (Stale.empty() ? "" : "; " + Stale) + ")");
    std::vector<RecordedRead> Reads;
    std::string Unrecorded;
    if (Error E = onDisk(Job, [&](const DeviceLinkJob &OnDisk) -> Error {
          Expected<DeviceLinkDependencies> Read =
              Inner->linkRecordingReads(OnDisk, Runner);
          if (!Read)
            return Read.takeError();
          Unrecorded = Read->Unrecorded;
          Reads = recordReads(*Read);
          return Error::success();
        }))
      return E;
    if (!Unrecorded.empty()) {
      say("not cached: " + Unrecorded);
      return Error::success();
    }
    if (Error E = Cache->store(*KeyOrErr, Job.Output, Reads))
      warn("the device image of " + Job.describe() + " was not cached in " +
           Cache->directory() + ": " + toString(std::move(E)));
    return Error::success();
  }

private:
  Expected<std::string> keyOf(const DeviceLinkJob &Job) const {
    Expected<DeviceLinkDependencies> Deps = Inner->dependencies(Job);
    if (!Deps)
      return Deps.takeError();
    return computeDeviceLinkKey(Job, Paths, *Deps);
  }

  /// Runs \p Link on \p Job with its inputs on disk, writing them first if
  /// the job left that to us.
  Error onDisk(const DeviceLinkJob &Job,
               function_ref<Error(const DeviceLinkJob &)> Link) const {
    if (!Job.WriteInputs)
      return Link(Job);
    Expected<std::vector<std::string>> PathsOrErr = Job.WriteInputs();
    if (!PathsOrErr)
      return PathsOrErr.takeError();
    DeviceLinkJob OnDisk = Job;
    OnDisk.Inputs = std::move(*PathsOrErr);
    OnDisk.WriteInputs = nullptr;
    return Link(OnDisk);
  }

  void say(const std::string &Line) const {
    if (Report)
      Report(Line);
  }
  static void warn(const std::string &Line) {
    static std::mutex Lock;
    std::lock_guard<std::mutex> Guard(Lock);
    errs() << "clang-linker-wrapper: warning: " << Line << "\n";
  }

  std::unique_ptr<DeviceLinker> Inner;
  std::shared_ptr<DeviceLinkCache> Cache;
  ToolchainPaths Paths;
  std::function<void(const std::string &)> Report;
};

} // namespace

std::unique_ptr<DeviceLinker>
createCachingDeviceLinker(std::unique_ptr<DeviceLinker> Inner,
                          std::shared_ptr<DeviceLinkCache> Cache,
                          const ToolchainPaths &Paths,
                          std::function<void(const std::string &)> Report) {
  return std::make_unique<CachingDeviceLinker>(
      std::move(Inner), std::move(Cache), Paths, std::move(Report));
}

} // namespace wrapper
