//===- IndirectCallTableTest.cpp - libomptarget's indirect-call table -----===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The table builder on a pretend device whose "device memory" is ordinary
// memory: globals are looked up in a map and read with memcpy.
//
//===----------------------------------------------------------------------===//

#include "indirect/IndirectCallTable.h"

#include "gtest/gtest.h"

#include <cstring>
#include <map>

using namespace offload;

namespace {

struct FakeImage {
  std::map<std::string, void *> Globals;
  IndirectCallDeviceAccess access() {
    IndirectCallDeviceAccess Access;
    Access.FindGlobal = [this](const char *Name, uint64_t, void *&Address,
                               std::string &Error) {
      auto It = Globals.find(Name);
      if (It == Globals.end()) {
        Error = std::string("no global ") + Name;
        return false;
      }
      Address = It->second;
      return true;
    };
    Access.Read = [](void *Dst, const void *Src, uint64_t Size, std::string &) {
      std::memcpy(Dst, Src, Size);
      return true;
    };
    return Access;
  }
};

ImageEntry entry(const char *Name, uintptr_t Host, uint64_t Size,
                 uint32_t Flags) {
  ImageEntry E;
  E.EntryKind = ImageEntry::Indirect;
  E.Name = Name;
  E.Address = reinterpret_cast<void *>(Host);
  E.Size = Size;
  E.Flags = Flags;
  return E;
}

TEST(IndirectCallTable, FunctionsAndVTables) {
  // The device globals: one holds a device function address, the other the
  // address of a device vtable.
  void *DeviceFunction = reinterpret_cast<void *>(0xd000);
  uintptr_t DeviceVTable[3] = {0, 0, 0};
  void *DeviceVTableAddress = DeviceVTable;
  FakeImage Image;
  Image.Globals["fn"] = &DeviceFunction;
  Image.Globals["vt"] = &DeviceVTableAddress;

  ImageEntry Kernel;
  Kernel.EntryKind = ImageEntry::Kernel;
  Kernel.Name = "kernel";
  std::vector<ImageEntry> Entries = {
      Kernel, entry("fn", 0x1000, 8, OMP_DECLARE_TARGET_INDIRECT),
      entry("vt", 0x2000, 24, OMP_DECLARE_TARGET_INDIRECT_VTABLE)};
  std::vector<IndirectCallPair> Pairs;
  std::string Error;
  ASSERT_TRUE(collectIndirectCallPairs(Entries, Image.access(), Pairs, Error))
      << Error;
  ASSERT_EQ(Pairs.size(), 4u);
  EXPECT_EQ(Pairs[0].Host, 0x1000u);
  EXPECT_EQ(Pairs[0].Device, 0xd000u);
  uintptr_t VT = reinterpret_cast<uintptr_t>(DeviceVTable);
  for (unsigned Slot = 0; Slot < 3; ++Slot) {
    EXPECT_EQ(Pairs[1 + Slot].Host, 0x2000u + 8 * Slot);
    EXPECT_EQ(Pairs[1 + Slot].Device, VT + 8 * Slot);
  }
}

TEST(IndirectCallTable, ErrorsNameTheEntry) {
  FakeImage Image;
  void *Device = nullptr;
  Image.Globals["fn"] = &Device;
  std::vector<IndirectCallPair> Pairs;
  std::string Error;
  EXPECT_FALSE(collectIndirectCallPairs(
      {entry("missing", 0x1000, 8, OMP_DECLARE_TARGET_INDIRECT)},
      Image.access(), Pairs, Error));
  EXPECT_NE(Error.find("'missing'"), std::string::npos) << Error;
  EXPECT_FALSE(collectIndirectCallPairs(
      {entry("fn", 0x1000, 4, OMP_DECLARE_TARGET_INDIRECT)}, Image.access(),
      Pairs, Error));
  EXPECT_NE(Error.find("size 4"), std::string::npos) << Error;
  EXPECT_FALSE(collectIndirectCallPairs(
      {entry("fn", 0x1000, 20, OMP_DECLARE_TARGET_INDIRECT_VTABLE)},
      Image.access(), Pairs, Error));
  EXPECT_NE(Error.find("'fn'"), std::string::npos) << Error;
}

TEST(IndirectCallTable, RegistryMergesImages) {
  IndirectCallRegistry Registry;
  int A, B, C; // Image keys.
  Registry.addImage(&A, {{0x300, 0xa3}, {0x100, 0xa1}});
  Registry.addImage(&B, {});
  Registry.addImage(&C, {{0x200, 0xc2}, {0x100, 0xc1}});
  EXPECT_EQ(Registry.images(), (std::vector<const void *>{&A, &B, &C}));
  EXPECT_EQ(Registry.numPairs(), 4u);
  std::vector<IndirectCallPair> Table = Registry.table();
  ASSERT_EQ(Table.size(), 3u);
  // Sorted by host address; the duplicate keeps the first image's address.
  EXPECT_EQ(Table[0].Host, 0x100u);
  EXPECT_EQ(Table[0].Device, 0xa1u);
  EXPECT_EQ(Table[1].Host, 0x200u);
  EXPECT_EQ(Table[2].Host, 0x300u);

  // Unloading the first library exposes the other copy.
  Registry.removeImage(&A);
  Table = Registry.table();
  ASSERT_EQ(Table.size(), 2u);
  EXPECT_EQ(Table[0].Device, 0xc1u);
  EXPECT_EQ(Registry.images(), (std::vector<const void *>{&B, &C}));

  // Re-adding an image replaces its pairs instead of duplicating it.
  Registry.addImage(&C, {{0x400, 0xc4}});
  EXPECT_EQ(Registry.numPairs(), 1u);
  EXPECT_EQ(Registry.images().size(), 2u);
}

} // namespace
