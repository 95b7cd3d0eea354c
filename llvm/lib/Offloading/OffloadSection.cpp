//===- OffloadSection.cpp - Device images in .llvm.offloading -------------===//

#include "offload/Offloading/OffloadSection.h"

#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstring>

using namespace llvm;
using namespace llvm::object;

namespace offload {
namespace {

Error invalid(const Twine &Why) {
  return createStringError(inconvertibleErrorCode(), Why);
}

/// True when [Offset, Offset + Size) lies inside a record of \p Total bytes,
/// without overflowing.
bool fits(uint64_t Offset, uint64_t Size, uint64_t Total) {
  return Offset <= Total && Size <= Total - Offset;
}

bool isOffloadSection(const SectionRef &Sec) {
  if (isa<ELFObjectFileBase>(Sec.getObject()))
    if (ELFSectionRef(Sec).getType() == ELF::SHT_LLVM_OFFLOADING)
      return true;
  Expected<StringRef> Name = Sec.getName();
  if (!Name) {
    consumeError(Name.takeError());
    return false;
  }
  return *Name == OffloadSectionName;
}

} // namespace

Error validateOffloadBinary(StringRef Record) {
  using Header = OffloadBinary::Header;
  using Entry = OffloadBinary::Entry;
  using StringEntry = OffloadBinary::StringEntry;
  if (Record.size() < sizeof(Header))
    return invalid("only " + Twine(Record.size()) +
                   " bytes, an offload binary header needs " +
                   Twine(sizeof(Header)));
  Header H;
  std::memcpy(&H, Record.data(), sizeof(H));
  if (identify_magic(Record) != file_magic::offload_binary)
    return invalid("no offload binary magic 0x10FF10AD");
  if (H.Version == 0 || H.Version > OffloadBinary::Version)
    return invalid("unsupported offload binary version " + Twine(H.Version));
  if (H.Size != Record.size())
    return invalid("header size " + Twine(H.Size) + " does not match the " +
                   Twine(Record.size()) + "-byte record");
  if (H.EntrySize < sizeof(Entry) || !fits(H.EntryOffset, H.EntrySize, H.Size))
    return invalid("entry offset " + Twine(H.EntryOffset) + " / size " +
                   Twine(H.EntrySize) + " out of bounds");
  Entry E;
  std::memcpy(&E, Record.data() + H.EntryOffset, sizeof(E));
  if (E.NumStrings > H.Size / sizeof(StringEntry) ||
      !fits(E.StringOffset, E.NumStrings * sizeof(StringEntry), H.Size))
    return invalid("string table offset " + Twine(E.StringOffset) + " with " +
                   Twine(E.NumStrings) + " strings out of bounds");
  for (uint64_t I = 0; I != E.NumStrings; ++I) {
    StringEntry S;
    std::memcpy(&S, Record.data() + E.StringOffset + I * sizeof(S), sizeof(S));
    for (uint64_t Offset : {S.KeyOffset, S.ValueOffset})
      if (Offset >= H.Size ||
          Record.drop_front(Offset).find('\0') == StringRef::npos)
        return invalid("string " + Twine(I) + " at offset " + Twine(Offset) +
                       " is out of bounds or not terminated");
  }
  if (!fits(E.ImageOffset, E.ImageSize, H.Size))
    return invalid("image offset " + Twine(E.ImageOffset) + " / size " +
                   Twine(E.ImageSize) + " out of bounds");
  return Error::success();
}

Error readOffloadSection(StringRef Section, StringRef FileName,
                         SmallVectorImpl<OffloadFile> &Images) {
  auto Corrupt = [&](uint64_t Offset, Error Why) {
    return createStringError(inconvertibleErrorCode(),
                             FileName + ": corrupt " + OffloadSectionName +
                                 " section at offset " + Twine(Offset) + ": " +
                                 toString(std::move(Why)));
  };
  uint64_t Offset = 0;
  while (Offset < Section.size()) {
    StringRef Rest = Section.drop_front(Offset);
    OffloadBinary::Header H;
    if (Rest.size() < sizeof(H))
      return Corrupt(Offset, invalid("truncated: only " + Twine(Rest.size()) +
                                     " bytes left, an offload binary header "
                                     "needs " +
                                     Twine(sizeof(H))));
    std::memcpy(&H, Rest.data(), sizeof(H));
    if (identify_magic(Rest) != file_magic::offload_binary)
      return Corrupt(Offset, invalid("no offload binary magic 0x10FF10AD"));
    if (H.Size < sizeof(H) || H.Size > Rest.size())
      return Corrupt(Offset, invalid("truncated: the offload binary claims " +
                                     Twine(H.Size) + " bytes, " +
                                     Twine(Rest.size()) + " are left"));
    StringRef Record = Rest.take_front(H.Size);
    if (Error E = validateOffloadBinary(Record))
      return Corrupt(Offset, std::move(E));

    // A private, suitably aligned copy: the image outlives the input file's
    // mapping, and the reader requires 8-byte alignment.
    std::unique_ptr<MemoryBuffer> Copy =
        MemoryBuffer::getMemBufferCopy(Record, FileName);
    Expected<std::unique_ptr<OffloadBinary>> BinaryOrErr =
        OffloadBinary::create(*Copy);
    if (!BinaryOrErr)
      return Corrupt(Offset, BinaryOrErr.takeError());
    Images.emplace_back(std::move(*BinaryOrErr), std::move(Copy));
    Offset = alignTo(Offset + H.Size, OffloadBinary::getAlignment());
  }
  return Error::success();
}

Error readOffloadImages(const ObjectFile &Obj, StringRef FileName,
                        SmallVectorImpl<OffloadFile> &Images) {
  for (const SectionRef &Sec : Obj.sections()) {
    if (!isOffloadSection(Sec))
      continue;
    Expected<StringRef> Contents = Sec.getContents();
    if (!Contents)
      return createStringError(
          inconvertibleErrorCode(),
          FileName + ": cannot read the " + OffloadSectionName +
              " section: " + toString(Contents.takeError()));
    if (Error E = readOffloadSection(*Contents, FileName, Images))
      return E;
  }
  return Error::success();
}

} // namespace offload
