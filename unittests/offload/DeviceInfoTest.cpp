//===- DeviceInfoTest.cpp - llvm-offload-device-info's library ------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "DeviceInfo.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include "gtest/gtest.h"

using namespace offload;
using namespace offload::deviceinfo;

namespace {

std::string report(const std::vector<PluginEntry> &Plugins) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  printReport(Plugins, OS);
  return Text;
}

TEST(DeviceInfo, PluginsWithoutDevicesSayWhy) {
  PluginEntry Broken;
  Broken.Name = "amdgpu";
  Broken.LoadError = "libfoo.so: cannot open shared object file";
  PluginEntry NoDriver;
  NoDriver.Name = "cuda";
  NoDriver.NoDeviceReason = "no CUDA driver: cannot load 'libcuda.so.1'";
  PluginEntry Silent;
  Silent.Name = "other";
  EXPECT_EQ(report({Broken, NoDriver, Silent}),
            "Num Devices: 0\n"
            "amdgpu plugin: cannot be loaded: libfoo.so: cannot open shared "
            "object file\n"
            "cuda plugin: no device: no CUDA driver: cannot load "
            "'libcuda.so.1'\n"
            "other plugin: no device: zero devices\n");
  EXPECT_EQ(report({}), "no offload plugin found\n");
}

TEST(DeviceInfo, KnownPropertiesOnly) {
  PluginEntry Plugin;
  Plugin.Name = "cuda";
  DeviceEntry Device;
  Device.Index = 0;
  plugin::DeviceProperties &P = Device.Properties;
  P.Name = "GPU";
  P.Architecture = "sm_90";
  P.GlobalMemoryBytes = uint64_t(80) << 30;
  P.ClockKHz = 1980000;
  P.WarpSize = 32;
  P.MaxBlockDims[0] = 1024;
  P.MaxBlockDims[1] = 1024;
  P.MaxBlockDims[2] = 64;
  P.UnifiedMemory = false;
  P.UnifiedMemoryDetail = "no HMM";
  P.Extra.push_back({"Managed memory", "yes"});
  DeviceEntry Failed;
  Failed.Index = 1;
  Failed.Error = "cuDevicePrimaryCtxRetain failed";
  Plugin.Devices = {Device, Failed};
  EXPECT_EQ(report({Plugin}),
            "Num Devices: 1\n"
            "cuda plugin: 2 devices\n"
            "  [GPU] cuda device 0:\n"
            "    Name                        GPU\n"
            "    Architecture                sm_90\n"
            "    Global memory               80.0 GiB (85899345920 bytes)\n"
            "    Clock                       1980 MHz\n"
            "    Warp size                   32\n"
            "    Max block dimensions        1024 x 1024 x 64\n"
            "    Unified shared memory       no (no HMM)\n"
            "    Managed memory              yes\n"
            "  cuda device 1:\n"
            "    cannot be used: cuDevicePrimaryCtxRetain failed\n");
}

TEST(DeviceInfo, FindsPluginsInLibomptargetsOrder) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("device-info", Dir));
  for (const char *File :
       {"libomptarget.rtl.host.so", "libomptarget.rtl.cuda.so",
        "libomptarget.rtl.amdgpu.so", "libomptarget.so", "libother.so"}) {
    llvm::SmallString<128> Path(Dir);
    llvm::sys::path::append(Path, File);
    int FD = -1;
    ASSERT_FALSE(llvm::sys::fs::openFileForWrite(Path, FD));
    llvm::sys::fs::closeFile(FD);
  }
  EXPECT_EQ(findPlugins(std::string(Dir)),
            (std::vector<std::string>{"amdgpu", "cuda", "host"}));
  // An empty file is no plugin: the loader's error is kept.
  llvm::SmallString<128> Host(Dir);
  llvm::sys::path::append(Host, "libomptarget.rtl.host.so");
  PluginEntry Entry = queryPlugin("host", std::string(Host));
  EXPECT_NE(Entry.LoadError, "");
  EXPECT_TRUE(Entry.Devices.empty());
  llvm::sys::fs::remove_directories(Dir);
}

} // namespace
