//===- DeviceLinkCacheTest.cpp - The wrapper's device-link cache ----------===//
//
// Entries are checked before use (size and SHA-256 of the image), keys
// change with every device input and option, and an entry stored by one
// cache is found by another opened on the same directory.
//
//===----------------------------------------------------------------------===//

#include "CommandRunner.h"
#include "DeviceLinkCache.h"
#include "TempFiles.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

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
  std::string Image = "\x7f" "ELF device image bytes";
  std::string Entry = encodeCacheEntry(Image);
  Expected<StringRef> Decoded = decodeCacheEntry(Entry);
  ASSERT_TRUE(bool(Decoded));
  EXPECT_EQ(*Decoded, Image);

  // Truncated, shorter than a header, a flipped payload byte, a flipped
  // checksum byte: all refused, with a reason.
  auto Refused = [](StringRef Bytes) {
    Expected<StringRef> R = decodeCacheEntry(Bytes);
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
  Flipped[20] ^= 1;
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

  auto Key = [&](const DeviceLinkJob &J) {
    Expected<std::string> K = computeDeviceLinkKey(J, Paths);
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

  DeviceLinkJob Missing = Job;
  Missing.Inputs = {pathIn(Dir, "absent.o")};
  Expected<std::string> Failed = computeDeviceLinkKey(Missing, Paths);
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
  std::string Why;

  Expected<bool> Hit = (*Cache)->fetch(Key, Output, Why);
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
  Hit = (*Other)->fetch(Key, Output, Why);
  ASSERT_TRUE(bool(Hit));
  EXPECT_TRUE(*Hit);
  EXPECT_EQ(readAll(Output), "linked image");
  EXPECT_TRUE(Why.empty());

  // A damaged entry is a miss, said, and removed.
  ASSERT_FALSE(
      bool(writeFile((*Cache)->entryPath(Key), "OFFLDLC1 not really")));
  Hit = (*Cache)->fetch(Key, Output, Why);
  ASSERT_TRUE(bool(Hit));
  EXPECT_FALSE(*Hit);
  EXPECT_THAT(Why, testing::HasSubstr("is damaged"));
  EXPECT_FALSE(sys::fs::exists((*Cache)->entryPath(Key)));
}

/// Stands in for a real device linker: concatenates its input files into
/// the output and counts its calls.
class ConcatenatingLinker final : public DeviceLinker {
public:
  explicit ConcatenatingLinker(int &Calls) : Calls(Calls) {}
  Error link(const DeviceLinkJob &Job, CommandRunner &) const override {
    ++Calls;
    std::string Image;
    for (const std::string &Input : Job.Inputs)
      Image += readAll(Input);
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
  Expected<std::string> FromFiles = computeDeviceLinkKey(OnDisk, Paths);
  Expected<std::string> FromMemory = computeDeviceLinkKey(Job, Paths);
  ASSERT_TRUE(FromFiles && FromMemory);
  EXPECT_EQ(*FromFiles, *FromMemory);
}

TEST(DeviceLinkCache, BadPolicyIsAnErrorNamingIt) {
  Expected<std::unique_ptr<DeviceLinkCache>> Cache =
      DeviceLinkCache::open("/nonexistent", "prune_after=soon");
  ASSERT_FALSE(bool(Cache));
  EXPECT_THAT(toString(Cache.takeError()),
              testing::HasSubstr("prune_after=soon"));
}

} // namespace
