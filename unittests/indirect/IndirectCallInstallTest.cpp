//===- IndirectCallInstallTest.cpp - The plugins' table installer ---------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// installIndirectCallTable on a device whose memory is host memory and which
// counts its allocations, so the tests see what is written where and what
// is freed when.
//
//===----------------------------------------------------------------------===//

#include "IndirectCallInstall.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <cstring>
#include <set>

using namespace offload::plugin;

namespace {

struct FakeImage : LoadedImage {
  DeviceEnvironmentLayout Env = {};
  bool HasEnvironment = true;
};

class FakeDevice final : public GenericDevice {
public:
  std::set<void *> Live;

  Status loadImage(const DeviceImageRef &, LoadedImage *&) override {
    return Status::error("unused");
  }
  Status unloadImage(LoadedImage *) override { return Status::ok(); }
  Status getKernel(LoadedImage *, const char *, KernelHandle &) override {
    return Status::error("unused");
  }
  Status getGlobal(LoadedImage *Image, const char *Name, uint64_t,
                   void *&Address) override {
    auto *Fake = static_cast<FakeImage *>(Image);
    if (!Fake->HasEnvironment || std::strcmp(Name, DeviceEnvironmentSymbol))
      return Status::error("no global %s", Name);
    Address = &Fake->Env;
    return Status::ok();
  }
  void *allocate(uint64_t Size, AllocKind) override {
    void *Ptr = std::malloc(Size);
    Live.insert(Ptr);
    return Ptr;
  }
  Status free(void *Ptr, AllocKind) override {
    if (!Live.erase(Ptr))
      return Status::error("double free");
    std::free(Ptr);
    return Status::ok();
  }
  Status dataSubmit(void *Dst, const void *Src, int64_t Size,
                    __tgt_async_info *) override {
    std::memcpy(Dst, Src, Size);
    return Status::ok();
  }
  Status dataRetrieve(void *Dst, const void *Src, int64_t Size,
                      __tgt_async_info *) override {
    std::memcpy(Dst, Src, Size);
    return Status::ok();
  }
  Status dataExchange(const void *, GenericDevice &, void *, int64_t,
                      __tgt_async_info *) override {
    return Status::error("unused");
  }
  Status dataFill(void *, int, int64_t, __tgt_async_info *) override {
    return Status::error("unused");
  }
  Status launchKernel(KernelHandle, void **, uint32_t,
                      const KernelLaunchParams &, __tgt_async_info *) override {
    return Status::error("unused");
  }
  Status synchronize(__tgt_async_info *) override { return Status::ok(); }
  Status queryAsync(__tgt_async_info *, bool &Done) override {
    Done = true;
    return Status::ok();
  }
  bool supportsUnifiedMemory() const override { return true; }
  Status setIndirectCallTable(LoadedImage *Image, const void *const *Hosts,
                              const void *const *Devices,
                              size_t Count) override {
    return installIndirectCallTable(*this, Image, Hosts, Devices, Count);
  }
  void printInfo(FILE *) override {}
};

const void *ptr(uintptr_t Value) { return reinterpret_cast<void *>(Value); }

TEST(IndirectCallInstall, WritesTableAndEnvironment) {
  FakeDevice Device;
  FakeImage Image;
  Image.Env.NumDevices = 3; // Fields other than the table stay as they are.
  const void *Hosts[] = {ptr(0x100), ptr(0x200)};
  const void *Devices[] = {ptr(0xd100), ptr(0xd200)};
  ASSERT_FALSE(Device.setIndirectCallTable(&Image, Hosts, Devices, 2));
  EXPECT_EQ(Image.Env.NumDevices, 3u);
  ASSERT_EQ(Image.Env.IndirectCallTableSize, 2u);
  const auto *Table =
      reinterpret_cast<const uintptr_t *>(Image.Env.IndirectCallTable);
  ASSERT_EQ(Device.Live.count(const_cast<uintptr_t *>(Table)), 1u);
  EXPECT_EQ(Table[0], 0x100u);
  EXPECT_EQ(Table[1], 0xd100u);
  EXPECT_EQ(Table[2], 0x200u);
  EXPECT_EQ(Table[3], 0xd200u);

  // A new table replaces the old one in the environment; the old one stays
  // allocated (a running kernel may still read it) until the image goes.
  ASSERT_FALSE(Device.setIndirectCallTable(&Image, Hosts, Devices, 1));
  EXPECT_EQ(Image.Env.IndirectCallTableSize, 1u);
  EXPECT_EQ(Device.Live.size(), 2u);
  ASSERT_FALSE(Device.setIndirectCallTable(&Image, nullptr, nullptr, 0));
  EXPECT_EQ(Image.Env.IndirectCallTable, 0u);
  EXPECT_EQ(Image.Env.IndirectCallTableSize, 0u);
  EXPECT_TRUE(Device.Live.empty());
}

TEST(IndirectCallInstall, ImagesAreIndependent) {
  FakeDevice Device;
  FakeImage First, Second;
  const void *Hosts[] = {ptr(0x100)};
  const void *Devices[] = {ptr(0xd100)};
  ASSERT_FALSE(Device.setIndirectCallTable(&First, Hosts, Devices, 1));
  ASSERT_FALSE(Device.setIndirectCallTable(&Second, Hosts, Devices, 1));
  ASSERT_FALSE(Device.setIndirectCallTable(&First, nullptr, nullptr, 0));
  EXPECT_EQ(Device.Live.size(), 1u);
  EXPECT_EQ(Second.Env.IndirectCallTableSize, 1u);
  ASSERT_FALSE(Device.setIndirectCallTable(&Second, nullptr, nullptr, 0));
  EXPECT_TRUE(Device.Live.empty());
}

TEST(IndirectCallInstall, ImageWithoutDeviceRuntimeIsLeftAlone) {
  FakeDevice Device;
  FakeImage Image;
  Image.HasEnvironment = false;
  const void *Hosts[] = {ptr(0x100)};
  const void *Devices[] = {ptr(0xd100)};
  EXPECT_FALSE(Device.setIndirectCallTable(&Image, Hosts, Devices, 1));
  EXPECT_TRUE(Device.Live.empty());
}

} // namespace
