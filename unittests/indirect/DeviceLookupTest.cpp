//===- DeviceLookupTest.cpp - The device runtime's indirect-call lookup ---===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Runs the CPU build of __llvm_omp_indirect_call_lookup (libompdevice.a)
// against tables of several sizes and key distributions, comparing every
// answer with a std::map.
//
//===----------------------------------------------------------------------===//

#include "DeviceABI.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <vector>

extern "C" {
extern ompx::DeviceEnvironmentTy __omp_rtl_device_environment;
void *__llvm_omp_indirect_call_lookup(void *HostPtr);
void *__kmpc_target_translate_fptr(void *HostPtr);
}

namespace {

using ompx::IndirectCallEntryTy;

void *asPtr(uintptr_t Value) { return reinterpret_cast<void *>(Value); }

/// Installs \p Table in the device environment for the test's duration.
class TableInstaller {
public:
  explicit TableInstaller(const std::vector<IndirectCallEntryTy> &Table) {
    __omp_rtl_device_environment.IndirectCallTable =
        reinterpret_cast<uintptr_t>(Table.data());
    __omp_rtl_device_environment.IndirectCallTableSize = Table.size();
  }
  ~TableInstaller() {
    __omp_rtl_device_environment.IndirectCallTable = 0;
    __omp_rtl_device_environment.IndirectCallTableSize = 0;
  }
};

/// A sorted table for \p Keys (distinct), device address = key ^ 0xd00d0000.
std::vector<IndirectCallEntryTy> makeTable(std::vector<uintptr_t> Keys) {
  std::sort(Keys.begin(), Keys.end());
  std::vector<IndirectCallEntryTy> Table;
  for (uintptr_t Key : Keys)
    Table.push_back({asPtr(Key), asPtr(Key ^ 0xd00d0000u)});
  return Table;
}

/// Looks up every key, every key +-1 and addresses outside the table, and
/// compares with the answer of a map.
void checkAgainstMap(const std::vector<IndirectCallEntryTy> &Table) {
  TableInstaller Installed(Table);
  std::map<uintptr_t, void *> Reference;
  for (const IndirectCallEntryTy &E : Table)
    Reference[reinterpret_cast<uintptr_t>(E.HostPtr)] = E.DevicePtr;
  auto Expect = [&](uintptr_t Key) {
    auto It = Reference.find(Key);
    void *Want = It == Reference.end() ? asPtr(Key) : It->second;
    ASSERT_EQ(__llvm_omp_indirect_call_lookup(asPtr(Key)), Want)
        << "key 0x" << std::hex << Key << " in a table of " << std::dec
        << Table.size() << " entries";
  };
  for (const auto &[Key, Device] : Reference) {
    Expect(Key);
    Expect(Key - 1);
    Expect(Key + 1);
  }
  Expect(0);
  Expect(1);
  Expect(~uintptr_t(0));
  Expect(Reference.begin()->first / 2);
}

TEST(DeviceLookup, NoTableReturnsThePointer) {
  TableInstaller Installed({});
  EXPECT_EQ(__llvm_omp_indirect_call_lookup(asPtr(0x1234)), asPtr(0x1234));
  EXPECT_EQ(__llvm_omp_indirect_call_lookup(nullptr), nullptr);
}

TEST(DeviceLookup, TranslateFptrIsTheSameLookup) {
  std::vector<IndirectCallEntryTy> Table = makeTable({0x1000, 0x2000});
  TableInstaller Installed(Table);
  EXPECT_EQ(__kmpc_target_translate_fptr(asPtr(0x2000)), Table[1].DevicePtr);
  EXPECT_EQ(__kmpc_target_translate_fptr(asPtr(0x3000)), asPtr(0x3000));
}

TEST(DeviceLookup, SmallTables) {
  for (unsigned Size = 1; Size <= 40; ++Size) {
    std::vector<uintptr_t> Keys;
    for (unsigned I = 0; I < Size; ++I)
      Keys.push_back(0x400000 + 16 * I * I + 8);
    checkAgainstMap(makeTable(Keys));
  }
}

TEST(DeviceLookup, UniformAddresses) {
  std::mt19937_64 Random(7);
  for (unsigned Size : {100u, 1000u, 100000u}) {
    std::vector<uintptr_t> Keys;
    std::uniform_int_distribution<uintptr_t> Address(0x400000, 0x8000000);
    while (Keys.size() < Size) {
      while (Keys.size() < Size)
        Keys.push_back(Address(Random) & ~uintptr_t(15));
      std::sort(Keys.begin(), Keys.end());
      Keys.erase(std::unique(Keys.begin(), Keys.end()), Keys.end());
    }
    checkAgainstMap(makeTable(Keys));
  }
}

// Interpolation is misled by skewed keys; the search must still be right.
TEST(DeviceLookup, SkewedAddresses) {
  std::vector<uintptr_t> Keys;
  // Two clusters far apart (a program and a library), one huge outlier.
  for (uintptr_t I = 0; I < 3000; ++I)
    Keys.push_back(0x400000 + 32 * I);
  for (uintptr_t I = 0; I < 50; ++I)
    Keys.push_back(0x7f0000000000 + 64 * I);
  Keys.push_back(0xffffffffff00);
  checkAgainstMap(makeTable(Keys));
  // Exponentially growing gaps.
  std::vector<uintptr_t> Growing;
  for (unsigned I = 0; I < 44; ++I)
    Growing.push_back((uintptr_t(1) << I) + I);
  checkAgainstMap(makeTable(Growing));
}

} // namespace
