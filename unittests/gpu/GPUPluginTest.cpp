//===- GPUPluginTest.cpp - The plugin object both GPU plugins share -------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// GPUPlugin over a driver and a device defined here: driver loading once,
// devices created on first use (and not kept when they fail to initialize),
// image compatibility by triple or ELF machine, and the messages.
//
//===----------------------------------------------------------------------===//

#include "gpu/GPUPlugin.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

using namespace offload::plugin;

namespace {

struct FakeDriver {
  static int Loads;
  static int32_t DevicesToReport;
  static std::string defaultLibrary() { return "libfake-driver.so"; }
  static std::unique_ptr<FakeDriver> load(const std::string &Library) {
    ++Loads;
    auto Driver = std::make_unique<FakeDriver>();
    Driver->Library = Library;
    return Driver;
  }
  int32_t numDevices() const { return DevicesToReport; }
  const std::string &unavailableReason() const { return Reason; }
  std::string Library;
  std::string Reason = "the fake driver has no GPU";
};
int FakeDriver::Loads = 0;
int32_t FakeDriver::DevicesToReport = 0;

/// What GPUPlugin calls (the constructor, initialize()); device 1 fails to
/// initialize. The GenericDevice operations are not used here.
class FakeDevice final : public GenericDevice {
public:
  static int Created;
  FakeDevice(const FakeDriver &Driver, int32_t Id, int32_t NumDevices)
      : Driver(&Driver), Id(Id), NumDevices(NumDevices) {
    ++Created;
  }
  Status initialize() {
    return Id == 1 ? Status::error("device 1 is broken") : Status::ok();
  }
  /// Whether the devices can read the host's pageable memory.
  static bool PageableAccess;
  Status checkUnifiedMemory() const {
    return PageableAccess ? Status::ok()
                          : Status::error("device %d cannot read pageable "
                                          "memory",
                                          Id);
  }
  const FakeDriver *Driver;
  int32_t Id, NumDevices;

  Status loadImage(const DeviceImageRef &, LoadedImage *&) override {
    return unused();
  }
  Status unloadImage(LoadedImage *) override { return unused(); }
  Status getKernel(LoadedImage *, const char *, KernelHandle &) override {
    return unused();
  }
  Status getGlobal(LoadedImage *, const char *, uint64_t, void *&) override {
    return unused();
  }
  void *allocate(uint64_t, AllocKind) override { return nullptr; }
  Status free(void *, AllocKind) override { return unused(); }
  Status dataSubmit(void *, const void *, int64_t,
                    __tgt_async_info *) override {
    return unused();
  }
  Status dataRetrieve(void *, const void *, int64_t,
                      __tgt_async_info *) override {
    return unused();
  }
  Status dataExchange(const void *, GenericDevice &, void *, int64_t,
                      __tgt_async_info *) override {
    return unused();
  }
  Status dataFill(void *, int, int64_t, __tgt_async_info *) override {
    return unused();
  }
  Status launchKernel(KernelHandle, void **, uint32_t,
                      const KernelLaunchParams &, __tgt_async_info *) override {
    return unused();
  }
  Status synchronize(__tgt_async_info *) override { return unused(); }
  Status queryAsync(__tgt_async_info *, bool &) override { return unused(); }
  bool supportsUnifiedMemory() const override { return false; }
  Status setIndirectCallTable(LoadedImage *, const void *const *,
                              const void *const *, size_t) override {
    return unused();
  }
  void printInfo(FILE *) override {}

private:
  static Status unused() { return Status::error("not used by these tests"); }
};
int FakeDevice::Created = 0;
bool FakeDevice::PageableAccess = true;

class FakePlugin final : public GPUPlugin<FakeDriver, FakeDevice> {
public:
  FakePlugin() : GPUPlugin({"fake", "fakegpu", 0x1234}) {}
};

/// An ELF header (just the bytes GPUPlugin looks at) for \p Machine.
std::vector<unsigned char> elfFor(uint16_t Machine) {
  std::vector<unsigned char> Bytes(64, 0);
  Bytes[0] = 0x7f;
  Bytes[1] = 'E';
  Bytes[2] = 'L';
  Bytes[3] = 'F';
  Bytes[18] = Machine & 0xff;
  Bytes[19] = Machine >> 8;
  return Bytes;
}

DeviceImageRef imageRef(const std::vector<unsigned char> &Bytes,
                        const char *Triple) {
  DeviceImageRef Ref;
  Ref.Start = Bytes.data();
  Ref.Size = Bytes.size();
  Ref.Triple = Triple;
  return Ref;
}

TEST(GPUPlugin, NoDeviceIsReportedWhenItMatters) {
  FakeDriver::Loads = 0;
  FakeDriver::DevicesToReport = 0;
  FakePlugin Plugin;
  EXPECT_STREQ(Plugin.getName(), "fake");
  EXPECT_EQ(Plugin.getNumDevices(), 0); // before initialize
  setenv("OMP_TARGET_OFFLOAD", "mandatory", 1);
  testing::internal::CaptureStderr();
  EXPECT_EQ(Plugin.initialize(), 0);
  std::string Message = testing::internal::GetCapturedStderr();
  unsetenv("OMP_TARGET_OFFLOAD");
  EXPECT_EQ(Message, "omptarget: the fake plugin has no device: the fake "
                     "driver has no GPU\n");
  // The driver is loaded once, whatever the number of initialize calls.
  EXPECT_EQ(Plugin.initialize(), 0);
  EXPECT_EQ(FakeDriver::Loads, 1);
  Status Error;
  EXPECT_EQ(Plugin.getDevice(0, Error), nullptr);
  EXPECT_EQ(Error.message(), "the fake plugin has no device 0");
}

TEST(GPUPlugin, DevicesAreCreatedOnceOnFirstUse) {
  FakeDriver::DevicesToReport = 3;
  FakeDevice::Created = 0;
  FakePlugin Plugin;
  Status Error;
  EXPECT_EQ(Plugin.getDevice(0, Error), nullptr); // not initialized yet
  ASSERT_EQ(Plugin.initialize(), 3);
  EXPECT_EQ(FakeDevice::Created, 0);
  FakeDevice *Device = Plugin.getDevice(2, Error);
  ASSERT_NE(Device, nullptr);
  EXPECT_EQ(Device->Id, 2);
  EXPECT_EQ(Device->NumDevices, 3);
  EXPECT_EQ(Device->Driver->Library, "libfake-driver.so");
  EXPECT_EQ(Plugin.getDevice(2, Error), Device);
  EXPECT_EQ(FakeDevice::Created, 1);
  // A device that fails to initialize is not kept: the next call retries.
  EXPECT_EQ(Plugin.getDevice(1, Error), nullptr);
  EXPECT_EQ(Error.message(), "device 1 is broken");
  EXPECT_EQ(Plugin.getDevice(1, Error), nullptr);
  EXPECT_EQ(FakeDevice::Created, 3);
  EXPECT_EQ(Plugin.getDevice(3, Error), nullptr);
  EXPECT_EQ(Plugin.getDevice(-1, Error), nullptr);
  EXPECT_EQ(Error.message(), "the fake plugin has no device -1");
}

TEST(GPUPlugin, UnifiedSharedMemoryIsCheckedOnEveryDevice) {
  FakeDriver::DevicesToReport = 1;
  FakePlugin One;
  ASSERT_EQ(One.initialize(), 1);
  EXPECT_FALSE(One.checkRequiresFlags(OMP_REQ_UNIFIED_SHARED_MEMORY));
  FakeDevice::PageableAccess = false;
  EXPECT_FALSE(One.checkRequiresFlags(0));
  Status Refused = One.checkRequiresFlags(OMP_REQ_UNIFIED_SHARED_MEMORY);
  FakeDevice::PageableAccess = true;
  ASSERT_TRUE(Refused);
  EXPECT_EQ(Refused.message(), "device 0 cannot read pageable memory");

  FakeDriver::DevicesToReport = 3;
  FakePlugin Three;
  ASSERT_EQ(Three.initialize(), 3);
  // Without the requirement nothing is asked (device 1 would fail to start).
  EXPECT_FALSE(Three.checkRequiresFlags(0));
  // With it, the first device that cannot comply stops the check.
  Status S = Three.checkRequiresFlags(OMP_REQ_UNIFIED_SHARED_MEMORY);
  ASSERT_TRUE(S);
  EXPECT_EQ(S.message(), "device 1 is broken");
}

TEST(GPUPlugin, ImagesAreRecognizedByTripleOrMachine) {
  FakePlugin Plugin;
  std::vector<unsigned char> Ours = elfFor(0x1234), Other = elfFor(62);
  // The container's triple decides when there is one.
  EXPECT_TRUE(Plugin.isImageCompatible(imageRef(Other, "fakegpu-vendor-os")));
  EXPECT_FALSE(Plugin.isImageCompatible(imageRef(Ours, "x86_64-pc-linux")));
  // Without one, the ELF machine.
  EXPECT_TRUE(Plugin.isImageCompatible(imageRef(Ours, "")));
  EXPECT_FALSE(Plugin.isImageCompatible(imageRef(Other, "")));
  std::vector<unsigned char> NotELF(Ours);
  NotELF[1] = 'X';
  EXPECT_FALSE(Plugin.isImageCompatible(imageRef(NotELF, "")));
  std::vector<unsigned char> Short(Ours.begin(), Ours.begin() + 20);
  EXPECT_FALSE(Plugin.isImageCompatible(imageRef(Short, "")));
}

} // namespace
