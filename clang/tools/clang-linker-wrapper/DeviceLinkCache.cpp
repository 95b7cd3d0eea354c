//===- DeviceLinkCache.cpp - Reuse device links whose inputs are unchanged ===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "DeviceLinkCache.h"
#include "CommandRunner.h"
#include "WrapperOptions.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdlib>

using namespace llvm;

namespace wrapper {

thread_local std::unique_ptr<MemoryBuffer> DeviceLinkCache::Found;

namespace {

/// Bumped when the key or the entry format changes.
constexpr StringLiteral KeyVersion = "offload-device-link-cache-1";
constexpr StringLiteral EntryMagic = "OFFLDLC1";
constexpr size_t DigestSize = 32;
constexpr size_t HeaderSize = 8 /*magic*/ + 8 /*size*/ + DigestSize;

/// Feeds length-prefixed fields, so that ("ab","c") and ("a","bc") differ.
class KeyBuilder {
public:
  void add(StringRef Field) {
    uint64_t Size = Field.size();
    uint8_t Bytes[8];
    support::endian::write64le(Bytes, Size);
    Hash.update(ArrayRef<uint8_t>(Bytes, 8));
    Hash.update(Field);
  }
  void add(StringRef Name, ArrayRef<std::string> Values) {
    add(Name);
    add(std::to_string(Values.size()));
    for (const std::string &V : Values)
      add(V);
  }
  /// A file by content (device inputs, pass plugins).
  Error addContent(StringRef Path) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
        MemoryBuffer::getFile(Path, /*IsText=*/false,
                              /*RequiresNullTerminator=*/false);
    if (!Buffer)
      return createStringError("cannot read '" + Path +
                               "' for the device-link cache key: " +
                               Buffer.getError().message());
    add((*Buffer)->getBuffer());
    return Error::success();
  }
  /// A tool or library by identity: where it really is, its size and its
  /// modification time (reading compilers whole on every link would cost
  /// more than it saves).
  void addStamp(StringRef Path) {
    SmallString<256> Real;
    sys::fs::file_status Status;
    if (Path.empty() || sys::fs::real_path(Path, Real) ||
        sys::fs::status(Real, Status)) {
      add("missing:" + Path.str());
      return;
    }
    add(Real);
    add(std::to_string(Status.getSize()));
    add(std::to_string(Status.getLastModificationTime()
                           .time_since_epoch()
                           .count()));
  }
  /// Every file of a directory (the device runtime's), by identity.
  void addDirectoryStamps(StringRef Dir) {
    add(Dir);
    std::error_code EC;
    std::vector<std::string> Files;
    for (sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
         It.increment(EC))
      Files.push_back(It->path());
    llvm::sort(Files);
    for (const std::string &File : Files)
      addStamp(File);
  }
  std::string hex() {
    std::array<uint8_t, 32> Digest = Hash.final();
    return toHex(Digest, /*LowerCase=*/true);
  }

private:
  SHA256 Hash;
};

void anchor() {}

/// The tool that runs an NVPTX step: where the device linker would find it.
std::string findCudaTool(StringRef Name, const ToolchainPaths &Paths) {
  std::vector<std::string> Dirs;
  if (!Paths.CudaPath.empty())
    Dirs.push_back(Paths.CudaPath + "/bin");
  if (std::optional<std::string> Env = sys::Process::GetEnv("CUDA_PATH"))
    Dirs.push_back(*Env + "/bin");
  for (const std::string &Dir : Dirs) {
    SmallString<256> Candidate(Dir);
    sys::path::append(Candidate, Name);
    if (sys::fs::can_execute(Candidate))
      return Candidate.str().str();
  }
  if (ErrorOr<std::string> Found = sys::findProgramByName(Name))
    return *Found;
  SmallString<256> Default("/usr/local/cuda/bin");
  sys::path::append(Default, Name);
  return Default.str().str();
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

DeviceLinkCacheSettings
resolveDeviceLinkCacheSettings(const WrapperConfig &C) {
  DeviceLinkCacheSettings S;
  std::optional<std::string> Env =
      sys::Process::GetEnv(DeviceLinkCacheEnvironmentVariable);
  S.Enabled = C.UseCache && !C.DryRun && !(Env && isOff(*Env));
  S.Directory =
      C.CacheDir.empty() ? defaultDeviceLinkCacheDirectory() : C.CacheDir;
  S.Policy = C.CachePolicy.empty() ? DefaultDeviceLinkCachePolicy
                                   : C.CachePolicy;
  if (S.Directory.empty())
    S.Enabled = false;
  return S;
}

Expected<std::string> computeDeviceLinkKey(const DeviceLinkJob &Job,
                                           const ToolchainPaths &Paths) {
  KeyBuilder Key;
  Key.add(KeyVersion);
  Key.add(LLVM_VERSION_STRING);
  Key.add(Job.Triple.str());
  Key.add(Job.Arch);
  Key.add("inputs", {});
  if (!Job.InputContents.empty()) {
    for (StringRef Contents : Job.InputContents)
      Key.add(Contents);
  } else {
    for (const std::string &Input : Job.Inputs)
      if (Error E = Key.addContent(Input))
        return std::move(E);
  }
  Key.add("pass-plugins", {});
  for (const std::string &Plugin : Job.PassPlugins)
    if (Error E = Key.addContent(Plugin))
      return std::move(E);
  Key.add("required-symbols", Job.RequiredSymbols);
  Key.add("linker-args", Job.LinkerArgs);
  Key.add("compiler-args", Job.CompilerArgs);
  Key.add("llvm-args", Job.LLVMArgs);
  // The tools and libraries the link runs or links.
  Key.addStamp(sys::fs::getMainExecutable(nullptr,
                                          reinterpret_cast<void *>(&anchor)));
  Key.addStamp(Paths.Clang);
  Key.add(Paths.LLVMLibDir);
  Key.addStamp(Paths.LLVMLibDir + "/libomp.so");
  Key.addDirectoryStamps(Paths.deviceLibDir(Job.Triple));
  if (Job.Triple.isNVPTX()) {
    Key.addStamp(findCudaTool("ptxas", Paths));
    Key.addStamp(findCudaTool("nvlink", Paths));
  }
  return Key.hex();
}

std::string encodeCacheEntry(StringRef Image) {
  std::string Entry;
  Entry.reserve(HeaderSize + Image.size());
  Entry += EntryMagic;
  char Size[8];
  support::endian::write64le(Size, Image.size());
  Entry.append(Size, 8);
  std::array<uint8_t, 32> Digest = SHA256::hash(
      ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(Image.data()),
                        Image.size()));
  Entry.append(reinterpret_cast<const char *>(Digest.data()), DigestSize);
  Entry += Image;
  return Entry;
}

Expected<StringRef> decodeCacheEntry(StringRef Entry) {
  if (Entry.size() < HeaderSize || !Entry.starts_with(EntryMagic))
    return createStringError("not a device-link cache entry (" +
                             Twine(Entry.size()) + " bytes)");
  uint64_t Size = support::endian::read64le(Entry.data() + 8);
  StringRef Image = Entry.substr(HeaderSize);
  if (Image.size() != Size)
    return createStringError("truncated: " + Twine(Image.size()) + " of " +
                             Twine(Size) + " bytes");
  std::array<uint8_t, 32> Digest = SHA256::hash(
      ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(Image.data()),
                        Image.size()));
  if (StringRef(reinterpret_cast<const char *>(Digest.data()), DigestSize) !=
      Entry.substr(16, DigestSize))
    return createStringError("its checksum does not match its contents");
  return Image;
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
  return std::unique_ptr<DeviceLinkCache>(
      new DeviceLinkCache(Directory.str(), *PolicyOrErr, std::move(*CacheOrErr)));
}

std::string DeviceLinkCache::entryPath(StringRef Key) const {
  SmallString<256> Path(Directory);
  sys::path::append(Path, "llvmcache-" + Key);
  return Path.str().str();
}

Expected<bool> DeviceLinkCache::fetch(StringRef Key, StringRef Output,
                                      std::string &Why) {
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
  Expected<StringRef> Image = decodeCacheEntry(Entry->getBuffer());
  if (!Image) {
    Why = "the cache entry " + entryPath(Key) + " is damaged (" +
          toString(Image.takeError()) + "); it is removed and the image "
          "relinked";
    Entry.reset();
    (void)sys::fs::remove(entryPath(Key));
    return false;
  }
  std::error_code EC;
  raw_fd_ostream OS(Output, EC, sys::fs::OF_None);
  if (EC)
    return createStringError("cannot write the cached device image to '" +
                             Output + "': " + EC.message());
  OS << *Image;
  OS.close();
  if (OS.has_error())
    return createStringError("cannot write the cached device image to '" +
                             Output + "': " + OS.error().message());
  return true;
}

Error DeviceLinkCache::store(StringRef Key, StringRef Output) {
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
  *(*FileOrErr)->OS << encodeCacheEntry((*Image)->getBuffer());
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

  Error link(const DeviceLinkJob &Job, CommandRunner &Runner) const override {
    if (Runner.isDryRun())
      return linkInputsOnDisk(Job, Runner);
    Expected<std::string> KeyOrErr = computeDeviceLinkKey(Job, Paths);
    if (!KeyOrErr) {
      say("not cached: " + toString(KeyOrErr.takeError()));
      return linkInputsOnDisk(Job, Runner);
    }
    std::string Why;
    Expected<bool> Hit = Cache->fetch(*KeyOrErr, Job.Output, Why);
    if (!Hit)
      return Hit.takeError();
    if (!Why.empty())
      warn(Why);
    if (*Hit) {
      say("device link cache hit for " + Job.describe() + " (" +
          Cache->entryPath(*KeyOrErr) + ")");
      return Error::success();
    }
    say("device link cache miss for " + Job.describe() + " (key " +
        *KeyOrErr + ")");
    if (Error E = linkInputsOnDisk(Job, Runner))
      return E;
    if (Error E = Cache->store(*KeyOrErr, Job.Output))
      warn("the device image of " + Job.describe() +
           " was not cached in " + Cache->directory() + ": " +
           toString(std::move(E)));
    return Error::success();
  }

private:
  /// The inner link, after writing the inputs if the job left that to us.
  Error linkInputsOnDisk(const DeviceLinkJob &Job,
                         CommandRunner &Runner) const {
    if (!Job.WriteInputs)
      return Inner->link(Job, Runner);
    Expected<std::vector<std::string>> PathsOrErr = Job.WriteInputs();
    if (!PathsOrErr)
      return PathsOrErr.takeError();
    DeviceLinkJob OnDisk = Job;
    OnDisk.Inputs = std::move(*PathsOrErr);
    OnDisk.WriteInputs = nullptr;
    return Inner->link(OnDisk, Runner);
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
  return std::make_unique<CachingDeviceLinker>(std::move(Inner),
                                               std::move(Cache), Paths,
                                               std::move(Report));
}

} // namespace wrapper
