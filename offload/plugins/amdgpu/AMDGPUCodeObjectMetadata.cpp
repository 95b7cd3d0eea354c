//===- AMDGPUCodeObjectMetadata.cpp - Kernel limits from a code object ----===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The plugin links no LLVM library, so the ELF notes and the MessagePack
// document are read here: only what finding the kernels' entries needs
// (the "amdhsa.kernels" array of maps), skipping everything else.
//
//===----------------------------------------------------------------------===//

#include "AMDGPUCodeObjectMetadata.h"

#include <cstring>

using namespace offload::amdgpu;

namespace {

/// An ELF64 field of \p Bytes bytes at \p Offset, little-endian (as AMD
/// code objects and the emulated images of an x86-64 host are).
uint64_t field(const unsigned char *Image, size_t Offset, unsigned Bytes) {
  uint64_t Value = 0;
  for (unsigned I = 0; I < Bytes; ++I)
    Value |= uint64_t(Image[Offset + I]) << (8 * I);
  return Value;
}

/// A MessagePack object's head: a map or an array with its element count,
/// a string, an unsigned number, or something else (skipped by the reader).
struct Head {
  enum Kind { Map, Array, String, Unsigned, Other } K = Other;
  uint64_t Count = 0; // Map: pairs; Array: elements; Unsigned: the value
  const char *Text = nullptr;
  size_t TextBytes = 0;
};

/// Reads a MessagePack document front to back; Bad is set, and stays set,
/// when the data end early or hold an unknown or too deeply nested object.
class MsgPackReader {
public:
  MsgPackReader(const unsigned char *Data, size_t Bytes)
      : Pos(Data), End(Data + Bytes) {}

  bool Bad = false;

  Head next() {
    Head H;
    if (!need(1))
      return H;
    unsigned char Tag = *Pos++;
    if (Tag <= 0x7f) {
      H.K = Head::Unsigned;
      H.Count = Tag;
    } else if (Tag <= 0x8f) {
      H.K = Head::Map;
      H.Count = Tag & 0x0f;
    } else if (Tag <= 0x9f) {
      H.K = Head::Array;
      H.Count = Tag & 0x0f;
    } else if (Tag <= 0xbf) {
      string(H, Tag & 0x1f);
    } else if (Tag >= 0xe0 || Tag == 0xc0 || Tag == 0xc2 || Tag == 0xc3) {
      // negative fixint, nil, false, true: nothing follows
    } else {
      extended(Tag, H);
    }
    return H;
  }

  /// Skips the object whose head \p H was just read, with its contents.
  void skip(const Head &H, unsigned Depth = 0) {
    if (Depth > 64) {
      Bad = true;
      return;
    }
    uint64_t Items = 0;
    if (H.K == Head::Map)
      Items = 2 * H.Count;
    else if (H.K == Head::Array)
      Items = H.Count;
    for (uint64_t I = 0; I < Items && !Bad; ++I)
      skip(next(), Depth + 1);
  }

private:
  const unsigned char *Pos;
  const unsigned char *End;

  bool need(uint64_t Bytes) {
    if (Bad || uint64_t(End - Pos) < Bytes)
      Bad = true;
    return !Bad;
  }

  uint64_t bigEndian(unsigned Bytes) {
    if (!need(Bytes))
      return 0;
    uint64_t Value = 0;
    for (unsigned I = 0; I < Bytes; ++I)
      Value = Value << 8 | *Pos++;
    return Value;
  }

  void string(Head &H, uint64_t Bytes) {
    if (!need(Bytes))
      return;
    H.K = Head::String;
    H.Text = reinterpret_cast<const char *>(Pos);
    H.TextBytes = Bytes;
    Pos += Bytes;
  }

  void bytes(uint64_t Bytes) {
    if (need(Bytes))
      Pos += Bytes;
  }

  /// The tags 0xc4-0xdf: sized strings, containers, numbers and blobs.
  void extended(unsigned char Tag, Head &H) {
    static const unsigned char FixExtBytes[] = {1, 2, 4, 8, 16};
    if (Tag >= 0xc4 && Tag <= 0xc6) // bin 8/16/32
      bytes(bigEndian(1u << (Tag - 0xc4)));
    else if (Tag >= 0xc7 && Tag <= 0xc9) // ext 8/16/32: size, type, data
      bytes(bigEndian(1u << (Tag - 0xc7)) + 1);
    else if (Tag == 0xca || Tag == 0xcb) // float 32/64
      bytes(Tag == 0xca ? 4 : 8);
    else if (Tag >= 0xcc && Tag <= 0xcf) { // uint 8/16/32/64
      H.K = Head::Unsigned;
      H.Count = bigEndian(1u << (Tag - 0xcc));
    } else if (Tag >= 0xd0 && Tag <= 0xd3) // int 8/16/32/64
      bytes(1u << (Tag - 0xd0));
    else if (Tag >= 0xd4 && Tag <= 0xd8) // fixext: type, data
      bytes(1 + FixExtBytes[Tag - 0xd4]);
    else if (Tag >= 0xd9 && Tag <= 0xdb) // str 8/16/32
      string(H, bigEndian(1u << (Tag - 0xd9)));
    else if (Tag == 0xdc || Tag == 0xdd) { // array 16/32
      H.K = Head::Array;
      H.Count = bigEndian(Tag == 0xdc ? 2 : 4);
    } else if (Tag == 0xde || Tag == 0xdf) { // map 16/32
      H.K = Head::Map;
      H.Count = bigEndian(Tag == 0xde ? 2 : 4);
    } else
      Bad = true; // 0xc1 is never used
  }
};

bool is(const Head &H, const char *Text) {
  return H.K == Head::String && H.TextBytes == std::strlen(Text) &&
         !std::memcmp(H.Text, Text, H.TextBytes);
}

/// The field of \p Kernel that key \p Key of the kernel's map sets among
/// its resource counts, or null.
uint32_t *resourceField(KernelMetadata &Kernel, const Head &Key) {
  struct {
    const char *Key;
    uint32_t KernelMetadata::*Field;
  } const Fields[] = {
      {".vgpr_count", &KernelMetadata::VGPRCount},
      {".agpr_count", &KernelMetadata::AGPRCount},
      {".sgpr_count", &KernelMetadata::SGPRCount},
      {".vgpr_spill_count", &KernelMetadata::VGPRSpillCount},
      {".sgpr_spill_count", &KernelMetadata::SGPRSpillCount},
      {".group_segment_fixed_size", &KernelMetadata::GroupSegmentFixedSize},
      {".private_segment_fixed_size", &KernelMetadata::PrivateSegmentFixedSize},
  };
  for (const auto &F : Fields)
    if (is(Key, F.Key))
      return &(Kernel.*F.Field);
  return nullptr;
}

/// Reads one kernel's map (its head \p H just read) into \p Out.
std::string readKernel(MsgPackReader &R, const Head &H,
                       std::map<std::string, KernelMetadata> &Out) {
  if (R.Bad)
    return ""; // reported as a truncated document
  if (H.K != Head::Map)
    return "an entry of amdhsa.kernels is not a map";
  std::string Name;
  KernelMetadata Kernel;
  for (uint64_t I = 0; I < H.Count && !R.Bad; ++I) {
    Head Key = R.next();
    Head Value = R.next();
    if (is(Key, ".name") && Value.K == Head::String)
      Name.assign(Value.Text, Value.TextBytes);
    else if (is(Key, ".max_flat_workgroup_size") && Value.K == Head::Unsigned)
      Kernel.MaxFlatWorkgroupSize = uint32_t(Value.Count);
    else if (is(Key, ".wavefront_size") && Value.K == Head::Unsigned)
      Kernel.WavefrontSize = uint32_t(Value.Count);
    else if (uint32_t *Field = resourceField(Kernel, Key);
             Field && Value.K == Head::Unsigned) {
      *Field = uint32_t(Value.Count);
      Kernel.HasRegisterCounts |= is(Key, ".vgpr_count");
    } else
      R.skip(Value);
  }
  if (R.Bad)
    return "";
  if (Name.empty())
    return "an entry of amdhsa.kernels has no .name";
  Out[Name] = Kernel;
  return "";
}

/// Reads the metadata document of one NT_AMDGPU_METADATA note.
std::string readDocument(const unsigned char *Data, size_t Bytes,
                         std::map<std::string, KernelMetadata> &Out) {
  MsgPackReader R(Data, Bytes);
  Head Root = R.next();
  if (Root.K != Head::Map)
    return "the AMDGPU metadata note is not a MessagePack map";
  for (uint64_t I = 0; I < Root.Count && !R.Bad; ++I) {
    Head Key = R.next();
    Head Value = R.next();
    if (!is(Key, "amdhsa.kernels")) {
      R.skip(Value);
      continue;
    }
    if (Value.K != Head::Array)
      return "amdhsa.kernels in the AMDGPU metadata note is not an array";
    for (uint64_t K = 0; K < Value.Count && !R.Bad; ++K)
      if (std::string Error = readKernel(R, R.next(), Out); !Error.empty())
        return Error + " (AMDGPU metadata note)";
  }
  return R.Bad ? "the AMDGPU metadata note's MessagePack is truncated or "
                 "malformed"
               : "";
}

/// Reads the AMDGPU metadata notes of the SHT_NOTE section at \p Offset.
std::string readNotes(const unsigned char *Image, uint64_t Offset,
                      uint64_t Bytes,
                      std::map<std::string, KernelMetadata> &Out) {
  auto Align4 = [](uint64_t V) { return (V + 3) & ~uint64_t(3); };
  uint64_t Pos = Offset, End = Offset + Bytes;
  while (End - Pos >= 12) {
    uint64_t NameBytes = field(Image, Pos, 4);
    uint64_t DescBytes = field(Image, Pos + 4, 4);
    uint64_t Type = field(Image, Pos + 8, 4);
    uint64_t Name = Pos + 12;
    uint64_t Desc = Name + Align4(NameBytes);
    if (Desc > End || End - Desc < DescBytes)
      return "an ELF note runs past its section";
    if (Type == NoteTypeAMDGPUMetadata && NameBytes == 7 &&
        !std::memcmp(Image + Name, "AMDGPU", 7))
      if (std::string Error = readDocument(Image + Desc, DescBytes, Out);
          !Error.empty())
        return Error;
    Pos = Desc + Align4(DescBytes);
  }
  return "";
}

} // namespace

std::string offload::amdgpu::readKernelMetadata(
    const void *Data, size_t Size, std::map<std::string, KernelMetadata> &Out) {
  const auto *Image = static_cast<const unsigned char *>(Data);
  static const char Magic[4] = {0x7f, 'E', 'L', 'F'};
  if (!Image || Size < 64 || std::memcmp(Image, Magic, 4) ||
      Image[4] != 2 /*ELFCLASS64*/ || Image[5] != 1 /*little-endian*/)
    return "not a little-endian ELF64 image";
  uint64_t Sections = field(Image, 0x28, 8);
  uint64_t EntryBytes = field(Image, 0x3a, 2);
  uint64_t Count = field(Image, 0x3c, 2);
  if (Count && (EntryBytes < 64 || Sections > Size ||
                (Size - Sections) / EntryBytes < Count))
    return "the ELF section headers lie outside the image";
  for (uint64_t I = 0; I < Count; ++I) {
    uint64_t Header = Sections + I * EntryBytes;
    const uint32_t SHT_NOTE = 7;
    if (field(Image, Header + 4, 4) != SHT_NOTE)
      continue;
    uint64_t Offset = field(Image, Header + 0x18, 8);
    uint64_t Bytes = field(Image, Header + 0x20, 8);
    if (Offset > Size || Size - Offset < Bytes)
      return "an ELF note section lies outside the image";
    if (std::string Error = readNotes(Image, Offset, Bytes, Out);
        !Error.empty())
      return Error;
  }
  return "";
}
