//===- FunctionPtrMapExportTest.cpp - __tgt_rtl_set_function_ptr_map ------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The seed's C API as callers see it: each built plugin library is opened
// with dlopen and the function found with dlsym. On the host plugin it
// installs a table into real images (stand-in shared objects with a device
// environment) on real CPU devices; the GPU plugins, which have no device
// here, must refuse cleanly. The same libraries show that the plugin object
// __offload_plugin_create returns is a single heap object.
//
//===----------------------------------------------------------------------===//

#include "FunctionPtrMap.h"
#include "PluginInterface.h"

#include "gtest/gtest.h"

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

using namespace offload::plugin;

namespace {

/// The device environment as the image holds it (DeviceABI.h's layout,
/// which IndirectCallInstall.h checks).
struct Environment {
  uint32_t DeviceDebugKind, NumDevices, DeviceNum, DynamicMemSize;
  uint64_t ClockFrequency;
  uintptr_t IndirectCallTable;
  uint64_t IndirectCallTableSize;
  uint64_t HardwareParallelism;
};

struct PluginLibrary {
  GenericPlugin *Plugin = nullptr;
  __tgt_rtl_set_function_ptr_map_fn SetMap = nullptr;
};

/// Opens \p Path as libomptarget does and finds both exported functions.
void openPlugin(const char *Path, PluginLibrary &Out) {
  void *Handle = dlopen(Path, RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(Handle, nullptr) << dlerror();
  auto Create = reinterpret_cast<offload_plugin_create_fn>(
      dlsym(Handle, OFFLOAD_PLUGIN_ENTRY_SYMBOL));
  ASSERT_NE(Create, nullptr) << Path;
  Out.Plugin = Create(InterfaceVersion);
  ASSERT_NE(Out.Plugin, nullptr) << Path;
  Out.SetMap = reinterpret_cast<__tgt_rtl_set_function_ptr_map_fn>(
      dlsym(Handle, "__tgt_rtl_set_function_ptr_map"));
  ASSERT_NE(Out.SetMap, nullptr) << Path << " does not export it";
}

/// Calls the API and returns what it printed on stderr.
std::string call(const PluginLibrary &Library, int32_t DeviceId, uint64_t Size,
                 __omp_offloading_fptr_map_ty *Table, int32_t &Result) {
  testing::internal::CaptureStderr();
  Result = Library.SetMap(DeviceId, Size, Table);
  return testing::internal::GetCapturedStderr();
}

std::vector<char> readFile(const char *Path) {
  std::ifstream In(Path, std::ios::binary);
  return std::vector<char>(std::istreambuf_iterator<char>(In), {});
}

Environment readEnvironment(GenericDevice &Device, LoadedImage *Image) {
  void *Address = nullptr;
  Environment Env = {};
  EXPECT_FALSE(Device.getGlobal(Image, "__omp_rtl_device_environment",
                                sizeof(Env), Address));
  EXPECT_FALSE(Device.dataRetrieve(&Env, Address, sizeof(Env), nullptr));
  return Env;
}

/// The table an image's environment points to, read back from the device.
std::vector<__omp_offloading_fptr_map_ty> readTable(GenericDevice &Device,
                                                    const Environment &Env) {
  std::vector<__omp_offloading_fptr_map_ty> Table(Env.IndirectCallTableSize);
  if (!Table.empty())
    EXPECT_FALSE(Device.dataRetrieve(
        Table.data(), reinterpret_cast<void *>(Env.IndirectCallTable),
        Table.size() * sizeof(Table[0]), nullptr));
  return Table;
}

bool sameEntries(const std::vector<__omp_offloading_fptr_map_ty> &A,
                 const std::vector<__omp_offloading_fptr_map_ty> &B) {
  if (A.size() != B.size())
    return false;
  for (size_t I = 0; I < A.size(); ++I)
    if (A[I].host_ptr != B[I].host_ptr || A[I].tgt_ptr != B[I].tgt_ptr)
      return false;
  return true;
}

std::vector<const char *> allPluginPaths() {
  std::vector<const char *> Paths = {OFFLOAD_TEST_HOST_PLUGIN};
#ifdef OFFLOAD_TEST_CUDA_PLUGIN
  Paths.push_back(OFFLOAD_TEST_CUDA_PLUGIN);
#endif
#ifdef OFFLOAD_TEST_AMDGPU_PLUGIN
  Paths.push_back(OFFLOAD_TEST_AMDGPU_PLUGIN);
#endif
  return Paths;
}

// The plugin object is created once and lives on the heap, not in the
// library's data: no destructor of it can run when exit() runs the
// libraries' static destructors.
TEST(PluginEntryPoints, PluginObjectIsOneHeapObject) {
  for (const char *Path : allPluginPaths()) {
    SCOPED_TRACE(Path);
    PluginLibrary First, Again;
    ASSERT_NO_FATAL_FAILURE(openPlugin(Path, First));
    ASSERT_NO_FATAL_FAILURE(openPlugin(Path, Again));
    EXPECT_EQ(First.Plugin, Again.Plugin);
    Dl_info Info;
    EXPECT_EQ(dladdr(First.Plugin, &Info), 0)
        << "the plugin object lies in " << Info.dli_fname;
  }
}

TEST(FunctionPtrMapExport, GPUPluginsWithoutDevicesRefuse) {
  // Whatever this machine has, these names make the drivers absent.
  setenv("LIBOMPTARGET_CUDA_DRIVER", "libno-such-cuda-driver.so.1", 1);
  setenv("LIBOMPTARGET_HSA_RUNTIME", "libno-such-hsa-runtime.so.1", 1);
  std::vector<const char *> Paths = allPluginPaths();
  Paths.erase(Paths.begin()); // the host plugin
  if (Paths.empty())
    GTEST_SKIP() << "no GPU plugin in this build";
  for (const char *Path : Paths) {
    SCOPED_TRACE(Path);
    PluginLibrary Library;
    ASSERT_NO_FATAL_FAILURE(openPlugin(Path, Library));
    __omp_offloading_fptr_map_ty Table[] = {{0x1000, 0xd1000}};
    int32_t Result = 0;
    // Before libomptarget initialized the plugin, and after.
    std::string Message = call(Library, 0, 1, Table, Result);
    EXPECT_EQ(Result, -1);
    EXPECT_NE(Message.find(std::string("the ") + Library.Plugin->getName() +
                           " plugin has no device 0 (it has 0;"),
              std::string::npos)
        << Message;
    EXPECT_EQ(Library.Plugin->initialize(), 0);
    Message = call(Library, 0, 1, Table, Result);
    EXPECT_EQ(Result, -1);
    EXPECT_NE(Message.find("omptarget error: __tgt_rtl_set_function_ptr_map"),
              std::string::npos)
        << Message;
  }
}

TEST(FunctionPtrMapExport, HostPluginInstallsIntoEveryImageOfTheDevice) {
  PluginLibrary Library;
  ASSERT_NO_FATAL_FAILURE(openPlugin(OFFLOAD_TEST_HOST_PLUGIN, Library));
  setenv("LIBOMPTARGET_HOST_NUM_DEVICES", "2", 1);
  ASSERT_EQ(Library.Plugin->initialize(), 2);
  Status Error;
  GenericDevice *Device0 = Library.Plugin->getDevice(0, Error);
  GenericDevice *Device1 = Library.Plugin->getDevice(1, Error);
  ASSERT_TRUE(Device0 && Device1) << Error.message();

  std::vector<char> Bytes = readFile(OFFLOAD_TEST_IMAGE);
  ASSERT_FALSE(Bytes.empty()) << OFFLOAD_TEST_IMAGE;
  DeviceImageRef Ref;
  Ref.Start = Bytes.data();
  Ref.Size = Bytes.size();
  Ref.Triple = "x86_64-pc-linux-gnu";
  Ref.Description = "test image";
  LoadedImage *First = nullptr, *Second = nullptr, *Other = nullptr;
  ASSERT_FALSE(Device0->loadImage(Ref, First));
  ASSERT_FALSE(Device0->loadImage(Ref, Second));
  ASSERT_FALSE(Device1->loadImage(Ref, Other));

  std::vector<__omp_offloading_fptr_map_ty> Table = {
      {0x1000, 0xd1000}, {0x2000, 0xd2000}, {0x3000, 0xd3000}};
  int32_t Result = -1;
  std::string Message = call(Library, 0, Table.size(), Table.data(), Result);
  ASSERT_EQ(Result, 0) << Message;
  EXPECT_EQ(Message, "");
  for (LoadedImage *Image : {First, Second}) {
    Environment Env = readEnvironment(*Device0, Image);
    EXPECT_EQ(Env.NumDevices, 2u); // the plugin's own fields stay
    EXPECT_TRUE(sameEntries(readTable(*Device0, Env), Table));
  }
  // Device numbers are the plugin's: device 1's image is not touched.
  EXPECT_EQ(readEnvironment(*Device1, Other).IndirectCallTableSize, 0u);
  const Environment Installed = readEnvironment(*Device0, First);

  // Bad input changes nothing and says what is wrong.
  struct BadCall {
    int32_t DeviceId;
    std::vector<__omp_offloading_fptr_map_ty> Entries;
    bool NullTable;
    const char *Expected;
  } BadCalls[] = {
      {2, Table, false, "the host plugin has no device 2 (it has 2;"},
      {-1, Table, false, "the host plugin has no device -1"},
      {0, Table, true, "the table of 3 entries is a null pointer"},
      {0,
       {{0x2000, 1}, {0x1000, 2}},
       false,
       "entry 1 (host_ptr 0x1000) is below entry 0 (host_ptr 0x2000): entries "
       "must be sorted by host_ptr"},
      {0,
       {{0x1000, 1}, {0x1000, 2}},
       false,
       "entry 1 (host_ptr 0x1000) repeats entry 0"},
  };
  for (BadCall &Bad : BadCalls) {
    SCOPED_TRACE(Bad.Expected);
    Message = call(Library, Bad.DeviceId, Bad.Entries.size(),
                   Bad.NullTable ? nullptr : Bad.Entries.data(), Result);
    EXPECT_EQ(Result, -1);
    EXPECT_NE(Message.find(std::string("omptarget error: "
                                       "__tgt_rtl_set_function_ptr_map: ") +
                           Bad.Expected),
              std::string::npos)
        << Message;
    Environment Env = readEnvironment(*Device0, First);
    EXPECT_EQ(Env.IndirectCallTable, Installed.IndirectCallTable);
    EXPECT_EQ(Env.IndirectCallTableSize, Installed.IndirectCallTableSize);
  }

  // A second call replaces the table; size 0 (a null table is fine then)
  // removes it from every image of the device.
  std::vector<__omp_offloading_fptr_map_ty> Smaller = {{0x4000, 0xd4000}};
  ASSERT_EQ(Library.SetMap(0, 1, Smaller.data()), 0);
  EXPECT_TRUE(sameEntries(
      readTable(*Device0, readEnvironment(*Device0, Second)), Smaller));
  ASSERT_EQ(Library.SetMap(0, 0, nullptr), 0);
  for (LoadedImage *Image : {First, Second}) {
    Environment Env = readEnvironment(*Device0, Image);
    EXPECT_EQ(Env.IndirectCallTable, 0u);
    EXPECT_EQ(Env.IndirectCallTableSize, 0u);
  }

  // An unloaded image is no longer written to; its tables go with it.
  ASSERT_EQ(Library.SetMap(0, Table.size(), Table.data()), 0);
  ASSERT_FALSE(Device0->unloadImage(First));
  ASSERT_EQ(Library.SetMap(0, 1, Smaller.data()), 0);
  EXPECT_TRUE(sameEntries(
      readTable(*Device0, readEnvironment(*Device0, Second)), Smaller));
  ASSERT_FALSE(Device0->unloadImage(Second));
  ASSERT_FALSE(Device1->unloadImage(Other));
  // No image left on the device: nothing to do, and no error.
  EXPECT_EQ(Library.SetMap(0, Table.size(), Table.data()), 0);
}

} // namespace
