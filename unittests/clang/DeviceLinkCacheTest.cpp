//===- DeviceLinkCacheTest.cpp - The wrapper's device-link cache ----------===//
//
// Entries are checked before use (size and SHA-256 of the image), keys
// change with every device input and option, and an entry stored by one
// cache is found by another opened on the same directory.
//
//===----------------------------------------------------------------------===//

#include "DeviceLinkCache.h"
#include "CommandRunner.h"
#include "TempFiles.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

#include <chrono>
#include <cstdlib>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

using namespace llvm;
using namespace wrapper;

namespace {

std::string makeDirectory() {
  SmallString<128> Dir;
  EXPECT_FALSE(sys::fs::createUniqueDirectory("device-link-cache-test", Dir));
  return Dir.str().str();
}

std::string pathIn(StringRef Dir, StringRef Name) {
  SmallString<128> Path(Dir);
  sys::path::append(Path, Name);
  return Path.str().str();
}

std::string readAll(StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer = MemoryBuffer::getFile(Path);
  return Buffer ? (*Buffer)->getBuffer().str() : "<unreadable>";
}

TEST(DeviceLinkCache, EntriesRoundTripAndDamageIsDetected) {
  std::string Image = "\x7f"
                      "ELF device image bytes";
  std::string Entry = encodeCacheEntry(Image);
  Expected<CacheEntry> Decoded = decodeCacheEntry(Entry);
  ASSERT_TRUE(bool(Decoded));
  EXPECT_EQ(Decoded->Image, Image);
  EXPECT_TRUE(Decoded->Reads.empty());

  // The record of what the link read travels with the image.
  RecordedRead Lib{"/lib/libdev.a", ReadKind::File, 42, 7,
                   std::string(64, 'f')};
  RecordedRead Tool{"/usr/bin/ld", ReadKind::Program, 9, 8, "/usr/bin/ld.bfd"};
  std::string WithReads = encodeCacheEntry(Image, {Lib, Tool});
  Decoded = decodeCacheEntry(WithReads);
  ASSERT_TRUE(bool(Decoded));
  EXPECT_EQ(Decoded->Image, Image);
  ASSERT_EQ(Decoded->Reads.size(), 2u);
  EXPECT_EQ(Decoded->Reads[0].Path, "/lib/libdev.a");
  EXPECT_EQ(Decoded->Reads[0].Kind, ReadKind::File);
  EXPECT_EQ(Decoded->Reads[0].Size, 42u);
  EXPECT_EQ(Decoded->Reads[1].Digest, "/usr/bin/ld.bfd");
  EXPECT_EQ(Decoded->Reads[1].Kind, ReadKind::Program);

  // Truncated, shorter than a header, a flipped payload byte, a flipped
  // checksum byte: all refused, with a reason.
  auto Refused = [](StringRef Bytes) {
    Expected<CacheEntry> R = decodeCacheEntry(Bytes);
    if (R)
      return std::string("accepted");
    return toString(R.takeError());
  };
  EXPECT_THAT(Refused(StringRef(Entry).drop_back(3)),
              testing::HasSubstr("truncated"));
  EXPECT_THAT(Refused(StringRef(Entry).take_front(10)),
              testing::HasSubstr("not a device-link cache entry"));
  std::string Flipped = Entry;
  Flipped.back() ^= 1;
  EXPECT_THAT(Refused(Flipped), testing::HasSubstr("checksum"));
  Flipped = Entry;
  Flipped[30] ^= 1;
  EXPECT_THAT(Refused(Flipped), testing::HasSubstr("checksum"));
}

TEST(DeviceLinkCache, KeysFollowInputsAndOptions) {
  std::string Dir = makeDirectory();
  std::string Input = pathIn(Dir, "in.o");
  ASSERT_FALSE(bool(writeFile(Input, "device object 1")));
  ToolchainPaths Paths;
  Paths.Prefix = Dir;
  Paths.Clang = "/usr/bin/true";
  DeviceLinkJob Job;
  Job.Triple = Triple("x86_64-pc-linux-gnu");
  Job.Inputs = {Input};
  Job.Output = pathIn(Dir, "out.img");

  DeviceLinkDependencies Deps;
  auto Key = [&](const DeviceLinkJob &J) {
    Expected<std::string> K = computeDeviceLinkKey(J, Paths, Deps);
    EXPECT_TRUE(bool(K));
    return K ? *K : std::string();
  };
  std::string Base = Key(Job);
  EXPECT_EQ(Base.size(), 64u);
  EXPECT_EQ(Key(Job), Base) << "the key must be stable";
  // The output's name is not part of the key.
  DeviceLinkJob Renamed = Job;
  Renamed.Output = pathIn(Dir, "other.img");
  EXPECT_EQ(Key(Renamed), Base);

  DeviceLinkJob Changed = Job;
  Changed.LinkerArgs = {"--build-id"};
  EXPECT_NE(Key(Changed), Base);
  Changed = Job;
  Changed.LLVMArgs = {"-inline-threshold=7"};
  EXPECT_NE(Key(Changed), Base);
  Changed = Job;
  Changed.CompilerArgs = {"-O3"};
  EXPECT_NE(Key(Changed), Base);
  Changed = Job;
  Changed.Arch = "sm_90";
  EXPECT_NE(Key(Changed), Base);
  // Fields do not run into each other.
  DeviceLinkJob Split = Job, Joined = Job;
  Split.LinkerArgs = {"-a", "b"};
  Joined.LinkerArgs = {"-ab"};
  EXPECT_NE(Key(Split), Key(Joined));

  ASSERT_FALSE(bool(writeFile(Input, "device object 2")));
  EXPECT_NE(Key(Job), Base) << "changed device code must miss";

  // What the device linker says it reads (by content), runs (by identity)
  // and is steered by (the environment).
  Base = Key(Job);
  std::string Archive = pathIn(Dir, "libdev.a");
  ASSERT_FALSE(bool(writeFile(Archive, "!<arch>\ng() v1")));
  Deps.Files = {Archive};
  std::string WithArchive = Key(Job);
  EXPECT_NE(WithArchive, Base);
  ASSERT_FALSE(bool(writeFile(Archive, "!<arch>\ng() v2")));
  EXPECT_NE(Key(Job), WithArchive) << "a rebuilt archive must miss";
  std::string Tool = pathIn(Dir, "fake-ld");
  ASSERT_FALSE(bool(writeFile(Tool, "linker 1")));
  Deps.Tools = {Tool};
  std::string WithTool = Key(Job);
  ASSERT_FALSE(bool(writeFile(Tool, "linker 2, longer")));
  EXPECT_NE(Key(Job), WithTool) << "a changed tool must miss";
  Deps.Environment = {"OFFLOAD_CACHE_TEST_VARIABLE"};
  ::setenv("OFFLOAD_CACHE_TEST_VARIABLE", "1", 1);
  std::string WithEnv = Key(Job);
  ::setenv("OFFLOAD_CACHE_TEST_VARIABLE", "2", 1);
  EXPECT_NE(Key(Job), WithEnv);
  ::unsetenv("OFFLOAD_CACHE_TEST_VARIABLE");
  Deps = {};

  DeviceLinkJob Missing = Job;
  Missing.Inputs = {pathIn(Dir, "absent.o")};
  Expected<std::string> Failed = computeDeviceLinkKey(Missing, Paths, Deps);
  ASSERT_FALSE(bool(Failed));
  EXPECT_THAT(toString(Failed.takeError()), testing::HasSubstr("absent.o"));
}

TEST(DeviceLinkCache, StoreFetchAndDamagedEntries) {
  std::string Dir = makeDirectory();
  std::string CacheDir = pathIn(Dir, "cache");
  Expected<std::unique_ptr<DeviceLinkCache>> Cache =
      DeviceLinkCache::open(CacheDir, "");
  ASSERT_TRUE(bool(Cache));
  std::string Key(64, 'a');
  std::string Output = pathIn(Dir, "out.img");
  std::string Why, Stale;

  Expected<bool> Hit = (*Cache)->fetch(Key, Output, Why, Stale);
  ASSERT_TRUE(bool(Hit));
  EXPECT_FALSE(*Hit);
  EXPECT_FALSE(sys::fs::exists(CacheDir)) << "a miss creates nothing";

  ASSERT_FALSE(bool(writeFile(Output, "linked image")));
  ASSERT_FALSE(bool((*Cache)->store(Key, Output)));
  ASSERT_FALSE(bool(writeFile(Output, "")));

  // Another cache on the same directory finds it.
  Expected<std::unique_ptr<DeviceLinkCache>> Other =
      DeviceLinkCache::open(CacheDir, "");
  ASSERT_TRUE(bool(Other));
  Hit = (*Other)->fetch(Key, Output, Why, Stale);
  ASSERT_TRUE(bool(Hit));
  EXPECT_TRUE(*Hit);
  EXPECT_EQ(readAll(Output), "linked image");
  EXPECT_TRUE(Why.empty());

  // A damaged entry is a miss, said, and removed.
  ASSERT_FALSE(
      bool(writeFile((*Cache)->entryPath(Key), "OFFLDLC1 not really")));
  Hit = (*Cache)->fetch(Key, Output, Why, Stale);
  ASSERT_TRUE(bool(Hit));
  EXPECT_FALSE(*Hit);
  EXPECT_THAT(Why, testing::HasSubstr("is damaged"));
  EXPECT_FALSE(sys::fs::exists((*Cache)->entryPath(Key)));
}

TEST(DeviceLinkCache, EntriesWhoseReadsChangedAreStale) {
  std::string Dir = makeDirectory();
  Expected<std::unique_ptr<DeviceLinkCache>> Cache =
      DeviceLinkCache::open(pathIn(Dir, "cache"), "");
  ASSERT_TRUE(bool(Cache));
  std::string Key(64, 'b');
  std::string Output = pathIn(Dir, "out.img");
  std::string Library = pathIn(Dir, "libflang_rt.runtime.a");
  std::string Linker = pathIn(Dir, "ld");
  ASSERT_FALSE(bool(writeFile(Library, "runtime v1")));
  ASSERT_FALSE(bool(writeFile(Linker, "linker v1")));
  DeviceLinkDependencies Read;
  Read.Files = {Library, pathIn(Dir, "temporary-gone.o")};
  Read.Tools = {Linker};
  std::vector<RecordedRead> Reads = recordReads(Read);
  // The library, the linker and what PATH finds for its name.
  ASSERT_EQ(Reads.size(), 3u) << "files that are gone are not recorded";

  auto StoreAndFetch = [&]() {
    EXPECT_FALSE(bool(writeFile(Output, "linked image")));
    EXPECT_FALSE(bool((*Cache)->store(Key, Output, Reads)));
    std::string Why, Stale;
    Expected<bool> Hit = (*Cache)->fetch(Key, Output, Why, Stale);
    EXPECT_TRUE(bool(Hit));
    return Hit && *Hit ? std::string("hit") : "miss: " + Stale;
  };
  EXPECT_EQ(StoreAndFetch(), "hit");
  // A new time, the same contents: still the same library.
  sys::fs::file_status Status;
  ASSERT_FALSE(sys::fs::status(Library, Status));
  int FD;
  ASSERT_FALSE(sys::fs::openFileForWrite(Library, FD, sys::fs::CD_OpenExisting,
                                         sys::fs::OF_Append));
  ASSERT_FALSE(sys::fs::setLastAccessAndModificationTime(
      FD, Status.getLastModificationTime() + std::chrono::seconds(5)));
  sys::Process::SafelyCloseFileDescriptor(FD);
  EXPECT_EQ(StoreAndFetch(), "hit");
  // Rebuilt (same size, other bytes): stale, removed.
  ASSERT_FALSE(bool(writeFile(Library, "runtime v2")));
  EXPECT_THAT(StoreAndFetch(), testing::HasSubstr("libflang_rt.runtime.a' "
                                                  "changed"));
  EXPECT_FALSE(sys::fs::exists((*Cache)->entryPath(Key)));
  Reads = recordReads(Read);
  EXPECT_EQ(StoreAndFetch(), "hit");
  // Another linker: stale.
  ASSERT_FALSE(bool(writeFile(Linker, "linker v2, newer")));
  EXPECT_THAT(StoreAndFetch(), testing::HasSubstr("ld' changed"));
  Reads = recordReads(Read);
  ASSERT_FALSE(bool(sys::fs::remove(Library)));
  EXPECT_THAT(StoreAndFetch(), testing::HasSubstr("is gone"));
}

/// Stands in for a real device linker: concatenates its input files (and
/// the files it says it depends on) into the output and counts its calls.
class ConcatenatingLinker final : public DeviceLinker {
public:
  explicit ConcatenatingLinker(int &Calls) : Calls(Calls) {}
  DeviceLinkDependencies Deps;
  Expected<DeviceLinkDependencies>
  dependencies(const DeviceLinkJob &) const override {
    return Deps;
  }
  Error link(const DeviceLinkJob &Job, CommandRunner &) const override {
    ++Calls;
    std::string Image;
    for (const std::string &Input : Job.Inputs)
      Image += readAll(Input);
    for (const std::string &File : Deps.Files)
      Image += readAll(File);
    return writeFile(Job.Output, Image);
  }

private:
  int &Calls;
};

TEST(DeviceLinkCache, InputsInMemoryAreWrittenOnlyOnAMiss) {
  std::string Dir = makeDirectory();
  Expected<std::unique_ptr<DeviceLinkCache>> Opened =
      DeviceLinkCache::open(pathIn(Dir, "cache"), "");
  ASSERT_TRUE(bool(Opened));
  std::shared_ptr<DeviceLinkCache> Cache = std::move(*Opened);
  ToolchainPaths Paths;
  Paths.Prefix = Dir;
  Paths.Clang = "/usr/bin/true";
  int Links = 0;
  std::unique_ptr<DeviceLinker> Linker = createCachingDeviceLinker(
      std::make_unique<ConcatenatingLinker>(Links), Cache, Paths, nullptr);

  std::string First = "device object A", Second = "device object B";
  int Writes = 0;
  DeviceLinkJob Job;
  Job.Triple = Triple("x86_64-pc-linux-gnu");
  Job.InputContents = {First, Second};
  Job.WriteInputs = [&]() -> Expected<std::vector<std::string>> {
    ++Writes;
    std::vector<std::string> Files = {pathIn(Dir, "a.o"), pathIn(Dir, "b.o")};
    if (Error E = writeFile(Files[0], First))
      return std::move(E);
    if (Error E = writeFile(Files[1], Second))
      return std::move(E);
    return Files;
  };
  Job.Output = pathIn(Dir, "out1.img");
  CommandRunner Runner(/*Verbose=*/false, /*DryRun=*/false);

  ASSERT_FALSE(bool(Linker->link(Job, Runner)));
  EXPECT_EQ(Links, 1);
  EXPECT_EQ(Writes, 1) << "a miss writes the inputs for the real link";
  EXPECT_EQ(readAll(Job.Output), First + Second);

  Job.Output = pathIn(Dir, "out2.img");
  ASSERT_FALSE(bool(Linker->link(Job, Runner)));
  EXPECT_EQ(Links, 1) << "the second link must be a hit";
  EXPECT_EQ(Writes, 1) << "a hit writes no input file";
  EXPECT_EQ(readAll(Job.Output), First + Second);

  // The key does not depend on where the inputs come from.
  DeviceLinkJob OnDisk = Job;
  OnDisk.InputContents.clear();
  OnDisk.WriteInputs = nullptr;
  OnDisk.Inputs = {pathIn(Dir, "a.o"), pathIn(Dir, "b.o")};
  Expected<std::string> FromFiles = computeDeviceLinkKey(OnDisk, Paths, {});
  Expected<std::string> FromMemory = computeDeviceLinkKey(Job, Paths, {});
  ASSERT_TRUE(FromFiles && FromMemory);
  EXPECT_EQ(*FromFiles, *FromMemory);
}

TEST(DeviceLinkCache, ALinkerArchiveRebuiltMisses) {
  std::string Dir = makeDirectory();
  Expected<std::unique_ptr<DeviceLinkCache>> Opened =
      DeviceLinkCache::open(pathIn(Dir, "cache"), "");
  ASSERT_TRUE(bool(Opened));
  ToolchainPaths Paths;
  Paths.Prefix = Dir;
  Paths.Clang = "/usr/bin/true";
  int Links = 0;
  auto Inner = std::make_unique<ConcatenatingLinker>(Links);
  std::string Archive = pathIn(Dir, "libdev.a");
  Inner->Deps.Files = {Archive};
  std::unique_ptr<DeviceLinker> Linker = createCachingDeviceLinker(
      std::move(Inner), std::move(*Opened), Paths, nullptr);
  std::string Input = pathIn(Dir, "k.o");
  ASSERT_FALSE(bool(writeFile(Input, "kernel calls g;")));
  DeviceLinkJob Job;
  Job.Triple = Triple("x86_64-pc-linux-gnu");
  Job.Inputs = {Input};
  Job.LinkerArgs = {"libdev.a"};
  Job.Output = pathIn(Dir, "out.img");
  CommandRunner Runner(/*Verbose=*/false, /*DryRun=*/false);

  ASSERT_FALSE(bool(writeFile(Archive, "g v1")));
  ASSERT_FALSE(bool(Linker->link(Job, Runner)));
  ASSERT_FALSE(bool(Linker->link(Job, Runner)));
  EXPECT_EQ(Links, 1);
  ASSERT_FALSE(bool(writeFile(Archive, "g v2")));
  ASSERT_FALSE(bool(Linker->link(Job, Runner)));
  EXPECT_EQ(Links, 2) << "the rebuilt archive must be linked again";
  EXPECT_EQ(readAll(Job.Output), "kernel calls g;g v2");
}

/// An executable script at \p Path saying \p Text.
void writeTool(const std::string &Path, StringRef Text) {
  ASSERT_FALSE(bool(writeFile(Path, ("#!/bin/sh\n# " + Text + "\n").str())));
  ASSERT_FALSE(sys::fs::setPermissions(
      Path, sys::fs::all_read | sys::fs::all_exe | sys::fs::owner_write));
}

TEST(DeviceLinkCache, GPULinksKeyTheToolsAndArchivesTheyUse) {
  std::string Dir = makeDirectory();
  std::string Cuda = pathIn(Dir, "cuda"), Bin = pathIn(Dir, "cuda/bin");
  std::string LLVMBin = pathIn(Dir, "llvm-bin"), Libs = pathIn(Dir, "libs");
  for (const std::string &D : {Bin, LLVMBin, Libs})
    ASSERT_FALSE(sys::fs::create_directories(D));
  writeTool(pathIn(Bin, "ptxas"), "ptxas 1");
  writeTool(pathIn(Bin, "nvlink"), "nvlink 1");
  writeTool(pathIn(LLVMBin, "ld.lld"), "lld 1");
  ASSERT_FALSE(bool(writeFile(pathIn(Libs, "libdev.a"), "!<arch>\nv1")));
  ToolchainPaths Paths;
  Paths.Prefix = Dir;
  Paths.Clang = pathIn(LLVMBin, "clang");
  Paths.CudaPath = Cuda;

  auto KeyOf = [&](StringRef TripleName, StringRef Arch) {
    DeviceLinkJob Job;
    Job.Triple = Triple(TripleName);
    Job.Arch = Arch.str();
    Job.InputContents = {"device bitcode"};
    Job.LinkerArgs = {"-L" + Libs, "-ldev"};
    Expected<std::unique_ptr<DeviceLinker>> Linker =
        createDeviceLinker(Job.Triple, Paths);
    EXPECT_TRUE(bool(Linker));
    if (!Linker)
      return std::string();
    Expected<DeviceLinkDependencies> Deps = (*Linker)->dependencies(Job);
    EXPECT_TRUE(bool(Deps));
    if (!Deps)
      return toString(Deps.takeError());
    // The linker's own lookups: the tools of --cuda-path, the lld next to
    // clang, the archive -l names.
    EXPECT_THAT(Deps->Files, testing::Contains(testing::HasSubstr("libdev.a")));
    Expected<std::string> Key = computeDeviceLinkKey(Job, Paths, *Deps);
    EXPECT_TRUE(bool(Key));
    return Key ? *Key : std::string();
  };
  std::string Nvptx = KeyOf("nvptx64-nvidia-cuda", "sm_90");
  std::string Amd = KeyOf("amdgcn-amd-amdhsa", "gfx90a");
  writeTool(pathIn(Bin, "ptxas"), "ptxas 2, a new toolkit");
  EXPECT_NE(KeyOf("nvptx64-nvidia-cuda", "sm_90"), Nvptx)
      << "another ptxas must miss";
  Nvptx = KeyOf("nvptx64-nvidia-cuda", "sm_90");
  writeTool(pathIn(LLVMBin, "ld.lld"), "lld 2, a new release");
  EXPECT_NE(KeyOf("amdgcn-amd-amdhsa", "gfx90a"), Amd) << "another lld";
  Amd = KeyOf("amdgcn-amd-amdhsa", "gfx90a");
  ASSERT_FALSE(bool(writeFile(pathIn(Libs, "libdev.a"), "!<arch>\nv2")));
  EXPECT_NE(KeyOf("nvptx64-nvidia-cuda", "sm_90"), Nvptx)
      << "a rebuilt -l archive must miss";
  EXPECT_NE(KeyOf("amdgcn-amd-amdhsa", "gfx90a"), Amd);
}

TEST(DeviceLinkCache, BadPolicyIsAnErrorNamingIt) {
  Expected<std::unique_ptr<DeviceLinkCache>> Cache =
      DeviceLinkCache::open("/nonexistent", "prune_after=soon");
  ASSERT_FALSE(bool(Cache));
  EXPECT_THAT(toString(Cache.takeError()),
              testing::HasSubstr("prune_after=soon"));
}

} // namespace
