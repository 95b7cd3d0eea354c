//===- DataMappingTest.cpp - Map clauses against a device's table --------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The OpenMP 5.2 rules of mapEnter/mapExit/mapUpdate, on a device of a
// plugin defined here whose memory is a plain heap buffer, so every copy
// and every reference count can be observed.
//
//===----------------------------------------------------------------------===//

#include "mapping/DataMapping.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <cstring>
#include <set>

using namespace offload;
using namespace offload::plugin;

namespace {

/// A device whose memory is malloc'ed and whose copies are memcpy; counts
/// live allocations so leaks and double frees show.
class MemoryDevice final : public GenericDevice {
public:
  std::set<void *> Live;
  int Submits = 0, Retrieves = 0;

  Status loadImage(const DeviceImageRef &, LoadedImage *&) override {
    return Status::error("no images");
  }
  Status unloadImage(LoadedImage *) override { return Status::ok(); }
  Status getKernel(LoadedImage *, const char *, KernelHandle &) override {
    return Status::error("no kernels");
  }
  Status getGlobal(LoadedImage *, const char *, uint64_t, void *&) override {
    return Status::error("no globals");
  }
  void *allocate(uint64_t Size, AllocKind) override {
    void *P = std::calloc(1, Size ? Size : 1);
    Live.insert(P);
    return P;
  }
  Status free(void *P, AllocKind) override {
    if (!Live.erase(P))
      return Status::error("double free");
    std::free(P);
    return Status::ok();
  }
  Status dataSubmit(void *Dst, const void *Src, int64_t Size,
                    __tgt_async_info *) override {
    ++Submits;
    std::memcpy(Dst, Src, Size);
    return Status::ok();
  }
  Status dataRetrieve(void *Dst, const void *Src, int64_t Size,
                      __tgt_async_info *) override {
    ++Retrieves;
    std::memcpy(Dst, Src, Size);
    return Status::ok();
  }
  Status dataExchange(const void *Src, GenericDevice &, void *Dst, int64_t Size,
                      __tgt_async_info *) override {
    std::memcpy(Dst, Src, Size);
    return Status::ok();
  }
  Status dataFill(void *Dst, int Value, int64_t Size,
                  __tgt_async_info *) override {
    std::memset(Dst, Value, Size);
    return Status::ok();
  }
  Status launchKernel(KernelHandle, void **, uint32_t,
                      const KernelLaunchParams &, __tgt_async_info *) override {
    return Status::error("no kernels");
  }
  Status synchronize(__tgt_async_info *) override { return Status::ok(); }
  Status queryAsync(__tgt_async_info *, bool &Done) override {
    Done = true;
    return Status::ok();
  }
  bool supportsUnifiedMemory() const override { return false; }
  Status setIndirectCallTable(LoadedImage *, const void *const *,
                              const void *const *, size_t) override {
    return Status::ok();
  }
  void printInfo(FILE *) override {}
};

class MemoryPlugin final : public GenericPlugin {
public:
  MemoryDevice Device;
  const char *getName() const override { return "memory"; }
  int32_t initialize() override { return 1; }
  int32_t getNumDevices() const override { return 1; }
  bool isImageCompatible(const DeviceImageRef &) const override {
    return false;
  }
  GenericDevice *getDevice(int32_t, Status &) override { return &Device; }
  void setRequiresFlags(int64_t) override {}
};

/// One list item and the arrays the compiler would pass for it.
struct Maps {
  std::vector<void *> Bases, Begins;
  std::vector<int64_t> Sizes, Types;
  Maps &add(void *Base, void *Begin, int64_t Size, uint64_t Type) {
    Bases.push_back(Base);
    Begins.push_back(Begin);
    Sizes.push_back(Size);
    Types.push_back(static_cast<int64_t>(Type));
    return *this;
  }
  Maps &add(void *Begin, int64_t Size, uint64_t Type) {
    return add(Begin, Begin, Size, Type);
  }
  MapList list() {
    MapList L;
    L.Count = static_cast<int32_t>(Bases.size());
    L.Bases = Bases.data();
    L.Begins = Begins.data();
    L.Sizes = Sizes.data();
    L.Types = Types.data();
    return L;
  }
};

constexpr uint64_t To = OMP_TGT_MAPTYPE_TO, From = OMP_TGT_MAPTYPE_FROM,
                   ToFrom = To | From;

class DataMappingTest : public ::testing::Test {
protected:
  DataMappingTest() {
    Record.Name = "memory";
    Record.Plugin = &Plugin;
    Record.NumDevices = 1;
    Dev = std::make_unique<Device>(0, Record, 0);
    EXPECT_TRUE(Dev->prepare());
  }
  ~DataMappingTest() override {
    // Everything a test mapped must have been released.
    EXPECT_TRUE(Plugin.Device.Live.empty());
    // Every construct, failed ones included, settled what it made
    // unsettled (step 1 of the next one skips its lookups only then).
    EXPECT_FALSE(Dev->Mappings.lock()->anyUnsettled());
  }

  bool enter(Maps M) { return mapEnter(*Dev, nullptr, M.list()); }
  bool exit(Maps M) { return mapExit(*Dev, nullptr, M.list()); }
  bool update(Maps M) { return mapUpdate(*Dev, nullptr, M.list()); }
  MapEntry *entry(void *P) {
    LookupResult R =
        Dev->Mappings.lock()->lookup(reinterpret_cast<uintptr_t>(P), 0);
    return R.Status == LookupResult::Contained ? R.Entry : nullptr;
  }
  int deviceValue(int *P) {
    return *reinterpret_cast<int *>(
        entry(P)->translate(reinterpret_cast<uintptr_t>(P)));
  }

  MemoryPlugin Plugin;
  PluginRecord Record;
  std::unique_ptr<Device> Dev;
};

TEST_F(DataMappingTest, DynamicReferenceCountDecidesTheCopies) {
  int X = 1;
  ASSERT_TRUE(enter(Maps().add(&X, sizeof X, To)));
  ASSERT_TRUE(entry(&X));
  EXPECT_EQ(deviceValue(&X), 1);
  X = 2; // a second `to` on a present item copies nothing
  ASSERT_TRUE(enter(Maps().add(&X, sizeof X, To)));
  EXPECT_EQ(entry(&X)->DynRefCount, 2u);
  EXPECT_EQ(deviceValue(&X), 1);
  ASSERT_TRUE(enter(Maps().add(&X, sizeof X, To | OMP_TGT_MAPTYPE_ALWAYS)));
  EXPECT_EQ(deviceValue(&X), 2);
  // `from` copies only when the count reaches zero.
  *reinterpret_cast<int *>(entry(&X)->TgtBegin) = 7;
  ASSERT_TRUE(exit(Maps().add(&X, sizeof X, From)));
  ASSERT_TRUE(exit(Maps().add(&X, sizeof X, From)));
  EXPECT_EQ(X, 2);
  ASSERT_TRUE(exit(Maps().add(&X, sizeof X, From)));
  EXPECT_EQ(X, 7);
  EXPECT_EQ(entry(&X), nullptr);
}

TEST_F(DataMappingTest, DeleteIgnoresTheDynamicCountButNotTheHoldCount) {
  int X = 1;
  ASSERT_TRUE(enter(Maps().add(&X, sizeof X, To | OMP_TGT_MAPTYPE_OMPX_HOLD)));
  ASSERT_TRUE(enter(Maps().add(&X, sizeof X, To)));
  ASSERT_TRUE(enter(Maps().add(&X, sizeof X, To)));
  ASSERT_TRUE(exit(Maps().add(&X, sizeof X, OMP_TGT_MAPTYPE_DELETE)));
  ASSERT_NE(entry(&X), nullptr);
  EXPECT_EQ(entry(&X)->DynRefCount, 0u);
  EXPECT_EQ(entry(&X)->HoldRefCount, 1u);
  ASSERT_TRUE(exit(Maps().add(&X, sizeof X, OMP_TGT_MAPTYPE_OMPX_HOLD)));
  EXPECT_EQ(entry(&X), nullptr);
}

TEST_F(DataMappingTest, PresentFailsWhenAbsentOnEnterExitAndUpdate) {
  int X = 1;
  EXPECT_FALSE(enter(Maps().add(&X, sizeof X, To | OMP_TGT_MAPTYPE_PRESENT)));
  EXPECT_FALSE(exit(Maps().add(&X, sizeof X, From | OMP_TGT_MAPTYPE_PRESENT)));
  EXPECT_FALSE(update(Maps().add(&X, sizeof X, To | OMP_TGT_MAPTYPE_PRESENT)));
  // Without `present`, updating or releasing absent storage does nothing.
  EXPECT_TRUE(update(Maps().add(&X, sizeof X, To)));
  EXPECT_TRUE(exit(Maps().add(&X, sizeof X, From)));
  EXPECT_EQ(Plugin.Device.Submits + Plugin.Device.Retrieves, 0);
}

TEST_F(DataMappingTest, ExtendingAMappingIsAnError) {
  int A[8] = {};
  ASSERT_TRUE(enter(Maps().add(A, 4 * sizeof(int), To)));
  EXPECT_FALSE(enter(Maps().add(A + 2, 4 * sizeof(int), To)));
  EXPECT_FALSE(enter(Maps().add(A, 8 * sizeof(int), To)));
  // A sub-range is fine and shares the entry.
  ASSERT_TRUE(enter(Maps().add(A + 1, 2 * sizeof(int), To)));
  EXPECT_EQ(entry(A)->DynRefCount, 2u);
  ASSERT_TRUE(exit(Maps().add(A + 1, 2 * sizeof(int), 0)));
  ASSERT_TRUE(exit(Maps().add(A, 4 * sizeof(int), 0)));
}

TEST_F(DataMappingTest, ItemsSharingAnEntryReleaseItOnce) {
  int A[4] = {1, 2, 3, 4};
  Maps M;
  M.add(A, sizeof A, ToFrom).add(A + 1, sizeof(int), ToFrom);
  ASSERT_TRUE(enter(M));
  EXPECT_EQ(entry(A)->DynRefCount, 2u);
  *reinterpret_cast<int *>(entry(A)->TgtBegin + sizeof(int)) = 20;
  // Both items drop the count to zero in one construct: one copy back and
  // one free (the fixture checks nothing stays allocated).
  ASSERT_TRUE(exit(M));
  EXPECT_EQ(A[1], 20);
  EXPECT_EQ(entry(A), nullptr);
}

TEST_F(DataMappingTest, ZeroLengthSectionsCreateNothing) {
  int A[4] = {};
  ASSERT_TRUE(enter(Maps().add(A, 0, To)));
  EXPECT_EQ(entry(A), nullptr);
  EXPECT_TRUE(Plugin.Device.Live.empty());
}

TEST_F(DataMappingTest, MembersShareTheirStructAndCopyWhenItIsNew) {
  struct {
    int A;
    int Pad[6];
    int B;
  } S = {1, {9, 9, 9, 9, 9, 9}, 2};
  uint64_t Member1 = uint64_t(1) << 48;
  // Parent (TARGET_PARAM, no copy) spanning A..B, then the members.
  Maps M;
  M.add(&S, &S.A, sizeof S, OMP_TGT_MAPTYPE_TARGET_PARAM)
      .add(&S, &S.A, sizeof S.A, Member1 | ToFrom)
      .add(&S, &S.B, sizeof S.B, Member1 | ToFrom);
  ASSERT_TRUE(enter(M));
  MapEntry *E = entry(&S.A);
  ASSERT_NE(E, nullptr);
  EXPECT_EQ(E->DynRefCount, 1u); // members do not count
  EXPECT_EQ(deviceValue(&S.A), 1);
  EXPECT_EQ(deviceValue(&S.B), 2);
  EXPECT_EQ(deviceValue(&S.Pad[0]), 0); // only the members travelled
  *reinterpret_cast<int *>(E->translate(reinterpret_cast<uintptr_t>(&S.B))) =
      20;
  ASSERT_TRUE(exit(M));
  EXPECT_EQ(S.B, 20);
  EXPECT_EQ(S.Pad[0], 9);
}

TEST_F(DataMappingTest, AttachedPointersSurviveCopiesBothWays) {
  int Data[4] = {1, 2, 3, 4};
  struct {
    int N;
    int *P;
  } S = {4, Data};
  // map(tofrom: s, s.p[0:4]) as LLVM 22 emits it: struct, pointee, attach.
  Maps M;
  M.add(&S, sizeof S, ToFrom | OMP_TGT_MAPTYPE_TARGET_PARAM)
      .add(Data, sizeof Data, ToFrom)
      .add(&S.P, Data, sizeof(void *), OMP_TGT_MAPTYPE_ATTACH);
  ASSERT_TRUE(enter(M));
  MapEntry *Struct = entry(&S);
  MapEntry *Pointee = entry(Data);
  ASSERT_TRUE(Struct && Pointee);
  uintptr_t DevicePointer = *reinterpret_cast<uintptr_t *>(
      Struct->translate(reinterpret_cast<uintptr_t>(&S.P)));
  EXPECT_EQ(DevicePointer, Pointee->TgtBegin);
  // An `always, to` of the struct keeps the device pointer...
  ASSERT_TRUE(update(Maps().add(&S, sizeof S, To)));
  EXPECT_EQ(*reinterpret_cast<uintptr_t *>(
                Struct->translate(reinterpret_cast<uintptr_t>(&S.P))),
            Pointee->TgtBegin);
  // ...and copying the struct back keeps the host pointer.
  ASSERT_TRUE(exit(M));
  EXPECT_EQ(S.P, Data);
}

TEST_F(DataMappingTest, ReturnParamGivesTheDeviceAddress) {
  int A[4] = {};
  ASSERT_TRUE(enter(Maps().add(A, sizeof A, To)));
  Maps M;
  M.add(A, A, 0, OMP_TGT_MAPTYPE_RETURN_PARAM);
  MapList L = M.list();
  ASSERT_TRUE(mapEnter(*Dev, nullptr, L));
  EXPECT_EQ(reinterpret_cast<uintptr_t>(L.Bases[0]), entry(A)->TgtBegin);
  ASSERT_TRUE(exit(M));
  ASSERT_TRUE(exit(Maps().add(A, sizeof A, 0)));
}

TEST_F(DataMappingTest, KernelArgumentsTranslateBasesAndCopyPrivates) {
  int A[4] = {1, 2, 3, 4};
  int Scalar = 5;
  Maps M;
  M.add(A, A + 1, 2 * sizeof(int), To | OMP_TGT_MAPTYPE_TARGET_PARAM)
      .add(reinterpret_cast<void *>(uintptr_t(42)), nullptr, 0,
           OMP_TGT_MAPTYPE_LITERAL | OMP_TGT_MAPTYPE_TARGET_PARAM)
      .add(&Scalar, sizeof Scalar,
           To | OMP_TGT_MAPTYPE_PRIVATE | OMP_TGT_MAPTYPE_TARGET_PARAM);
  MapList L = M.list();
  ASSERT_TRUE(mapEnter(*Dev, nullptr, L));
  std::vector<void *> Args;
  PrivateAllocations Privates;
  ASSERT_TRUE(kernelArguments(*Dev, nullptr, L, Args, Privates));
  ASSERT_EQ(Args.size(), 3u);
  // The base of a section is translated even though only A[1..2] is mapped.
  EXPECT_EQ(reinterpret_cast<uintptr_t>(Args[0]),
            entry(A + 1)->TgtBegin - sizeof(int));
  EXPECT_EQ(reinterpret_cast<uintptr_t>(Args[1]), 42u);
  ASSERT_EQ(Privates.Pointers.size(), 1u);
  EXPECT_NE(Args[2], &Scalar);
  EXPECT_EQ(*static_cast<int *>(Args[2]), 5);
  for (void *P : Privates.Pointers)
    EXPECT_FALSE(Plugin.Device.free(P, AllocKind::Device));
  ASSERT_TRUE(mapExit(*Dev, nullptr, L));
}

// kernelArguments reuses the entries mapEnter found only while none has
// been removed since; then it searches again.
TEST_F(DataMappingTest, KernelArgumentsReuseEnteredEntriesOnlyWhileValid) {
  int A[4] = {1, 2, 3, 4};
  int B[2] = {5, 6};
  int Unmapped[2] = {7, 8};
  uint64_t Param = OMP_TGT_MAPTYPE_TARGET_PARAM;
  Maps M;
  M.add(A, sizeof A, To | Param)
      .add(B, sizeof B, To | Param)
      // Zero-length and absent: no entry, the host address is passed.
      .add(Unmapped, Unmapped, 0, Param);
  MapList L = M.list();
  EnteredEntries Entered;
  ASSERT_TRUE(mapEnter(*Dev, nullptr, L, &Entered));
  ASSERT_TRUE(Entered.Valid);
  ASSERT_EQ(Entered.Entries.size(), 3u);
  EXPECT_EQ(Entered.Entries[0], entry(A));
  EXPECT_EQ(Entered.Entries[1], entry(B));
  EXPECT_EQ(Entered.Entries[2], nullptr);
  std::vector<void *> Searched, Reused;
  PrivateAllocations Privates;
  ASSERT_TRUE(kernelArguments(*Dev, nullptr, L, Searched, Privates));
  ASSERT_TRUE(kernelArguments(*Dev, nullptr, L, Reused, Privates, &Entered));
  EXPECT_EQ(Searched, Reused);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(Reused[0]), entry(A)->TgtBegin);
  EXPECT_EQ(Reused[2], static_cast<void *>(Unmapped));
  // Another construct removes B (map delete): the entries found before are
  // not used, B is passed as unmapped.
  ASSERT_TRUE(exit(Maps().add(B, sizeof B, OMP_TGT_MAPTYPE_DELETE)));
  std::vector<void *> After;
  ASSERT_TRUE(kernelArguments(*Dev, nullptr, L, After, Privates, &Entered));
  ASSERT_EQ(After.size(), 3u);
  EXPECT_EQ(After[0], Reused[0]);
  EXPECT_EQ(After[1], static_cast<void *>(B));
  ASSERT_TRUE(mapExit(*Dev, nullptr, L));
}

} // namespace
