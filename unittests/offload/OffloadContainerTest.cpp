//===- OffloadContainerTest.cpp - The runtime's OffloadBinary reader -----===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The runtime reads the container without LLVM; these tests write it with
// LLVM's own writer, so a layout change in LLVM shows up here.
//
//===----------------------------------------------------------------------===//

#include "images/OffloadContainer.h"

#include "llvm/Object/OffloadBinary.h"
#include "llvm/Support/MemoryBuffer.h"

#include "gtest/gtest.h"

#include <cstring>

using namespace llvm;
using namespace llvm::object;

namespace {

/// A container written by LLVM holding \p ImageBytes for sm_90.
std::string writeContainer(StringRef ImageBytes) {
  OffloadBinary::OffloadingImage Image;
  Image.TheImageKind = IMG_Cubin;
  Image.TheOffloadKind = OFK_OpenMP;
  Image.StringData["triple"] = "nvptx64-nvidia-cuda";
  Image.StringData["arch"] = "sm_90";
  Image.StringData["feature"] = "+ptx80";
  std::unique_ptr<MemoryBuffer> Image0 =
      MemoryBuffer::getMemBufferCopy(ImageBytes);
  Image.Image = std::move(Image0);
  SmallString<0> Bytes = OffloadBinary::write(Image);
  return std::string(Bytes.str());
}

TEST(OffloadContainer, ReadsWhatLLVMWrites) {
  std::string Bytes = writeContainer("\x7f" "ELF device image bytes");
  ASSERT_TRUE(offload::hasOffloadContainerMagic(Bytes));
  offload::OffloadContainer C;
  std::string Error;
  ASSERT_TRUE(offload::readOffloadContainer(Bytes, C, Error)) << Error;
  EXPECT_EQ(C.Image, "\x7f" "ELF device image bytes");
  EXPECT_EQ(C.Triple, "nvptx64-nvidia-cuda");
  EXPECT_EQ(C.Arch, "sm_90");
  // The image is a view into the caller's bytes, not a copy.
  EXPECT_GE(C.Image.data(), Bytes.data());
  EXPECT_LE(C.Image.data() + C.Image.size(), Bytes.data() + Bytes.size());
}

TEST(OffloadContainer, AcceptsTrailingBytes) {
  // Registered ranges may be padded past the container.
  std::string Bytes = writeContainer("image") + std::string(24, '\0');
  offload::OffloadContainer C;
  std::string Error;
  ASSERT_TRUE(offload::readOffloadContainer(Bytes, C, Error)) << Error;
  EXPECT_EQ(C.Image, "image");
}

TEST(OffloadContainer, RawImagesHaveNoMagic) {
  EXPECT_FALSE(offload::hasOffloadContainerMagic("\x7f" "ELF"));
  EXPECT_FALSE(offload::hasOffloadContainerMagic(""));
}

/// Overwrites the 8-byte field at \p Offset of \p Bytes.
void poke64(std::string &Bytes, size_t Offset, uint64_t Value) {
  std::memcpy(&Bytes[Offset], &Value, sizeof(Value));
}

TEST(OffloadContainer, RejectsCorruptContainers) {
  const std::string Good = writeContainer("image bytes");
  uint64_t EntryOffset;
  std::memcpy(&EntryOffset, Good.data() + 16, sizeof(EntryOffset));

  struct Case {
    const char *What;
    std::string Bytes;
    const char *Expected;
  };
  std::vector<Case> Cases;
  Cases.push_back({"truncated header", Good.substr(0, 20), "no offload"});
  Cases.push_back({"truncated body", Good.substr(0, Good.size() - 8),
                   "does not fit"});
  std::string BadVersion = Good;
  BadVersion[4] = 9;
  Cases.push_back({"version", BadVersion, "version 9"});
  std::string BadEntry = Good;
  poke64(BadEntry, 16, Good.size());
  Cases.push_back({"entry offset", BadEntry, "entry"});
  std::string BadImage = Good;
  poke64(BadImage, EntryOffset + 32, uint64_t(1) << 40); // ImageSize
  Cases.push_back({"image size", BadImage, "image"});
  std::string BadStrings = Good;
  poke64(BadStrings, EntryOffset + 16, uint64_t(1) << 60); // NumStrings
  Cases.push_back({"string count", BadStrings, "string table"});
  std::string Unterminated = Good;
  uint64_t StringOffset;
  std::memcpy(&StringOffset, Good.data() + EntryOffset + 8, 8);
  poke64(Unterminated, StringOffset, Good.size() - 1); // Key at the last byte
  Unterminated.back() = 'x';
  Cases.push_back({"unterminated key", Unterminated, "malformed"});

  for (const Case &C : Cases) {
    offload::OffloadContainer Out;
    std::string Error;
    EXPECT_FALSE(offload::readOffloadContainer(C.Bytes, Out, Error))
        << C.What;
    EXPECT_NE(Error.find(C.Expected), std::string::npos)
        << C.What << ": " << Error;
  }
}

} // namespace
