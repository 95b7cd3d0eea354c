//===- OffloadEntriesTest.cpp - Entry tables written, compiled, read back -===//

#include "offload/Offloading/OffloadEntries.h"
#include "offload/Offloading/ObjectEmitter.h"

#include "TestHelpers.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstring>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

using namespace llvm;
using namespace offload;

namespace {

/// A host module with a kernel's region id and a declare-target global,
/// described by two entries of \p Layout.
std::unique_ptr<Module> makeHostModule(LLVMContext &C, EntryLayout Layout) {
  auto M = std::make_unique<Module>("host", C);
  M->setTargetTriple(Triple("x86_64-pc-linux-gnu"));
  Type *I8 = Type::getInt8Ty(C), *I32 = Type::getInt32Ty(C);
  auto *RegionId =
      new GlobalVariable(*M, I8, true, GlobalValue::WeakAnyLinkage,
                         ConstantInt::get(I8, 0), ".kernel_a.region_id");
  auto *Global = new GlobalVariable(
      *M, ArrayType::get(I32, 4), false, GlobalValue::ExternalLinkage,
      ConstantAggregateZero::get(ArrayType::get(I32, 4)), "table");
  emitOffloadEntry(*M, Layout, RegionId, "__omp_offloading_kernel_a", 0,
                   OMPTargetRegionEntryTargetRegion);
  emitOffloadEntry(*M, Layout, Global, "table", 16,
                   OMPTargetGlobalVarEntryLink |
                       OMPTargetGlobalVarEntryIndirect);
  return M;
}

class OffloadEntriesRoundTrip : public ::testing::TestWithParam<EntryLayout> {};

TEST_P(OffloadEntriesRoundTrip, CompiledEntriesReadBack) {
  LLVMContext C;
  EntryLayout Layout = GetParam();
  std::unique_ptr<Module> M = makeHostModule(C, Layout);
  Expected<SmallString<0>> ObjectOrErr = emitObject(*M);
  ASSERT_OK(ObjectOrErr);

  Expected<std::unique_ptr<object::ObjectFile>> ObjOrErr =
      object::ObjectFile::createObjectFile(
          MemoryBufferRef(*ObjectOrErr, "host.o"));
  ASSERT_OK(ObjOrErr);
  EXPECT_TRUE(hasOffloadEntries(**ObjOrErr));

  Expected<std::vector<OffloadEntry>> EntriesOrErr =
      readOffloadEntries(**ObjOrErr, Layout);
  ASSERT_OK(EntriesOrErr);
  ASSERT_EQ(EntriesOrErr->size(), 2u);

  const OffloadEntry &Kernel = (*EntriesOrErr)[0];
  EXPECT_EQ(Kernel.Name, "__omp_offloading_kernel_a");
  EXPECT_TRUE(Kernel.isKernel());
  EXPECT_EQ(Kernel.AddressSymbol, ".kernel_a.region_id");
  EXPECT_EQ(Kernel.Flags, uint32_t(OMPTargetRegionEntryTargetRegion));

  const OffloadEntry &Global = (*EntriesOrErr)[1];
  EXPECT_EQ(Global.Name, "table");
  EXPECT_EQ(Global.Size, 16u);
  EXPECT_EQ(Global.AddressSymbol, "table");
  EXPECT_EQ(Global.Flags, uint32_t(OMPTargetGlobalVarEntryLink |
                                   OMPTargetGlobalVarEntryIndirect));
  if (Layout == EntryLayout::Current) {
    EXPECT_EQ(Global.Kind, OffloadKindOpenMP);
    EXPECT_EQ(Global.Version, CurrentEntryVersion);
  }

  // The other layout's section is absent, so its table is empty.
  EntryLayout Other = Layout == EntryLayout::Current ? EntryLayout::Legacy
                                                     : EntryLayout::Current;
  Expected<std::vector<OffloadEntry>> OtherOrErr =
      readOffloadEntries(**ObjOrErr, Other);
  ASSERT_OK(OtherOrErr);
  EXPECT_TRUE(OtherOrErr->empty());

  Expected<std::vector<OffloadEntry>> AllOrErr =
      readAllOffloadEntries(**ObjOrErr);
  ASSERT_OK(AllOrErr);
  EXPECT_EQ(AllOrErr->size(), 2u);
}

INSTANTIATE_TEST_SUITE_P(BothLayouts, OffloadEntriesRoundTrip,
                         ::testing::Values(EntryLayout::Current,
                                           EntryLayout::Legacy));

TEST(OffloadEntries, LayoutFacts) {
  EXPECT_EQ(getEntriesSectionName(EntryLayout::Current),
            "llvm_offload_entries");
  EXPECT_EQ(getEntriesSectionName(EntryLayout::Legacy),
            "omp_offloading_entries");
  EXPECT_EQ(getEntrySize(EntryLayout::Current), 56u);
  EXPECT_EQ(getEntrySize(EntryLayout::Legacy), 32u);

  LLVMContext C;
  Module M("m", C);
  M.setDataLayout("e-m:e-p:64:64-i64:64-n8:16:32:64-S128");
  EXPECT_EQ(
      M.getDataLayout().getTypeAllocSize(getEntryType(M, EntryLayout::Current)),
      56u);
  EXPECT_EQ(
      M.getDataLayout().getTypeAllocSize(getEntryType(M, EntryLayout::Legacy)),
      32u);
}

TEST(OffloadEntries, DescribeFlags) {
  EXPECT_EQ(describeEntryFlags(0, /*IsKernel=*/true), "target-region");
  EXPECT_EQ(describeEntryFlags(OMPTargetRegionEntryCtor, true), "ctor");
  EXPECT_EQ(describeEntryFlags(OMPTargetGlobalVarEntryTo, false), "to");
  EXPECT_EQ(describeEntryFlags(OMPTargetGlobalVarEntryEnter |
                                   OMPTargetGlobalVarEntryIndirect,
                               false),
            "enter|indirect");
  EXPECT_EQ(describeEntryFlags(0x100, false), "to|unknown(0x100)");
}

TEST(OffloadEntries, TruncatedTableIsAnError) {
  LLVMContext C;
  Module M("host", C);
  M.setTargetTriple(Triple("x86_64-pc-linux-gnu"));
  // 10 bytes are no whole number of 56-byte records.
  Type *Bytes = ArrayType::get(Type::getInt8Ty(C), 10);
  auto *Junk = new GlobalVariable(M, Bytes, true, GlobalValue::ExternalLinkage,
                                  ConstantAggregateZero::get(Bytes), "junk");
  Junk->setSection("llvm_offload_entries");
  Expected<SmallString<0>> ObjectOrErr = emitObject(M);
  ASSERT_OK(ObjectOrErr);
  Expected<std::unique_ptr<object::ObjectFile>> ObjOrErr =
      object::ObjectFile::createObjectFile(
          MemoryBufferRef(*ObjectOrErr, "junk.o"));
  ASSERT_OK(ObjOrErr);
  Expected<std::vector<OffloadEntry>> EntriesOrErr =
      readOffloadEntries(**ObjOrErr, EntryLayout::Current);
  EXPECT_THAT(offload_test::errorMessage(std::move(EntriesOrErr)),
              ::testing::HasSubstr("junk.o: section 'llvm_offload_entries': "
                                   "its size 10 is not a multiple of the "
                                   "56-byte record"));
}

/// The 64-byte header of the first ELF64 section of type \p Type in
/// \p Bytes, or null.
char *findSectionHeader(std::string &Bytes, uint32_t Type) {
  // e_shoff at 0x28, e_shnum at 0x3c; sh_type at 4 of each header.
  uint64_t ShOff;
  uint16_t ShNum;
  std::memcpy(&ShOff, Bytes.data() + 0x28, sizeof(ShOff));
  std::memcpy(&ShNum, Bytes.data() + 0x3c, sizeof(ShNum));
  for (uint16_t I = 0; I < ShNum; ++I) {
    char *Header = Bytes.data() + ShOff + I * 64;
    uint32_t HeaderType;
    std::memcpy(&HeaderType, Header + 4, sizeof(HeaderType));
    if (HeaderType == Type)
      return Header;
  }
  return nullptr;
}

TEST(OffloadEntries, RelocationOutsideTheTable) {
  // Found by fuzz/ (entry-object): relocations were kept in a DenseMap by
  // their offset, and the offsets ~0 and ~0 - 1 are its reserved keys.
  LLVMContext C;
  std::unique_ptr<Module> M = makeHostModule(C, EntryLayout::Current);
  Expected<SmallString<0>> ObjectOrErr = emitObject(*M);
  ASSERT_OK(ObjectOrErr);
  std::string Bytes(ObjectOrErr->str());
  // The table's relocations are the module's only ones; sh_offset at 24 of
  // the header, r_offset first in each record.
  char *Rela = findSectionHeader(Bytes, /*SHT_RELA*/ 4);
  ASSERT_NE(Rela, nullptr);
  uint64_t RelaOffset;
  std::memcpy(&RelaOffset, Rela + 24, sizeof(RelaOffset));
  uint64_t Outside = ~0ull;
  std::memcpy(Bytes.data() + RelaOffset, &Outside, sizeof(Outside));

  Expected<std::unique_ptr<object::ObjectFile>> ObjOrErr =
      object::ObjectFile::createObjectFile(MemoryBufferRef(Bytes, "bad.o"));
  ASSERT_OK(ObjOrErr);
  Expected<std::vector<OffloadEntry>> EntriesOrErr =
      readOffloadEntries(**ObjOrErr, EntryLayout::Current);
  EXPECT_EQ(offload_test::errorMessage(std::move(EntriesOrErr)),
            "bad.o: section 'llvm_offload_entries': cannot read its "
            "relocations: a relocation at offset 0xFFFFFFFFFFFFFFFF lies "
            "outside the 112-byte section");
}

TEST(OffloadEntries, UnreadableSymbolTableNamesTheFile) {
  // Found by fuzz/ (entry-object): LLVM's error about the symbol table the
  // relocations refer to was passed on as it was, naming no file.
  LLVMContext C;
  std::unique_ptr<Module> M = makeHostModule(C, EntryLayout::Current);
  Expected<SmallString<0>> ObjectOrErr = emitObject(*M);
  ASSERT_OK(ObjectOrErr);
  std::string Bytes(ObjectOrErr->str());
  // A symbol table entry size (sh_entsize, at 56 of the header) LLVM cannot
  // read the table with.
  char *Symtab = findSectionHeader(Bytes, /*SHT_SYMTAB*/ 2);
  ASSERT_NE(Symtab, nullptr);
  uint64_t EntSize = 7;
  std::memcpy(Symtab + 56, &EntSize, sizeof(EntSize));

  Expected<std::unique_ptr<object::ObjectFile>> ObjOrErr =
      object::ObjectFile::createObjectFile(MemoryBufferRef(Bytes, "bad.o"));
  ASSERT_OK(ObjOrErr);
  Expected<std::vector<OffloadEntry>> EntriesOrErr =
      readOffloadEntries(**ObjOrErr, EntryLayout::Current);
  EXPECT_THAT(offload_test::errorMessage(std::move(EntriesOrErr)),
              ::testing::StartsWith("bad.o: section 'llvm_offload_entries': "
                                    "cannot read its relocations: "));
}

} // namespace
