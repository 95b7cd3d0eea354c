//===- CUDAPluginFaultTest.cpp - The cuda plugin over a failing driver ----===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The built cuda plugin, loaded as libomptarget loads it, over the fake
// driver of test/gpu/Inputs/FakeCUDAFaults.cpp, which fails the calls
// FAKE_CUDA_FAIL names. Each case runs one scenario (every operation of the
// plugin interface, in a program's order) in a child process: the plugin
// object lives as long as its process, so a fresh plugin needs a fresh
// process. What the child prints on stderr (the plugin's own reports and
// the first step that failed, with its Status) is what the cases check.
//
// The audit case fails every entry point of the plugin's driver table in
// turn: each failure must stop the scenario with an error naming the call,
// the device and the driver's name and description of the error.
//
//===----------------------------------------------------------------------===//

#include "ChildProcess.h"
#include "PluginInterface.h"
#include "cuda/CUDADriver.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

using namespace offload::plugin;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

struct Scenario {
  std::string Fail;      ///< FAKE_CUDA_FAIL
  std::string TimeoutMs; ///< LIBOMPTARGET_KERNEL_TIMEOUT_MS; empty: unset
  bool SyncLaunch = true;
  unsigned AsyncLaunches = 1; ///< on one stream, then queried and waited for
};

struct Outcome {
  std::string Output; ///< the child's stderr
  bool Completed = false;
  double Seconds = 0;
};

constexpr const char *KernelName = "__omp_offloading_fault_test_l1";

/// The child's side: runs \p S against the plugin and exits; 0 when every
/// step succeeded.
[[noreturn]] void runInChild(const Scenario &S) {
  auto Stop = [](const char *Step, const std::string &Message) {
    std::fprintf(stderr, "step %s failed: %s\n", Step, Message.c_str());
    std::fflush(stderr);
    _exit(1);
  };
  void *Library = dlopen(CUDA_PLUGIN, RTLD_NOW | RTLD_LOCAL);
  if (!Library)
    Stop("dlopen", dlerror());
  auto Create = reinterpret_cast<offload_plugin_create_fn>(
      dlsym(Library, OFFLOAD_PLUGIN_ENTRY_SYMBOL));
  if (!Create)
    Stop("dlsym", OFFLOAD_PLUGIN_ENTRY_SYMBOL);
  GenericPlugin *Plugin = Create(InterfaceVersion);
  if (int32_t Count = Plugin->initialize(); Count != 2)
    Stop("initialize", std::to_string(Count) + " devices");
  Status Error;
  GenericDevice *Device = Plugin->getDevice(0, Error);
  if (!Device)
    Stop("getDevice(0)", Error.message());
  GenericDevice *Peer = Plugin->getDevice(1, Error);
  if (!Peer)
    Stop("getDevice(1)", Error.message());

  static const char Bytes[] = "not a cubin: the fake driver loads anything";
  DeviceImageRef Ref;
  Ref.Start = Bytes;
  Ref.Size = sizeof(Bytes);
  Ref.Triple = "nvptx64-nvidia-cuda";
  Ref.Arch = "sm_90";
  Ref.Description = "image 0 of the test";
  LoadedImage *Image = nullptr;
  if (Status St = Device->loadImage(Ref, Image))
    Stop("loadImage", St.message());
  KernelHandle Kernel = nullptr;
  if (Status St = Device->getKernel(Image, KernelName, Kernel))
    Stop("getKernel", St.message());

  void *Memory = Device->allocate(4096, AllocKind::Device);
  if (!Memory)
    Stop("allocate(Device)", "null");
  void *Pinned = Device->allocate(64, AllocKind::Host);
  if (!Pinned)
    Stop("allocate(Host)", "null");
  void *Managed = Device->allocate(64, AllocKind::Shared);
  if (!Managed)
    Stop("allocate(Shared)", "null");
  void *Remote = Peer->allocate(64, AllocKind::Device);
  if (!Remote)
    Stop("allocate(Device) on the peer", "null");
  std::vector<char> Buffer(4096, 1);
  if (Status St = Device->dataSubmit(Memory, Buffer.data(), 4096, nullptr))
    Stop("dataSubmit", St.message());
  if (Status St = Device->dataFill(Memory, 0, 64, nullptr))
    Stop("dataFill", St.message());
  if (Status St = Device->dataExchange(Memory, *Device, Managed, 64, nullptr))
    Stop("dataExchange on the device", St.message());
  if (Status St = Device->dataExchange(Memory, *Peer, Remote, 64, nullptr))
    Stop("dataExchange to the peer", St.message());

  void *Args[1] = {Memory};
  KernelLaunchParams Params;
  if (S.SyncLaunch)
    if (Status St = Device->launchKernel(Kernel, Args, 1, Params, nullptr))
      Stop("launchKernel", St.message());
  if (S.AsyncLaunches) {
    __tgt_async_info Async{nullptr};
    for (unsigned I = 0; I < S.AsyncLaunches; ++I)
      if (Status St = Device->launchKernel(Kernel, Args, 1, Params, &Async))
        Stop("launchKernel (nowait)", St.message());
    bool Done = false;
    while (!Done)
      if (Status St = Device->queryAsync(&Async, Done))
        Stop("queryAsync", St.message());
    if (Status St = Device->synchronize(&Async))
      Stop("synchronize", St.message());
  }

  if (Status St = Device->dataRetrieve(Buffer.data(), Memory, 4096, nullptr))
    Stop("dataRetrieve", St.message());
  if (Status St = Device->free(Memory, AllocKind::Device))
    Stop("free(Device)", St.message());
  if (Status St = Device->free(Pinned, AllocKind::Host))
    Stop("free(Host)", St.message());
  if (Status St = Device->free(Managed, AllocKind::Shared))
    Stop("free(Shared)", St.message());
  if (Status St = Peer->free(Remote, AllocKind::Device))
    Stop("free(Device) on the peer", St.message());
  if (Status St = Device->unloadImage(Image))
    Stop("unloadImage", St.message());
  std::fprintf(stderr, "every step succeeded\n");
  std::fflush(stderr);
  _exit(0);
}

Outcome run(const Scenario &S) {
  auto Child = offload::testing::runInChildProcess([&] {
    setenv("LIBOMPTARGET_CUDA_DRIVER", FAKE_CUDA_DRIVER, 1);
    setenv("FAKE_CUDA_DEVICES", "2", 1);
    setenv("FAKE_CUDA_FAIL", S.Fail.c_str(), 1);
    // So that a plugin without devices says why.
    setenv("LIBOMPTARGET_INFO", "1", 1);
    unsetenv("LIBOMPTARGET_STACK_SIZE");
    unsetenv("LIBOMPTARGET_HEAP_SIZE");
    if (S.TimeoutMs.empty())
      unsetenv("LIBOMPTARGET_KERNEL_TIMEOUT_MS");
    else
      setenv("LIBOMPTARGET_KERNEL_TIMEOUT_MS", S.TimeoutMs.c_str(), 1);
    runInChild(S);
  });
  return {Child.Output, Child.ExitedZero, Child.Seconds};
}

const char *Device0 = "CUDA device 0 (Fake CUDA GPU, sm_90)";

TEST(CUDAPluginFaults, EveryStepSucceedsWithoutFaults) {
  Outcome O = run({});
  EXPECT_TRUE(O.Completed) << O.Output;
  EXPECT_THAT(O.Output, HasSubstr("every step succeeded"));
}

TEST(CUDAPluginFaults, TheTimeoutDoesNotDisturbWorkThatCompletes) {
  Scenario S;
  S.TimeoutMs = "5000";
  S.AsyncLaunches = 3;
  Outcome O = run(S);
  EXPECT_TRUE(O.Completed) << O.Output;
}

TEST(CUDAPluginFaults, OutOfMemorySaysHowMuchAndWhy) {
  Outcome O = run({"alloc"});
  EXPECT_FALSE(O.Completed);
  EXPECT_THAT(O.Output,
              HasSubstr(std::string("omptarget error: ") + Device0 +
                        ": cuMemAlloc failed for 4096 bytes of device memory: "
                        "CUDA_ERROR_OUT_OF_MEMORY (2): out of memory"));
  EXPECT_THAT(O.Output, HasSubstr("step allocate(Device) failed"));
}

TEST(CUDAPluginFaults, IllegalAddressAtTheWaitNamesTheKernel) {
  Outcome O = run({"sync-illegal-address"});
  EXPECT_FALSE(O.Completed);
  EXPECT_THAT(O.Output,
              HasSubstr(std::string("step launchKernel failed: ") + Device0 +
                        ": kernel '" + KernelName +
                        "' failed: cuStreamSynchronize returned "
                        "CUDA_ERROR_ILLEGAL_ADDRESS (700): an illegal memory "
                        "access was encountered"));
}

TEST(CUDAPluginFaults, TrapAtTheWaitNamesTheKernel) {
  Outcome O = run({"sync-trap"});
  EXPECT_FALSE(O.Completed);
  EXPECT_THAT(O.Output, HasSubstr(std::string("kernel '") + KernelName +
                                  "' failed: cuStreamSynchronize returned "
                                  "CUDA_ERROR_LAUNCH_FAILED (719): "
                                  "unspecified launch failure"));
}

TEST(CUDAPluginFaults, LaunchFailureNamesTheKernelAndTheGrid) {
  Outcome O = run({"launch"});
  EXPECT_FALSE(O.Completed);
  EXPECT_THAT(O.Output,
              HasSubstr(std::string(Device0) + ": launching kernel '" +
                        KernelName + "' with "));
  EXPECT_THAT(O.Output, HasSubstr("threads failed: cuLaunchKernel returned "
                                  "CUDA_ERROR_LAUNCH_FAILED (719)"));
}

TEST(CUDAPluginFaults, ModuleLoadFailureNamesTheImage) {
  Outcome O = run({"module-load"});
  EXPECT_FALSE(O.Completed);
  EXPECT_THAT(O.Output,
              HasSubstr(std::string("step loadImage failed: ") + Device0 +
                        " cannot load image 0 of the test: cuModuleLoadDataEx "
                        "failed: CUDA_ERROR_NO_BINARY_FOR_GPU (209)"));
}

TEST(CUDAPluginFaults, FaultOfANowaitKernelNamesTheLastOnItsStream) {
  Scenario S{"sync-illegal-address"};
  S.SyncLaunch = false;
  S.AsyncLaunches = 3;
  Outcome O = run(S);
  EXPECT_FALSE(O.Completed);
  EXPECT_THAT(O.Output,
              HasSubstr(std::string("step queryAsync failed: ") + Device0 +
                        ": kernel '" + KernelName +
                        "' (the last of 3 kernels queued on its stream) "
                        "failed: cuStreamQuery returned "
                        "CUDA_ERROR_ILLEGAL_ADDRESS (700)"));
}

TEST(CUDAPluginFaults, FaultWithATimeoutIsStillNamed) {
  Scenario S{"sync-illegal-address"};
  S.TimeoutMs = "5000";
  Outcome O = run(S);
  EXPECT_FALSE(O.Completed);
  EXPECT_THAT(O.Output, HasSubstr(std::string("kernel '") + KernelName +
                                  "' failed: cuStreamQuery returned "
                                  "CUDA_ERROR_ILLEGAL_ADDRESS (700)"));
}

TEST(CUDAPluginFaults, HungKernelEndsAtTheTimeout) {
  Scenario S{"sync-hang"};
  S.TimeoutMs = "300";
  Outcome O = run(S);
  EXPECT_FALSE(O.Completed);
  EXPECT_THAT(O.Output, HasSubstr(std::string("step launchKernel failed: ") +
                                  Device0 + ": kernel '" + KernelName +
                                  "' did not complete within 300 ms "
                                  "(LIBOMPTARGET_KERNEL_TIMEOUT_MS)"));
  // Not before the limit. That it ended at all is the report above: a
  // child still waiting is killed by its hang guard, without it.
  EXPECT_GE(O.Seconds, 0.3);
}

TEST(CUDAPluginFaults, BadTimeoutValueFailsTheDevice) {
  Scenario S;
  S.TimeoutMs = "soon";
  Outcome O = run(S);
  EXPECT_FALSE(O.Completed);
  EXPECT_THAT(O.Output,
              HasSubstr("step getDevice(0) failed: CUDA device 0: "
                        "LIBOMPTARGET_KERNEL_TIMEOUT_MS='soon' is not a "
                        "number"));
}

/// The entry points of the plugin's driver table, by member name (the name
/// the fake and the plugin's messages use).
std::vector<std::string> driverEntryPoints() {
  std::vector<std::string> Names;
#define OFFLOAD_CUDA_NAME(Member, Symbol, Params) Names.push_back(#Member);
  OFFLOAD_CUDA_DRIVER_FUNCTIONS(OFFLOAD_CUDA_NAME)
#undef OFFLOAD_CUDA_NAME
  return Names;
}

TEST(CUDAPluginFaults, EveryDriverCallIsChecked) {
  // Entry points whose failure is not an error of the scenario, and why.
  const std::set<std::string> Tolerated = {
      // They only describe other errors; without them the plugin falls back
      // to its own names.
      "cuGetErrorName",
      "cuGetErrorString",
      // Not called by the plugin (kept for the arch tools' table).
      "cuDeviceTotalMem",
      // Called only by the destructor of a device whose initialization
      // failed, when that failure is the error to report.
      "cuDevicePrimaryCtxRelease",
      "cuStreamDestroy",
  };
  // Failing before there is a device: the reason the plugin has none.
  const std::set<std::string> DriverLevel = {"cuInit", "cuDriverGetVersion",
                                             "cuDeviceGetCount"};
  for (const std::string &Entry : driverEntryPoints()) {
    SCOPED_TRACE(Entry);
    Outcome O = run({Entry + "=999"});
    if (Tolerated.count(Entry)) {
      EXPECT_TRUE(O.Completed) << O.Output;
      continue;
    }
    EXPECT_FALSE(O.Completed) << O.Output;
    EXPECT_THAT(O.Output, HasSubstr("CUDA_ERROR_UNKNOWN (999): unknown error"));
    if (DriverLevel.count(Entry)) {
      EXPECT_THAT(O.Output, HasSubstr("the cuda plugin has no device: "));
      EXPECT_THAT(O.Output, HasSubstr(Entry + " returned"));
      continue;
    }
    EXPECT_THAT(O.Output, HasSubstr(Entry));
    // Before the name is known, the device is named by its number.
    EXPECT_THAT(O.Output, HasSubstr("CUDA device 0"));
  }
}

/// The child's side of the memory cases: device 0 of a fresh plugin over
/// the fake driver (with LIBOMPTARGET_MEMORY_MANAGER_THRESHOLD=\p Threshold
/// when given), then \p Body; prints "counts: <entry>=<calls> ..." for
/// \p Entries afterwards and exits 0 unless a step failed.
template <typename Fn>
Outcome runWithDevice(const char *Threshold, std::vector<std::string> Entries,
                      Fn Body) {
  auto Child = offload::testing::runInChildProcess([&] {
    setenv("LIBOMPTARGET_CUDA_DRIVER", FAKE_CUDA_DRIVER, 1);
    unsetenv("FAKE_CUDA_FAIL");
    if (Threshold)
      setenv("LIBOMPTARGET_MEMORY_MANAGER_THRESHOLD", Threshold, 1);
    else
      unsetenv("LIBOMPTARGET_MEMORY_MANAGER_THRESHOLD");
    void *Library = dlopen(CUDA_PLUGIN, RTLD_NOW | RTLD_LOCAL);
    auto Create = Library ? reinterpret_cast<offload_plugin_create_fn>(
                                dlsym(Library, OFFLOAD_PLUGIN_ENTRY_SYMBOL))
                          : nullptr;
    Status Error;
    GenericPlugin *Plugin = Create ? Create(InterfaceVersion) : nullptr;
    GenericDevice *Device = Plugin && Plugin->initialize() > 0
                                ? Plugin->getDevice(0, Error)
                                : nullptr;
    if (!Device) {
      std::fprintf(stderr, "no device: %s\n", Error.message().c_str());
      _exit(2);
    }
    bool Ok = Body(*Device);
    // The plugin loaded the fake already: this finds the same library.
    void *Fake = dlopen(FAKE_CUDA_DRIVER, RTLD_NOW | RTLD_NOLOAD);
    auto Count = reinterpret_cast<unsigned long (*)(const char *)>(
        Fake ? dlsym(Fake, "fake_cuda_call_count") : nullptr);
    std::fprintf(stderr, "counts:");
    for (const std::string &Entry : Entries)
      std::fprintf(stderr, " %s=%lu", Entry.c_str(),
                   Count ? Count(Entry.c_str()) : 999999ul);
    std::fprintf(stderr, "\n");
    std::fflush(stderr);
    _exit(Ok ? 0 : 1);
  });
  return {Child.Output, Child.ExitedZero, Child.Seconds};
}

/// 10,000 allocate/free pairs of 4 KiB, as a loop of maps makes them.
bool allocateAndFreeInALoop(GenericDevice &Device) {
  for (int I = 0; I < 10000; ++I) {
    void *Ptr = Device.allocate(4096, AllocKind::Device);
    if (!Ptr || Device.free(Ptr, AllocKind::Device))
      return false;
  }
  return true;
}

TEST(CUDAPluginFaults, TheMemoryPoolSavesDriverAllocations) {
  Outcome O = runWithDevice(nullptr, {"cuMemAlloc", "cuMemFree"},
                            allocateAndFreeInALoop);
  EXPECT_TRUE(O.Completed) << O.Output;
  EXPECT_THAT(O.Output, HasSubstr("counts: cuMemAlloc=1 cuMemFree=0"));
  // Turned off, every pair reaches the driver.
  O = runWithDevice("0", {"cuMemAlloc", "cuMemFree"}, allocateAndFreeInALoop);
  EXPECT_TRUE(O.Completed) << O.Output;
  EXPECT_THAT(O.Output, HasSubstr("counts: cuMemAlloc=10000 cuMemFree=10000"));
  // Above the threshold blocks are not pooled.
  O = runWithDevice("1024", {"cuMemAlloc"}, allocateAndFreeInALoop);
  EXPECT_THAT(O.Output, HasSubstr("counts: cuMemAlloc=10000"));
}

TEST(CUDAPluginFaults, ABadThresholdFailsTheDevice) {
  Outcome O = runWithDevice("much", {}, [](GenericDevice &) { return true; });
  EXPECT_FALSE(O.Completed);
  EXPECT_THAT(O.Output, HasSubstr("no device: CUDA device 0 (Fake CUDA GPU, "
                                  "sm_90): "
                                  "LIBOMPTARGET_MEMORY_MANAGER_THRESHOLD="
                                  "'much' is not a size"));
}

TEST(CUDAPluginFaults, LockingHostMemoryReachesTheDriverOnce) {
  static char Buffer[8192];
  Outcome O = runWithDevice(
      nullptr, {"cuMemHostRegister", "cuMemHostUnregister"},
      [](GenericDevice &Device) {
        void *Locked = nullptr, *Again = nullptr, *Part = nullptr;
        // Twice the range, once a part of it: one registration.
        if (Device.lockHostMemory(Buffer, sizeof(Buffer), Locked) ||
            Device.lockHostMemory(Buffer, sizeof(Buffer), Again) ||
            Device.lockHostMemory(Buffer + 100, 50, Part))
          return false;
        if (Locked != Buffer || Again != Buffer || Part != Buffer + 100)
          return false;
        for (void *Ptr :
             {(void *)Buffer, (void *)(Buffer + 100), (void *)Buffer})
          if (Status S = Device.unlockHostMemory(Ptr)) {
            std::fprintf(stderr, "unlock: %s\n", S.message().c_str());
            return false;
          }
        // Unlocked now: a further unlock is an error naming the address.
        Status Extra = Device.unlockHostMemory(Buffer);
        std::fprintf(stderr, "extra unlock: %s\n", Extra.message().c_str());
        return bool(Extra);
      });
  EXPECT_TRUE(O.Completed) << O.Output;
  EXPECT_THAT(O.Output,
              HasSubstr("counts: cuMemHostRegister=1 cuMemHostUnregister=1"));
  EXPECT_THAT(O.Output, HasSubstr("extra unlock: host address 0x"));
  EXPECT_THAT(O.Output, HasSubstr("is not locked on this device"));
}

TEST(CUDAPluginFaults, LockFailureNamesTheCall) {
  static char Buffer[64];
  Outcome O = runWithDevice(nullptr, {}, [](GenericDevice &Device) {
    // The fake reads FAKE_CUDA_FAIL at every call.
    setenv("FAKE_CUDA_FAIL", "cuMemHostRegister=2", 1);
    void *Locked = nullptr;
    Status S = Device.lockHostMemory(Buffer, sizeof(Buffer), Locked);
    std::fprintf(stderr, "lock: %s\n", S.message().c_str());
    return bool(S);
  });
  EXPECT_TRUE(O.Completed) << O.Output;
  EXPECT_THAT(O.Output,
              HasSubstr(std::string("lock: ") + Device0 +
                        ": cuMemHostRegister failed locking 64 bytes of host "
                        "memory: CUDA_ERROR_OUT_OF_MEMORY (2)"));
}

TEST(CUDAPluginFaults, NamesComeFromTheDriverOrTheBuiltInTable) {
  // A driver that cannot describe its errors: the plugin's own names, no
  // description.
  Outcome O = run({"alloc,cuGetErrorName=1,cuGetErrorString=1"});
  EXPECT_THAT(O.Output, HasSubstr("CUDA_ERROR_OUT_OF_MEMORY (2)"));
  EXPECT_THAT(O.Output, Not(HasSubstr("out of memory")));
}

} // namespace
