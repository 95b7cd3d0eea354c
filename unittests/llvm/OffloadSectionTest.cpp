//===- OffloadSectionTest.cpp - Reading .llvm.offloading sections ---------===//

#include "offload/Offloading/OffloadSection.h"
#include "TestHelpers.h"

#include "llvm/Object/OffloadBinary.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

#include <cstring>

using namespace llvm;
using namespace llvm::object;
using namespace offload;
using ::testing::HasSubstr;

namespace {

std::string makeBinary(StringRef Triple, StringRef Arch, StringRef Image) {
  OffloadBinary::OffloadingImage Entry;
  Entry.TheImageKind = IMG_Object;
  Entry.TheOffloadKind = OFK_OpenMP;
  Entry.StringData["triple"] = Triple;
  Entry.StringData["arch"] = Arch;
  Entry.Image = MemoryBuffer::getMemBuffer(Image, "", false);
  SmallString<0> Data = OffloadBinary::write(Entry);
  return std::string(Data.str());
}

/// Two records back to back, each at an 8-byte boundary, as the linker
/// concatenates them.
std::string twoRecords(std::string First, const std::string &Second) {
  First.resize(alignTo(First.size(), 8), '\0');
  return First + Second;
}

std::string readError(StringRef Section) {
  SmallVector<OffloadFile, 2> Images;
  return offload_test::errorMessage(
      readOffloadSection(Section, "fat.o", Images));
}

TEST(OffloadSection, ReadsEveryRecord) {
  std::string Section =
      twoRecords(makeBinary("x86_64-pc-linux-gnu", "generic", "cpu image"),
                 makeBinary("nvptx64-nvidia-cuda", "sm_90", "gpu image bytes"));
  SmallVector<OffloadFile, 2> Images;
  Error E = readOffloadSection(Section, "fat.o", Images);
  ASSERT_NO_ERROR(std::move(E));
  ASSERT_EQ(Images.size(), 2u);
  EXPECT_EQ(Images[0].getBinary()->getTriple(), "x86_64-pc-linux-gnu");
  EXPECT_EQ(Images[0].getBinary()->getArch(), "generic");
  EXPECT_EQ(Images[0].getBinary()->getImage(), "cpu image");
  EXPECT_EQ(Images[1].getBinary()->getTriple(), "nvptx64-nvidia-cuda");
  EXPECT_EQ(Images[1].getBinary()->getImage(), "gpu image bytes");
}

TEST(OffloadSection, EmptySectionHasNoImages) {
  SmallVector<OffloadFile, 2> Images;
  Error E = readOffloadSection("", "fat.o", Images);
  ASSERT_NO_ERROR(std::move(E));
  EXPECT_TRUE(Images.empty());
}

TEST(OffloadSection, TruncatedHeader) {
  std::string Record = makeBinary("x86_64-pc-linux-gnu", "generic", "img");
  EXPECT_THAT(readError(StringRef(Record).take_front(12)),
              HasSubstr("fat.o: corrupt .llvm.offloading section at offset 0: "
                        "truncated: only 12 bytes left"));
}

TEST(OffloadSection, TruncatedRecord) {
  std::string Record = makeBinary("x86_64-pc-linux-gnu", "generic", "img");
  EXPECT_THAT(readError(StringRef(Record).drop_back(3)),
              HasSubstr("at offset 0: truncated: the offload binary claims"));
}

TEST(OffloadSection, BadMagicInSecondRecordNamesItsOffset) {
  std::string First = makeBinary("x86_64-pc-linux-gnu", "generic", "a");
  std::string Second = makeBinary("x86_64-pc-linux-gnu", "generic", "b");
  Second[0] = 'X';
  uint64_t SecondOffset = alignTo(First.size(), 8);
  EXPECT_THAT(readError(twoRecords(First, Second)),
              HasSubstr("at offset " + std::to_string(SecondOffset) +
                        ": no offload binary magic"));
}

/// Overwrites the 64-bit field at \p Offset of \p Data.
void poke64(std::string &Data, size_t Offset, uint64_t Value) {
  std::memcpy(&Data[Offset], &Value, sizeof(Value));
}

TEST(OffloadSection, OffsetsOutsideTheRecord) {
  std::string Record = makeBinary("x86_64-pc-linux-gnu", "generic", "img");
  OffloadBinary::Header H;
  std::memcpy(&H, Record.data(), sizeof(H));

  std::string BadEntry = Record;
  poke64(BadEntry, offsetof(OffloadBinary::Header, EntryOffset), 1ull << 40);
  EXPECT_THAT(readError(BadEntry), HasSubstr("entry offset 1099511627776"));

  std::string BadImage = Record;
  poke64(BadImage, H.EntryOffset + offsetof(OffloadBinary::Entry, ImageSize),
         1ull << 20);
  EXPECT_THAT(readError(BadImage), HasSubstr("image offset"));

  std::string BadStrings = Record;
  poke64(BadStrings, H.EntryOffset + offsetof(OffloadBinary::Entry, NumStrings),
         1ull << 50);
  EXPECT_THAT(readError(BadStrings), HasSubstr("string table offset"));

  std::string BadKey = Record;
  OffloadBinary::Entry E;
  std::memcpy(&E, Record.data() + H.EntryOffset, sizeof(E));
  poke64(BadKey, E.StringOffset, Record.size() + 5);
  EXPECT_THAT(readError(BadKey), HasSubstr("string 0 at offset"));
}

TEST(OffloadSection, ValidateAcceptsWrittenBinaries) {
  Error E = validateOffloadBinary(
      makeBinary("amdgcn-amd-amdhsa", "gfx90a", std::string(1000, 'x')));
  ASSERT_NO_ERROR(std::move(E));
}

} // namespace
