//===- InputScanner.cpp - Find the device images of a host link -----------===//

#include "InputScanner.h"

#include "offload/Offloading/OffloadEntries.h"
#include "offload/Offloading/OffloadSection.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/BinaryFormat/Magic.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Object/Archive.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Object/SymbolicFile.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <map>
#include <optional>

using namespace llvm;
using namespace llvm::object;

namespace wrapper {

namespace {
/// A symbol of an archive's index and the member defining it.
struct IndexedSymbol {
  StringRef Name;
  Archive::Child Member;
};
} // namespace

struct InputScanner::LoadedArchive {
  std::string Path;
  std::unique_ptr<Archive> Ar;
  /// Offsets of the members already taken into the link.
  DenseSet<uint64_t> Extracted;
  /// The symbol index, read when the first member is to be pulled.
  std::optional<std::vector<IndexedSymbol>> Index;
};

namespace {

Error fileError(const Twine &Origin, const Twine &Message) {
  return createStringError(inconvertibleErrorCode(), Origin + ": " + Message);
}

bool isLinkableObject(file_magic Magic) {
  return Magic == file_magic::elf_relocatable || Magic == file_magic::bitcode;
}

/// `libx.a(member.o)` for messages, or `libx.a(member at offset N)` when the
/// member's name cannot be read.
std::string memberOrigin(StringRef ArchivePath, const Archive::Child &Child) {
  Expected<StringRef> NameOrErr = Child.getName();
  if (NameOrErr)
    return (ArchivePath + "(" + *NameOrErr + ")").str();
  consumeError(NameOrErr.takeError());
  return (ArchivePath + "(member at offset " + Twine(Child.getChildOffset()) +
          ")")
      .str();
}

/// The bytes of archive member \p Child of \p Ar. LLVM's children iterator
/// hands out a member before it checks that the member ends inside the
/// archive (the check comes with the step to the next member), so a
/// truncated last member would be read past the end of the file.
Expected<MemoryBufferRef> memberBuffer(const Archive &Ar,
                                       const Archive::Child &Child,
                                       StringRef Origin) {
  Expected<MemoryBufferRef> BufferOrErr = Child.getMemoryBufferRef();
  if (!BufferOrErr)
    return fileError(Origin, "cannot read archive member: " +
                                 toString(BufferOrErr.takeError()));
  StringRef Archive = Ar.getData();
  StringRef Member = BufferOrErr->getBuffer();
  if (Member.data() < Archive.data() ||
      Member.size() > static_cast<size_t>(Archive.end() - Member.data()))
    return fileError(Origin, "malformed archive: the member's " +
                                 Twine(Member.size()) +
                                 " bytes run past the end of the archive");
  return *BufferOrErr;
}

/// Reads the symbol index of \p Ar, which is \p Path, pairing each symbol
/// with its member. LLVM's Archive::Symbol::getMember reads a member header
/// wherever the index's offset points, even past the end of the file, so the
/// offsets are read here and must each be where a member starts. Only the
/// GNU formats (the index `/` or `/SYM64/`) are read: they are what `ar` and
/// `llvm-ar` write for ELF.
Expected<std::vector<IndexedSymbol>> readSymbolIndex(const Archive &Ar,
                                                     StringRef Path) {
  std::vector<IndexedSymbol> Index;
  if (!Ar.hasSymbolTable())
    return Index;
  bool Is64 = Ar.kind() == Archive::K_GNU64;
  if (!Is64 && Ar.kind() != Archive::K_GNU)
    return fileError(Path, "its symbol index is not in a GNU ar format, the "
                           "only ones read for an ELF link; rebuild it with "
                           "`ar` or `llvm-ar --format=gnu`");
  StringRef Table = Ar.getSymbolTable();
  uint64_t Word = Is64 ? 8 : 4;
  auto ReadWord = [&](uint64_t At) -> uint64_t {
    const char *P = Table.data() + At;
    return Is64 ? support::endian::read64be(P) : support::endian::read32be(P);
  };
  if (Table.size() < Word)
    return fileError(Path, "malformed archive: its symbol index is only " +
                               Twine(Table.size()) + " bytes");
  uint64_t Count = ReadWord(0);
  if (Count > (Table.size() - Word) / Word)
    return fileError(Path, "malformed archive: its symbol index claims " +
                               Twine(Count) + " symbols, more than its " +
                               Twine(Table.size()) + " bytes hold");

  // children() checks every member header against the file.
  std::map<uint64_t, Archive::Child> Members;
  Error Err = Error::success();
  for (const Archive::Child &Child : Ar.children(Err))
    Members.emplace(Child.getChildOffset(), Child);
  if (Err)
    return fileError(Path, "malformed archive: " + toString(std::move(Err)));

  StringRef Names = Table.drop_front(Word * (Count + 1));
  for (uint64_t I = 0; I < Count; ++I) {
    size_t End = Names.find('\0');
    if (End == StringRef::npos)
      return fileError(Path, "malformed archive: the name of symbol " +
                                 Twine(I) + " of its symbol index is not "
                                 "terminated");
    StringRef Name = Names.take_front(End);
    Names = Names.drop_front(End + 1);
    uint64_t Offset = ReadWord(Word * (I + 1));
    auto Member = Members.find(Offset);
    if (Member == Members.end())
      return fileError(Path, "malformed archive: its symbol index puts '" +
                                 Name + "' in a member at offset " +
                                 Twine(Offset) + ", where no member starts");
    Index.push_back({Name, Member->second});
  }
  return Index;
}

} // namespace

InputScanner::InputScanner(const WrapperConfig &Config) : Config(Config) {}
InputScanner::~InputScanner() = default;

std::optional<std::string> InputScanner::findLibrary(StringRef Name,
                                                     bool StaticOnly) const {
  SmallVector<std::string, 2> FileNames;
  if (Name.consume_front(":")) {
    FileNames.push_back(Name.str());
  } else {
    if (!StaticOnly)
      FileNames.push_back(("lib" + Name + ".so").str());
    FileNames.push_back(("lib" + Name + ".a").str());
  }
  // Like the host linker: directory by directory, and in each directory the
  // shared library before the archive.
  for (StringRef Dir : Config.LibraryPaths) {
    std::string Base = Dir.str();
    if (Dir.starts_with("=") && !Config.Sysroot.empty())
      Base = Config.Sysroot + Dir.drop_front().str();
    for (const std::string &FileName : FileNames) {
      SmallString<256> Path(Base);
      sys::path::append(Path, FileName);
      if (sys::fs::is_regular_file(Path))
        return std::string(Path);
    }
  }
  return std::nullopt;
}

Expected<ScanResult> InputScanner::scan() {
  for (const std::string &Symbol : Config.UndefinedSymbols)
    Undefined.insert(Symbol);

  bool WholeArchive = false;
  bool StaticOnly = false;
  bool InGroup = false;
  std::vector<LoadedArchive *> Group;
  for (const LinkInput &Input : Config.Inputs) {
    switch (Input.Kind) {
    case LinkInput::File:
      if (Error E =
              addFile(Input.Value, WholeArchive, InGroup ? &Group : nullptr))
        return std::move(E);
      break;
    case LinkInput::Library:
      // A library that cannot be found is the host linker's error to report.
      if (std::optional<std::string> Path =
              findLibrary(Input.Value, StaticOnly))
        if (Error E = addFile(*Path, WholeArchive, InGroup ? &Group : nullptr))
          return std::move(E);
      break;
    case LinkInput::WholeArchiveOn:
      WholeArchive = true;
      break;
    case LinkInput::WholeArchiveOff:
      WholeArchive = false;
      break;
    case LinkInput::StaticOn:
      StaticOnly = true;
      break;
    case LinkInput::StaticOff:
      StaticOnly = false;
      break;
    case LinkInput::GroupStart:
      InGroup = true;
      Group.clear();
      break;
    case LinkInput::GroupEnd: {
      // The archives of a group are searched again and again until none of
      // them resolves anything new.
      bool Changed = true;
      while (Changed) {
        Changed = false;
        for (LoadedArchive *Archive : Group) {
          Expected<bool> PulledOrErr = pullMembers(*Archive);
          if (!PulledOrErr)
            return PulledOrErr.takeError();
          Changed |= *PulledOrErr;
        }
      }
      InGroup = false;
      break;
    }
    }
  }
  return std::move(Result);
}

Error InputScanner::addFile(StringRef Path, bool WholeArchive,
                            std::vector<LoadedArchive *> *Group) {
  // A missing input, like any input the wrapper has no use for, is left to
  // the host linker.
  if (!sys::fs::is_regular_file(Path))
    return Error::success();
  ErrorOr<std::unique_ptr<MemoryBuffer>> BufferOrErr =
      MemoryBuffer::getFile(Path, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  if (!BufferOrErr)
    return fileError(Path, "cannot read: " + BufferOrErr.getError().message());
  MemoryBufferRef Buffer = (*BufferOrErr)->getMemBufferRef();
  Buffers.push_back(std::move(*BufferOrErr));

  file_magic Magic = identify_magic(Buffer.getBuffer());
  if (isLinkableObject(Magic))
    return addObject(Buffer, Path);
  if (Magic != file_magic::archive)
    return Error::success(); // Shared libraries, linker scripts, ...

  Expected<std::unique_ptr<Archive>> ArchiveOrErr = Archive::create(Buffer);
  if (!ArchiveOrErr)
    return fileError(Path, "malformed archive: " +
                               toString(ArchiveOrErr.takeError()));
  Archives.push_back(std::make_unique<LoadedArchive>());
  LoadedArchive &Loaded = *Archives.back();
  Loaded.Path = Path.str();
  Loaded.Ar = std::move(*ArchiveOrErr);
  if (WholeArchive) {
    if (Error E = addWholeArchive(Loaded))
      return E;
  } else {
    Expected<bool> PulledOrErr = pullMembers(Loaded);
    if (!PulledOrErr)
      return PulledOrErr.takeError();
  }
  if (!Config.ShouldExtract.empty())
    if (Error E = addShouldExtractImages(Loaded))
      return E;
  if (Group)
    Group->push_back(&Loaded);
  return Error::success();
}

Error InputScanner::addObject(MemoryBufferRef Buffer, StringRef Origin) {
  LLVMContext Context; // Only used by bitcode inputs (host LTO).
  Expected<std::unique_ptr<SymbolicFile>> FileOrErr =
      SymbolicFile::createSymbolicFile(Buffer, file_magic::unknown, &Context);
  if (!FileOrErr)
    return fileError(Origin, toString(FileOrErr.takeError()));
  if (Error E = addSymbols(**FileOrErr, Origin))
    return E;
  HostObject Object;
  Object.Origin = Origin.str();
  // An object file is read for its sections through the same parse.
  if (Error E = addImages(Buffer, Origin, Object, /*OnlyShouldExtract=*/false,
                          dyn_cast<ObjectFile>(FileOrErr->get())))
    return E;
  Result.Objects.push_back(std::move(Object));
  return Error::success();
}

Error InputScanner::addSymbols(const SymbolicFile &File, StringRef Origin) {
  for (const BasicSymbolRef &Symbol : File.symbols()) {
    Expected<uint32_t> FlagsOrErr = Symbol.getFlags();
    if (!FlagsOrErr)
      return fileError(Origin, toString(FlagsOrErr.takeError()));
    uint32_t Flags = *FlagsOrErr;
    if ((Flags & BasicSymbolRef::SF_FormatSpecific) ||
        !(Flags & BasicSymbolRef::SF_Global))
      continue;
    SmallString<64> Name;
    raw_svector_ostream OS(Name);
    if (Error E = Symbol.printName(OS))
      return fileError(Origin, toString(std::move(E)));
    if (Flags & BasicSymbolRef::SF_Undefined) {
      // A weak reference never pulls an archive member into the link.
      if (!(Flags & BasicSymbolRef::SF_Weak) && !Defined.contains(Name))
        Undefined.insert(Name);
      continue;
    }
    Defined.insert(Name);
    Undefined.erase(Name);
  }
  return Error::success();
}

Error InputScanner::addImages(MemoryBufferRef Buffer, StringRef Origin,
                              HostObject &Object, bool OnlyShouldExtract,
                              const ObjectFile *Parsed) {
  SmallVector<OffloadFile, 2> Files;
  if (identify_magic(Buffer.getBuffer()) == file_magic::bitcode) {
    if (Error E = extractOffloadBinaries(Buffer, Files))
      return fileError(Origin, "cannot read its device images: " +
                                   toString(std::move(E)));
  } else {
    std::unique_ptr<ObjectFile> Owned;
    if (!Parsed) {
      Expected<std::unique_ptr<ObjectFile>> ObjOrErr =
          ObjectFile::createObjectFile(Buffer);
      if (!ObjOrErr)
        return fileError(Origin, toString(ObjOrErr.takeError()));
      Owned = std::move(*ObjOrErr);
      Parsed = Owned.get();
    }
    for (const SectionRef &Sec : Parsed->sections()) {
      if (Sec.getSize() == 0)
        continue;
      Expected<StringRef> Name = Sec.getName();
      if (!Name) {
        consumeError(Name.takeError());
        continue;
      }
      if (*Name ==
          offload::getEntriesSectionName(offload::EntryLayout::Current))
        Object.HasCurrentEntries = true;
      else if (*Name ==
               offload::getEntriesSectionName(offload::EntryLayout::Legacy))
        Object.HasLegacyEntries = true;
    }
    if (Error E = offload::readOffloadImages(*Parsed, Origin, Files))
      return E;
  }
  for (OffloadFile &File : Files) {
    const OffloadBinary &Binary = *File.getBinary();
    if (OnlyShouldExtract &&
        !is_contained(Config.ShouldExtract, Binary.getArch()))
      continue;
    Object.ImageTriples.insert(Binary.getTriple().str());
    Result.Images.push_back({std::move(File), Origin.str()});
  }
  return Error::success();
}

/// Takes into the link every member defining a symbol that is undefined so
/// far, repeatedly, since a member can leave new symbols undefined. Returns
/// whether any member was taken.
Expected<bool> InputScanner::pullMembers(LoadedArchive &Loaded) {
  // Without an index the host linker refuses the archive; so do we, by
  // leaving it alone and letting the linker say so.
  if (!Loaded.Ar->hasSymbolTable())
    return false;
  if (!Loaded.Index) {
    Expected<std::vector<IndexedSymbol>> IndexOrErr =
        readSymbolIndex(*Loaded.Ar, Loaded.Path);
    if (!IndexOrErr)
      return IndexOrErr.takeError();
    Loaded.Index = std::move(*IndexOrErr);
  }
  bool Any = false;
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (const IndexedSymbol &Symbol : *Loaded.Index) {
      if (!Undefined.contains(Symbol.Name))
        continue;
      if (!Loaded.Extracted.insert(Symbol.Member.getChildOffset()).second)
        continue;
      std::string Origin = memberOrigin(Loaded.Path, Symbol.Member);
      Expected<MemoryBufferRef> BufferOrErr =
          memberBuffer(*Loaded.Ar, Symbol.Member, Origin);
      if (!BufferOrErr)
        return BufferOrErr.takeError();
      if (!isLinkableObject(identify_magic(BufferOrErr->getBuffer())))
        return fileError(Origin, "archive member defining '" +
                                     Symbol.Name + "' is not an object file");
      if (Error E = addObject(*BufferOrErr, Origin))
        return std::move(E);
      Changed = Any = true;
    }
  }
  return Any;
}

Error InputScanner::addWholeArchive(LoadedArchive &Loaded) {
  Error Err = Error::success();
  for (const Archive::Child &Child : Loaded.Ar->children(Err)) {
    if (!Loaded.Extracted.insert(Child.getChildOffset()).second)
      continue;
    Expected<StringRef> NameOrErr = Child.getName();
    if (!NameOrErr)
      return fileError(Loaded.Path, "cannot read the name of the member at "
                                    "offset " +
                                        Twine(Child.getChildOffset()) + ": " +
                                        toString(NameOrErr.takeError()));
    std::string Origin = Loaded.Path + "(" + NameOrErr->str() + ")";
    Expected<MemoryBufferRef> BufferOrErr =
        memberBuffer(*Loaded.Ar, Child, Origin);
    if (!BufferOrErr)
      return BufferOrErr.takeError();
    if (!isLinkableObject(identify_magic(BufferOrErr->getBuffer())))
      return fileError(Origin, "archive member is not an object file "
                               "(--whole-archive links every member)");
    if (Error E = addObject(*BufferOrErr, Origin))
      return E;
  }
  if (Err)
    return fileError(Loaded.Path,
                     "malformed archive: " + toString(std::move(Err)));
  return Error::success();
}

Error InputScanner::addShouldExtractImages(LoadedArchive &Loaded) {
  Error Err = Error::success();
  for (const Archive::Child &Child : Loaded.Ar->children(Err)) {
    if (Loaded.Extracted.contains(Child.getChildOffset()))
      continue;
    std::string Origin = memberOrigin(Loaded.Path, Child);
    Expected<MemoryBufferRef> BufferOrErr =
        memberBuffer(*Loaded.Ar, Child, Origin);
    if (!BufferOrErr)
      return BufferOrErr.takeError();
    if (!isLinkableObject(identify_magic(BufferOrErr->getBuffer())))
      continue;
    // Only the device code is wanted; the host part stays out of the link.
    HostObject Unlinked;
    if (Error E = addImages(*BufferOrErr, Origin, Unlinked,
                            /*OnlyShouldExtract=*/true))
      return E;
  }
  if (Err)
    return fileError(Loaded.Path,
                     "malformed archive: " + toString(std::move(Err)));
  return Error::success();
}

} // namespace wrapper
