//===- AMDGPUCodeObjectMetadataTest.cpp - Kernel limits from a code object ===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The AMDGPU plugin's reader of the AMDHSA metadata note over hand-made
// ELF images: the MessagePack encodings a code object's writer may choose,
// keys it skips, and images it must refuse. (unittests/llvm checks it on
// the note the emulated images carry.)
//
//===----------------------------------------------------------------------===//

#include "amdgpu/AMDGPUCodeObjectMetadata.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <string>
#include <vector>

using namespace offload::amdgpu;

namespace {

using Bytes = std::vector<uint8_t>;

void put(Bytes &Out, uint64_t Value, unsigned Size) {
  for (unsigned I = 0; I < Size; ++I)
    Out.push_back(uint8_t(Value >> (8 * I)));
}

// (Appended byte by byte: GCC 12 warns wrongly about vector::insert of a
// range here, -Wstringop-overread.)
template <typename Range> void append(Bytes &Out, const Range &Items) {
  for (auto Item : Items)
    Out.push_back(uint8_t(Item));
}

Bytes str(const std::string &Text) {
  Bytes Out{uint8_t(0xa0 | Text.size())};
  append(Out, Text);
  return Out;
}

Bytes cat(std::initializer_list<Bytes> Parts) {
  Bytes Out;
  for (const Bytes &Part : Parts)
    append(Out, Part);
  return Out;
}

/// An ELF64 image with one SHT_NOTE section holding a note of \p Type
/// named \p Name whose descriptor is \p Desc.
Bytes imageWithNote(const Bytes &Desc, uint32_t Type = 32,
                    const std::string &Name = "AMDGPU") {
  Bytes Note;
  put(Note, Name.size() + 1, 4);
  put(Note, Desc.size(), 4);
  put(Note, Type, 4);
  append(Note, Name);
  Note.resize(12 + ((Name.size() + 1 + 3) & ~size_t(3)), 0);
  append(Note, Desc);
  Note.resize((Note.size() + 3) & ~size_t(3), 0);
  Bytes Image(64, 0);
  const uint8_t Ident[] = {0x7f, 'E', 'L', 'F', 2, 1, 1};
  std::copy(std::begin(Ident), std::end(Ident), Image.begin());
  uint64_t NoteOffset = Image.size();
  append(Image, Note);
  uint64_t Sections = Image.size();
  Image.resize(Sections + 2 * 64, 0); // the null section, then the note
  for (unsigned I = 0; I < 8; ++I) {
    Image[0x28 + I] = uint8_t(Sections >> (8 * I));
    Image[Sections + 64 + 0x18 + I] = uint8_t(NoteOffset >> (8 * I));
    Image[Sections + 64 + 0x20 + I] = uint8_t(uint64_t(Note.size()) >> (8 * I));
  }
  Image[0x3a] = 64;
  Image[0x3c] = 2;
  Image[Sections + 64 + 4] = 7; // SHT_NOTE
  return Image;
}

std::string read(const Bytes &Image,
                 std::map<std::string, KernelMetadata> &Kernels) {
  return readKernelMetadata(Image.data(), Image.size(), Kernels);
}

TEST(AMDGPUCodeObjectMetadata, ReadsEachKernelsLimits) {
  // A map16 root whose first key is skipped (an array holding a float, a
  // negative number, a bool and a nested map); kernels with a fixmap and a
  // map16, the size as a uint8, a uint16 and a positive fixint, a str8 name.
  Bytes Root = cat({{0xde, 0x00, 0x02},
                    str("amdhsa.version"),
                    {0x94, 0xcb, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xc3, 0x81},
                    str("a"),
                    str("b"),
                    str("amdhsa.kernels"),
                    {0x92}});
  Bytes First = cat({{0x84},
                     str(".name"),
                     str("k64"),
                     str(".symbol"),
                     str("k64.kd"),
                     str(".max_flat_workgroup_size"),
                     {0xcc, 64},
                     str(".wavefront_size"),
                     {0x40}});
  std::string Long(40, 'x');
  Bytes Second = cat({{0xde, 0x00, 0x03, 0xd9, uint8_t(Long.size())},
                      Bytes(Long.begin(), Long.end()),
                      {0xc2},
                      str(".max_flat_workgroup_size"),
                      {0xcd, 0x04, 0x00},
                      str(".name"),
                      str("k1024")});
  std::map<std::string, KernelMetadata> Kernels;
  ASSERT_EQ(read(imageWithNote(cat({Root, First, Second})), Kernels), "");
  ASSERT_EQ(Kernels.size(), 2u);
  EXPECT_EQ(Kernels["k64"].MaxFlatWorkgroupSize, 64u);
  EXPECT_EQ(Kernels["k64"].WavefrontSize, 64u);
  EXPECT_EQ(Kernels["k1024"].MaxFlatWorkgroupSize, 1024u);
  EXPECT_EQ(Kernels["k1024"].WavefrontSize, 0u);
}

TEST(AMDGPUCodeObjectMetadata, ReadsResourceCounts) {
  // The resource keys of a gfx90a kernel, as the code generator writes
  // them (positive fixints and a uint16); a kernel without them has none.
  Bytes Root = cat({{0x81}, str("amdhsa.kernels"), {0x92}});
  Bytes Counted = cat({{0x88},
                       str(".name"),
                       str("k"),
                       str(".vgpr_count"),
                       {32},
                       str(".agpr_count"),
                       {4},
                       str(".sgpr_count"),
                       {0x30},
                       str(".vgpr_spill_count"),
                       {1},
                       str(".sgpr_spill_count"),
                       {2},
                       str(".group_segment_fixed_size"),
                       {0xcd, 0x1c, 0x20},
                       str(".private_segment_fixed_size"),
                       {0x68}});
  Bytes Bare = cat({{0x81}, str(".name"), str("bare")});
  std::map<std::string, KernelMetadata> Kernels;
  ASSERT_EQ(read(imageWithNote(cat({Root, Counted, Bare})), Kernels), "");
  const KernelMetadata &K = Kernels["k"];
  EXPECT_TRUE(K.HasRegisterCounts);
  EXPECT_EQ(K.VGPRCount, 32u);
  EXPECT_EQ(K.AGPRCount, 4u);
  EXPECT_EQ(K.SGPRCount, 48u);
  EXPECT_EQ(K.VGPRSpillCount, 1u);
  EXPECT_EQ(K.SGPRSpillCount, 2u);
  EXPECT_EQ(K.GroupSegmentFixedSize, 7200u);
  EXPECT_EQ(K.PrivateSegmentFixedSize, 104u);
  EXPECT_FALSE(Kernels["bare"].HasRegisterCounts);
  EXPECT_EQ(Kernels["bare"].SGPRCount, 0u);
}

TEST(AMDGPUCodeObjectMetadata, OtherNotesAreIgnored) {
  std::map<std::string, KernelMetadata> Kernels;
  EXPECT_EQ(read(imageWithNote({0x01, 0x02}, 3, "GNU"), Kernels), "");
  EXPECT_EQ(read(imageWithNote({0x01, 0x02}, 1, "AMDGPU"), Kernels), "");
  EXPECT_TRUE(Kernels.empty());
}

TEST(AMDGPUCodeObjectMetadata, BadImagesAreRefused) {
  std::map<std::string, KernelMetadata> Kernels;
  EXPECT_EQ(read(Bytes(64, 0), Kernels), "not a little-endian ELF64 image");
  // The root is an array, not a map.
  EXPECT_EQ(read(imageWithNote({0x90}), Kernels),
            "the AMDGPU metadata note is not a MessagePack map");
  // The kernel array promises two maps and holds one.
  Bytes Truncated = cat(
      {{0x81}, str("amdhsa.kernels"), {0x92, 0x81}, str(".name"), str("k")});
  EXPECT_EQ(read(imageWithNote(Truncated), Kernels),
            "the AMDGPU metadata note's MessagePack is truncated or "
            "malformed");
  Bytes Nameless = cat({{0x81},
                        str("amdhsa.kernels"),
                        {0x91, 0x81},
                        str(".max_flat_workgroup_size"),
                        {0x40}});
  EXPECT_NE(read(imageWithNote(Nameless), Kernels).find("has no .name"),
            std::string::npos);
  // Section headers past the end of the image.
  Bytes Cut = imageWithNote({0x80});
  Cut.resize(Cut.size() - 10);
  EXPECT_EQ(read(Cut, Kernels),
            "the ELF section headers lie outside the image");
}

} // namespace
