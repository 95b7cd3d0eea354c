//===- TempFilesTest.cpp - Intermediate files of the wrapper --------------===//
//
// The write helpers report a failing write as an error naming the file
// (a stream left with its error set would abort the whole link instead),
// and a device link's scoped intermediates disappear with their guard.
//
//===----------------------------------------------------------------------===//

#include "TempFiles.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

using namespace llvm;
using namespace wrapper;

namespace {

TEST(TempFiles, FailedWriteIsAnErrorNamingTheFile) {
  // /dev/full accepts the open and fails every write with ENOSPC.
  if (!sys::fs::exists("/dev/full"))
    GTEST_SKIP() << "no /dev/full on this system";
  Error E = writeFile("/dev/full", "some device code");
  ASSERT_TRUE(bool(E));
  EXPECT_THAT(toString(std::move(E)),
              testing::HasSubstr("cannot write '/dev/full'"));
}

TEST(TempFiles, ScopedTempFileHoldsItsContentsUntilDestroyed) {
  SmallString<128> Dir;
  ASSERT_FALSE(sys::fs::createUniqueDirectory("tempfiles-test", Dir));
  SmallString<128> Model(Dir);
  sys::path::append(Model, "image");
  std::string Path;
  {
    Expected<ScopedTempFile> File =
        ScopedTempFile::create(Model, ".s", "ptx text");
    ASSERT_TRUE(bool(File)) << toString(File.takeError());
    Path = File->path();
    ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer = MemoryBuffer::getFile(Path);
    ASSERT_TRUE(bool(Buffer));
    EXPECT_EQ((*Buffer)->getBuffer(), "ptx text");
    EXPECT_THAT(Path, testing::EndsWith(".s"));
  }
  EXPECT_FALSE(sys::fs::exists(Path));
  EXPECT_FALSE(sys::fs::remove(Dir));
}

} // namespace
