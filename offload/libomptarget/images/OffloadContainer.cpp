//===- OffloadContainer.cpp - Read a device image's OffloadBinary wrapper -===//

#include "images/OffloadContainer.h"

#include <cstdint>
#include <cstring>

namespace offload {
namespace {

// LLVM 22's on-disk records (llvm/Object/OffloadBinary.h), little-endian,
// every offset relative to the start of the container.
struct ContainerHeader {
  uint8_t Magic[4];
  uint32_t Version;
  uint64_t Size;
  uint64_t EntryOffset;
  uint64_t EntrySize;
};
struct ContainerEntry {
  uint16_t ImageKind;
  uint16_t OffloadKind;
  uint32_t Flags;
  uint64_t StringOffset;
  uint64_t NumStrings;
  uint64_t ImageOffset;
  uint64_t ImageSize;
};
struct ContainerString {
  uint64_t KeyOffset;
  uint64_t ValueOffset;
};
static_assert(sizeof(ContainerHeader) == 32 && sizeof(ContainerEntry) == 40 &&
                  sizeof(ContainerString) == 16,
              "OffloadBinary version 1 record sizes");

constexpr unsigned char Magic[4] = {0x10, 0xFF, 0x10, 0xAD};
constexpr uint32_t NewestVersion = 1;

/// [Offset, Offset + Size) inside Total bytes, without overflow.
bool fits(uint64_t Offset, uint64_t Size, uint64_t Total) {
  return Offset <= Total && Size <= Total - Offset;
}

/// The NUL-terminated string at \p Offset of \p Bytes, or false.
bool stringAt(std::string_view Bytes, uint64_t Offset, std::string_view &Out) {
  if (Offset >= Bytes.size())
    return false;
  const char *Start = Bytes.data() + Offset;
  const void *Nul = std::memchr(Start, '\0', Bytes.size() - Offset);
  if (!Nul)
    return false;
  Out = std::string_view(Start, static_cast<const char *>(Nul) - Start);
  return true;
}

} // namespace

bool hasOffloadContainerMagic(std::string_view Bytes) {
  return Bytes.size() >= sizeof(Magic) &&
         std::memcmp(Bytes.data(), Magic, sizeof(Magic)) == 0;
}

bool readOffloadContainer(std::string_view Bytes, OffloadContainer &Out,
                          std::string &Error) {
  ContainerHeader Header;
  if (Bytes.size() < sizeof(Header) || !hasOffloadContainerMagic(Bytes)) {
    Error = "no offload binary header";
    return false;
  }
  std::memcpy(&Header, Bytes.data(), sizeof(Header));
  if (Header.Version == 0 || Header.Version > NewestVersion) {
    Error = "unsupported offload binary version " +
            std::to_string(Header.Version);
    return false;
  }
  if (Header.Size < sizeof(Header) || Header.Size > Bytes.size()) {
    Error = "its size " + std::to_string(Header.Size) +
            " does not fit the " + std::to_string(Bytes.size()) +
            " registered bytes";
    return false;
  }
  Bytes = Bytes.substr(0, Header.Size);
  ContainerEntry Entry;
  if (Header.EntrySize < sizeof(Entry) ||
      !fits(Header.EntryOffset, Header.EntrySize, Bytes.size())) {
    Error = "its entry (offset " + std::to_string(Header.EntryOffset) +
            ", size " + std::to_string(Header.EntrySize) +
            ") lies outside it";
    return false;
  }
  std::memcpy(&Entry, Bytes.data() + Header.EntryOffset, sizeof(Entry));
  if (!fits(Entry.ImageOffset, Entry.ImageSize, Bytes.size())) {
    Error = "its image (offset " + std::to_string(Entry.ImageOffset) +
            ", size " + std::to_string(Entry.ImageSize) + ") lies outside it";
    return false;
  }
  if (Entry.NumStrings > Bytes.size() / sizeof(ContainerString) ||
      !fits(Entry.StringOffset, Entry.NumStrings * sizeof(ContainerString),
            Bytes.size())) {
    Error = "its string table lies outside it";
    return false;
  }
  Out = OffloadContainer();
  Out.Image = Bytes.substr(Entry.ImageOffset, Entry.ImageSize);
  for (uint64_t I = 0; I < Entry.NumStrings; ++I) {
    ContainerString String;
    std::memcpy(&String,
                Bytes.data() + Entry.StringOffset + I * sizeof(String),
                sizeof(String));
    std::string_view Key, Value;
    if (!stringAt(Bytes, String.KeyOffset, Key) ||
        !stringAt(Bytes, String.ValueOffset, Value)) {
      Error = "string " + std::to_string(I) + " of its table is malformed";
      return false;
    }
    if (Key == "triple")
      Out.Triple = Value;
    else if (Key == "arch")
      Out.Arch = Value;
  }
  return true;
}

} // namespace offload
