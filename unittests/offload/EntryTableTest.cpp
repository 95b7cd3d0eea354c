//===- EntryTableTest.cpp - Reading offload entries of either layout -----===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "images/EntryTable.h"

#include "gtest/gtest.h"

using namespace offload;

namespace {

int KernelId, GlobalVar[4], LinkRef;
char KernelName[] = "__omp_offloading_10_20_main_l5";
char GlobalName[] = "GlobalVar";
char LinkName[] = "Var_decl_tgt_ref_ptr";
char RequiresName[] = ".requires";

TEST(EntryTable, ReadsTheLLVM22Layout) {
  __tgt_offload_entry Table[4] = {};
  for (auto &E : Table) {
    E.Version = 1;
    E.Kind = 1;
  }
  Table[0].Address = &KernelId;
  Table[0].SymbolName = KernelName;
  Table[1].Address = GlobalVar;
  Table[1].SymbolName = GlobalName;
  Table[1].Size = sizeof(GlobalVar);
  Table[2].Address = &LinkRef;
  Table[2].SymbolName = LinkName;
  Table[2].Size = sizeof(void *);
  Table[2].Flags = OMP_DECLARE_TARGET_LINK;
  Table[3].SymbolName = RequiresName;
  Table[3].Flags = OMP_REGISTER_REQUIRES;
  Table[3].Data = OMP_REQ_UNIFIED_SHARED_MEMORY;

  std::vector<ImageEntry> Entries;
  std::string Error;
  ASSERT_TRUE(readEntryTable(Table, Table + 4, Entries, Error)) << Error;
  ASSERT_EQ(Entries.size(), 4u);
  EXPECT_EQ(Entries[0].EntryKind, ImageEntry::Kernel);
  EXPECT_EQ(Entries[0].Address, &KernelId);
  EXPECT_STREQ(Entries[0].Name, KernelName);
  EXPECT_EQ(Entries[1].EntryKind, ImageEntry::Global);
  EXPECT_EQ(Entries[1].Size, sizeof(GlobalVar));
  EXPECT_EQ(Entries[2].EntryKind, ImageEntry::LinkGlobal);
  EXPECT_EQ(Entries[3].EntryKind, ImageEntry::Requires);
  EXPECT_EQ(Entries[3].Data,
            static_cast<uint64_t>(OMP_REQ_UNIFIED_SHARED_MEMORY));
}

TEST(EntryTable, ReadsTheLegacyLayout) {
  __tgt_offload_entry_legacy Table[2] = {};
  Table[0].addr = &KernelId;
  Table[0].name = KernelName;
  Table[1].addr = GlobalVar;
  Table[1].name = GlobalName;
  Table[1].size = sizeof(GlobalVar);
  std::vector<ImageEntry> Entries;
  std::string Error;
  ASSERT_TRUE(readEntryTable(Table, Table + 2, Entries, Error)) << Error;
  ASSERT_EQ(Entries.size(), 2u);
  EXPECT_EQ(Entries[0].EntryKind, ImageEntry::Kernel);
  EXPECT_EQ(Entries[0].Address, &KernelId);
  EXPECT_EQ(Entries[1].EntryKind, ImageEntry::Global);
  EXPECT_STREQ(Entries[1].Name, GlobalName);
}

TEST(EntryTable, RejectsTruncatedTables) {
  __tgt_offload_entry Table[2] = {};
  Table[0].SymbolName = KernelName;
  Table[1].SymbolName = KernelName;
  std::vector<ImageEntry> Entries;
  std::string Error;
  const char *End = reinterpret_cast<const char *>(Table + 2) - 8;
  EXPECT_FALSE(readEntryTable(Table, End, Entries, Error));
  EXPECT_NE(Error.find("not a whole number"), std::string::npos) << Error;
}

TEST(EntryTable, RejectsTablesShorterThanAWord) {
  // Found by fuzz/ (entry-table): the layout was told apart by reading the
  // first 8 bytes, past the end of a shorter table.
  std::vector<char> Bytes(5, 0);
  std::vector<ImageEntry> Entries;
  std::string Error;
  EXPECT_FALSE(readEntryTable(Bytes.data(), Bytes.data() + Bytes.size(),
                              Entries, Error));
  EXPECT_NE(Error.find("the entry table is 5 bytes, shorter than any entry"),
            std::string::npos)
      << Error;
}

TEST(EntryTable, RejectsEntriesWithoutNames) {
  __tgt_offload_entry Table[1] = {};
  std::vector<ImageEntry> Entries;
  std::string Error;
  EXPECT_FALSE(readEntryTable(Table, Table + 1, Entries, Error));
  EXPECT_NE(Error.find("no name"), std::string::npos) << Error;
}

TEST(EntryTable, EmptyTableIsFine) {
  std::vector<ImageEntry> Entries;
  std::string Error;
  EXPECT_TRUE(readEntryTable(nullptr, nullptr, Entries, Error));
  EXPECT_TRUE(Entries.empty());
}

} // namespace
