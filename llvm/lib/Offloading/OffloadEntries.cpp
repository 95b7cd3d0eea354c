//===- OffloadEntries.cpp - Offload entry tables in objects and IR --------===//
//
// Reading works on the generic object-file interface: the entry records are
// plain data, and the two pointer fields (address, name) are either
// relocations (relocatable objects) or addresses (linked files).
//
//===----------------------------------------------------------------------===//

#include "offload/Offloading/OffloadEntries.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/Format.h"

using namespace llvm;
using namespace llvm::object;

namespace offload {

StringRef getEntriesSectionName(EntryLayout Layout) {
  return Layout == EntryLayout::Current ? "llvm_offload_entries"
                                        : "omp_offloading_entries";
}

uint64_t getEntrySize(EntryLayout Layout, unsigned PointerSize) {
  // Current: reserved(8) version/kind/flags(8) address name (pointers)
  // size data (8 each) aux (pointer). Legacy: address name (pointers)
  // size (8) flags reserved (4 each).
  if (Layout == EntryLayout::Current)
    return 8 + 8 + 3 * PointerSize + 8 + 8;
  return 2 * PointerSize + 8 + 4 + 4;
}

std::string describeEntryFlags(uint32_t Flags, bool IsKernel) {
  SmallVector<std::string, 4> Words;
  if (IsKernel) {
    if (Flags & OMPTargetRegionEntryCtor)
      Words.push_back("ctor");
    if (Flags & OMPTargetRegionEntryDtor)
      Words.push_back("dtor");
    if (Words.empty() && Flags == OMPTargetRegionEntryTargetRegion)
      Words.push_back("target-region");
    uint32_t Known = OMPTargetRegionEntryCtor | OMPTargetRegionEntryDtor;
    if (Flags & ~Known)
      Words.push_back("unknown(0x" + utohexstr(Flags & ~Known) + ")");
    return join(Words, "|");
  }
  static const char *const Clauses[] = {"to", "link", "enter", "none"};
  Words.push_back(Clauses[Flags & 0x3]);
  if (Flags & OMPTargetGlobalVarEntryIndirect)
    Words.push_back("indirect");
  if (Flags & OMPTargetGlobalRegisterRequires)
    Words.push_back("requires");
  if (Flags & OMPTargetGlobalVarEntryIndirectVTable)
    Words.push_back("indirect-vtable");
  uint32_t Known = 0x3 | OMPTargetGlobalVarEntryIndirect |
                   OMPTargetGlobalRegisterRequires |
                   OMPTargetGlobalVarEntryIndirectVTable;
  if (Flags & ~Known)
    Words.push_back("unknown(0x" + utohexstr(Flags & ~Known) + ")");
  return join(Words, "|");
}

namespace {

/// LLVM's generic relocation accessors end the process (report_fatal_error,
/// or a division by a zero entry size) on a relocation section they cannot
/// read; the ELF reader returns the same problems as errors. So every
/// relocation section of the table is read through it first.
template <class ELFT>
Error checkRelocationSection(const ELFObjectFile<ELFT> &Obj,
                             const SectionRef &Sec) {
  const ELFFile<ELFT> &File = Obj.getELFFile();
  Expected<const typename ELFT::Shdr *> HeaderOrErr =
      File.getSection(Sec.getIndex());
  if (!HeaderOrErr)
    return HeaderOrErr.takeError();
  const typename ELFT::Shdr &Header = **HeaderOrErr;
  switch (Header.sh_type) {
  case ELF::SHT_REL:
    if (auto Rels = File.rels(Header); !Rels)
      return Rels.takeError();
    break;
  case ELF::SHT_RELA:
    if (auto Relas = File.relas(Header); !Relas)
      return Relas.takeError();
    break;
  case ELF::SHT_CREL:
    if (auto Crels = File.crels(Header); !Crels)
      return Crels.takeError();
    break;
  default:
    return Error::success();
  }
  // The symbol table the relocations refer to.
  if (auto Symtab = File.getSection(Header.sh_link); !Symtab)
    return Symtab.takeError();
  return Error::success();
}

Error checkRelocationSection(const ObjectFile &Obj, const SectionRef &Sec) {
  if (const auto *ELF = dyn_cast<ELF64LEObjectFile>(&Obj))
    return checkRelocationSection(*ELF, Sec);
  if (const auto *ELF = dyn_cast<ELF64BEObjectFile>(&Obj))
    return checkRelocationSection(*ELF, Sec);
  if (const auto *ELF = dyn_cast<ELF32LEObjectFile>(&Obj))
    return checkRelocationSection(*ELF, Sec);
  if (const auto *ELF = dyn_cast<ELF32BEObjectFile>(&Obj))
    return checkRelocationSection(*ELF, Sec);
  return Error::success();
}

/// What a pointer-sized field of a record refers to.
struct FieldTarget {
  std::string SymbolName;
  /// The symbol's section and value, to read a string it points at.
  std::optional<SectionRef> Section;
  uint64_t SymbolValue = 0;
  int64_t Addend = 0;
};

/// Reads the records of one entries section.
class EntryTableReader {
public:
  EntryTableReader(const ObjectFile &Obj, SectionRef Table, EntryLayout Layout)
      : Obj(Obj), Table(Table), Layout(Layout),
        PointerSize(Obj.getBytesInAddress()) {}

  Expected<std::vector<OffloadEntry>> read() {
    Expected<StringRef> ContentsOrErr = Table.getContents();
    if (!ContentsOrErr)
      return fail("cannot read the section: " +
                  toString(ContentsOrErr.takeError()));
    Contents = *ContentsOrErr;
    uint64_t RecordSize = getEntrySize(Layout, PointerSize);
    if (Contents.size() % RecordSize != 0)
      return fail("its size " + Twine(Contents.size()) +
                  " is not a multiple of the " + Twine(RecordSize) +
                  "-byte record");
    // LLVM's errors name neither the file nor the table; ours do.
    if (Obj.isRelocatableObject())
      if (Error E = collectRelocations())
        return fail("cannot read its relocations: " + toString(std::move(E)));

    std::vector<OffloadEntry> Entries;
    for (uint64_t Offset = 0; Offset < Contents.size(); Offset += RecordSize) {
      Expected<OffloadEntry> EntryOrErr = readRecord(Offset);
      if (!EntryOrErr)
        return EntryOrErr.takeError();
      Entries.push_back(std::move(*EntryOrErr));
    }
    return Entries;
  }

private:
  Error fail(const Twine &Message) const {
    return createStringError(inconvertibleErrorCode(),
                             Obj.getFileName() + ": section '" +
                                 getEntriesSectionName(Layout) +
                                 "': " + Message);
  }

  uint64_t readInt(uint64_t Offset, unsigned Bytes) const {
    const char *P = Contents.data() + Offset;
    bool LE = Obj.isLittleEndian();
    switch (Bytes) {
    case 2:
      return LE ? support::endian::read16le(P) : support::endian::read16be(P);
    case 4:
      return LE ? support::endian::read32le(P) : support::endian::read32be(P);
    default:
      return LE ? support::endian::read64le(P) : support::endian::read64be(P);
    }
  }

  /// Remembers, for every relocated field of the table, what it points at.
  Error collectRelocations() {
    for (const SectionRef &Sec : Obj.sections()) {
      Expected<section_iterator> TargetOrErr = Sec.getRelocatedSection();
      if (!TargetOrErr)
        return TargetOrErr.takeError();
      if (*TargetOrErr == Obj.section_end() || **TargetOrErr != Table)
        continue;
      if (Error E = checkRelocationSection(Obj, Sec))
        return E;
      for (const RelocationRef &Reloc : Sec.relocations()) {
        // Only a relocation inside the table can fill one of its fields
        // (and the offsets ~0 and ~0 - 1 are no keys of a DenseMap).
        if (Reloc.getOffset() >= Contents.size())
          return createStringError(
              inconvertibleErrorCode(),
              "a relocation at offset 0x" + utohexstr(Reloc.getOffset()) +
                  " lies outside the " + Twine(Contents.size()) +
                  "-byte section");
        FieldTarget Target;
        symbol_iterator Sym = Reloc.getSymbol();
        if (Sym != Obj.symbol_end()) {
          Expected<StringRef> NameOrErr = Sym->getName();
          if (!NameOrErr)
            return NameOrErr.takeError();
          Target.SymbolName = NameOrErr->str();
          Expected<section_iterator> SecOrErr = Sym->getSection();
          if (!SecOrErr)
            return SecOrErr.takeError();
          if (*SecOrErr != Obj.section_end()) {
            Target.Section = **SecOrErr;
            if (Target.SymbolName.empty()) {
              // A section symbol is named after its section.
              if (Expected<StringRef> SecName = (*SecOrErr)->getName())
                Target.SymbolName = SecName->str();
              else
                consumeError(SecName.takeError());
            }
          }
          Expected<uint64_t> ValueOrErr = Sym->getValue();
          if (!ValueOrErr)
            return ValueOrErr.takeError();
          Target.SymbolValue = *ValueOrErr;
        }
        if (isa<ELFObjectFileBase>(&Obj)) {
          Expected<int64_t> AddendOrErr = ELFRelocationRef(Reloc).getAddend();
          if (AddendOrErr) {
            Target.Addend = *AddendOrErr;
          } else {
            // REL relocations keep their addend in the field itself.
            consumeError(AddendOrErr.takeError());
            if (Reloc.getOffset() + PointerSize <= Contents.size())
              Target.Addend = readInt(Reloc.getOffset(), PointerSize);
          }
        }
        Relocations[Reloc.getOffset()] = std::move(Target);
      }
    }
    return Error::success();
  }

  /// Reads a NUL-terminated string at \p Offset of \p Sec.
  Expected<std::string> readString(SectionRef Sec, uint64_t Offset,
                                   uint64_t Record) const {
    Expected<StringRef> DataOrErr = Sec.getContents();
    if (!DataOrErr)
      return fail("record " + Twine(Record) +
                  ": cannot read the section holding its name: " +
                  toString(DataOrErr.takeError()));
    if (Offset >= DataOrErr->size())
      return fail("record " + Twine(Record) + ": its name points outside " +
                  "the section holding it");
    StringRef Rest = DataOrErr->drop_front(Offset);
    size_t End = Rest.find('\0');
    if (End == StringRef::npos)
      return fail("record " + Twine(Record) + ": its name is not terminated");
    return Rest.take_front(End).str();
  }

  /// Reads the string a linked file's pointer value \p Address points at.
  Expected<std::string> readStringAt(uint64_t Address, uint64_t Record) const {
    for (const SectionRef &Sec : Obj.sections()) {
      if (Sec.isVirtual() || Address < Sec.getAddress() ||
          Address >= Sec.getAddress() + Sec.getSize())
        continue;
      return readString(Sec, Address - Sec.getAddress(), Record);
    }
    return fail("record " + Twine(Record) + ": its name address 0x" +
                utohexstr(Address) + " is in no section");
  }

  Expected<OffloadEntry> readRecord(uint64_t Offset) {
    uint64_t Record = Offset / getEntrySize(Layout, PointerSize);
    OffloadEntry Entry;
    Entry.Layout = Layout;
    uint64_t AddressField, NameField, AuxField = 0;
    if (Layout == EntryLayout::Current) {
      if (uint64_t Reserved = readInt(Offset, 8))
        return fail("record " + Twine(Record) +
                    ": reserved field is not zero (0x" + utohexstr(Reserved) +
                    "); is this the legacy layout?");
      Entry.Version = readInt(Offset + 8, 2);
      Entry.Kind = readInt(Offset + 10, 2);
      Entry.Flags = readInt(Offset + 12, 4);
      AddressField = Offset + 16;
      NameField = AddressField + PointerSize;
      Entry.Size = readInt(NameField + PointerSize, 8);
      Entry.Data = readInt(NameField + PointerSize + 8, 8);
      AuxField = NameField + PointerSize + 16;
    } else {
      AddressField = Offset;
      NameField = Offset + PointerSize;
      Entry.Size = readInt(NameField + PointerSize, 8);
      Entry.Flags = readInt(NameField + PointerSize + 8, 4);
    }

    if (Obj.isRelocatableObject()) {
      auto Address = Relocations.find(AddressField);
      if (Address != Relocations.end()) {
        Entry.AddressSymbol = Address->second.SymbolName;
        Entry.Address = Address->second.Addend;
      }
      if (Layout == EntryLayout::Current) {
        auto Aux = Relocations.find(AuxField);
        if (Aux != Relocations.end())
          Entry.AuxSymbol = Aux->second.SymbolName;
      }
      auto Name = Relocations.find(NameField);
      if (Name == Relocations.end() || !Name->second.Section)
        return fail("record " + Twine(Record) + " has no name relocation");
      Expected<std::string> NameOrErr =
          readString(*Name->second.Section,
                     Name->second.SymbolValue + Name->second.Addend, Record);
      if (!NameOrErr)
        return NameOrErr.takeError();
      Entry.Name = std::move(*NameOrErr);
      return Entry;
    }

    Entry.Address = readInt(AddressField, PointerSize);
    Expected<std::string> NameOrErr =
        readStringAt(readInt(NameField, PointerSize), Record);
    if (!NameOrErr)
      return NameOrErr.takeError();
    Entry.Name = std::move(*NameOrErr);
    return Entry;
  }

  const ObjectFile &Obj;
  SectionRef Table;
  EntryLayout Layout;
  unsigned PointerSize;
  StringRef Contents;
  DenseMap<uint64_t, FieldTarget> Relocations;
};

std::optional<SectionRef> findSection(const ObjectFile &Obj, StringRef Name) {
  for (const SectionRef &Sec : Obj.sections()) {
    Expected<StringRef> NameOrErr = Sec.getName();
    if (!NameOrErr) {
      consumeError(NameOrErr.takeError());
      continue;
    }
    if (*NameOrErr == Name)
      return Sec;
  }
  return std::nullopt;
}

} // namespace

Expected<std::vector<OffloadEntry>> readOffloadEntries(const ObjectFile &Obj,
                                                       EntryLayout Layout) {
  std::optional<SectionRef> Table =
      findSection(Obj, getEntriesSectionName(Layout));
  if (!Table)
    return std::vector<OffloadEntry>();
  return EntryTableReader(Obj, *Table, Layout).read();
}

Expected<std::vector<OffloadEntry>>
readAllOffloadEntries(const ObjectFile &Obj) {
  Expected<std::vector<OffloadEntry>> Current =
      readOffloadEntries(Obj, EntryLayout::Current);
  if (!Current)
    return Current.takeError();
  Expected<std::vector<OffloadEntry>> Legacy =
      readOffloadEntries(Obj, EntryLayout::Legacy);
  if (!Legacy)
    return Legacy.takeError();
  std::vector<OffloadEntry> All = std::move(*Current);
  All.insert(All.end(), Legacy->begin(), Legacy->end());
  return All;
}

bool hasOffloadEntries(const ObjectFile &Obj) {
  for (EntryLayout Layout : {EntryLayout::Current, EntryLayout::Legacy})
    if (std::optional<SectionRef> Sec =
            findSection(Obj, getEntriesSectionName(Layout)))
      if (Sec->getSize() != 0)
        return true;
  return false;
}

StructType *getEntryType(Module &M, EntryLayout Layout) {
  LLVMContext &C = M.getContext();
  StringRef Name = Layout == EntryLayout::Current
                       ? "struct.__tgt_offload_entry"
                       : "struct.__tgt_offload_entry.legacy";
  if (StructType *Existing = StructType::getTypeByName(C, Name))
    return Existing;
  Type *Ptr = PointerType::getUnqual(C);
  Type *I16 = Type::getInt16Ty(C), *I32 = Type::getInt32Ty(C),
       *I64 = Type::getInt64Ty(C);
  if (Layout == EntryLayout::Current)
    return StructType::create({I64, I16, I16, I32, Ptr, Ptr, I64, I64, Ptr},
                              Name);
  return StructType::create({Ptr, Ptr, I64, I32, I32}, Name);
}

GlobalVariable *emitOffloadEntry(Module &M, EntryLayout Layout,
                                 Constant *Address, StringRef Name,
                                 uint64_t Size, uint32_t Flags, uint16_t Kind,
                                 uint64_t Data, StringRef SectionName) {
  LLVMContext &C = M.getContext();
  Type *I16 = Type::getInt16Ty(C), *I32 = Type::getInt32Ty(C),
       *I64 = Type::getInt64Ty(C);
  Constant *NameData = ConstantDataArray::getString(C, Name);
  auto *NameVar = new GlobalVariable(M, NameData->getType(), /*Constant=*/true,
                                     GlobalValue::InternalLinkage, NameData,
                                     ".offloading.entry_name");
  NameVar->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);

  StructType *EntryTy = getEntryType(M, Layout);
  Constant *Record;
  if (Layout == EntryLayout::Current)
    Record = ConstantStruct::get(
        EntryTy,
        {ConstantInt::get(I64, 0), ConstantInt::get(I16, CurrentEntryVersion),
         ConstantInt::get(I16, Kind), ConstantInt::get(I32, Flags), Address,
         NameVar, ConstantInt::get(I64, Size), ConstantInt::get(I64, Data),
         ConstantPointerNull::get(PointerType::getUnqual(C))});
  else
    Record = ConstantStruct::get(
        EntryTy, {Address, NameVar, ConstantInt::get(I64, Size),
                  ConstantInt::get(I32, Flags), ConstantInt::get(I32, 0)});

  auto *Entry = new GlobalVariable(M, EntryTy, /*Constant=*/true,
                                   GlobalValue::WeakAnyLinkage, Record,
                                   ".offloading.entry." + Name);
  Entry->setSection(SectionName.empty() ? getEntriesSectionName(Layout)
                                        : SectionName);
  Entry->setAlignment(Align(Layout == EntryLayout::Current ? 8 : 1));
  return Entry;
}

} // namespace offload
