//===- AMDGPUPluginFaultTest.cpp - The amdgpu plugin over a failing HSA ---===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The built amdgpu plugin, loaded as libomptarget loads it, over the fake
// HSA runtime of test/gpu/Inputs/FakeHSAFaults.cpp, which fails what
// FAKE_HSA_FAIL names. As for the cuda plugin (CUDAPluginFaultTest.cpp),
// each case runs one scenario through the plugin interface in a child
// process and checks what it printed.
//
// The cases that matter most: a kernel's fault reaches the plugin only
// through the queue's error callback, and the wait for that kernel must end
// with an error naming it instead of waiting forever; a hung kernel must end
// at LIBOMPTARGET_KERNEL_TIMEOUT_MS.
//
//===----------------------------------------------------------------------===//

#include "ChildProcess.h"
#include "PluginInterface.h"
#include "amdgpu/HSARuntime.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

using namespace offload::plugin;
using namespace offload::plugin::hsa;
using ::testing::HasSubstr;

namespace {

/// The image the tests load: the fake runtime loads anything, and the
/// plugin reads the kernels' metadata notes of an ELF64 file (this one has
/// no sections, so none).
const char FakeCodeObject[64] = {0x7f, 'E', 'L', 'F', 2, 1, 1};

struct Scenario {
  std::string Fail;      ///< FAKE_HSA_FAIL
  std::string TimeoutMs; ///< LIBOMPTARGET_KERNEL_TIMEOUT_MS; empty: unset
  unsigned Launches = 1;
  /// Try every launch even after one failed (and stop after the last).
  bool KeepLaunching = false;
};

struct Outcome {
  std::string Output;
  bool Completed = false;
  double Seconds = 0;
};

constexpr const char *KernelName = "__omp_offloading_fault_test_l1";

[[noreturn]] void runInChild(const Scenario &S) {
  auto Stop = [](const char *Step, const std::string &Message) {
    std::fprintf(stderr, "step %s failed: %s\n", Step, Message.c_str());
    std::fflush(stderr);
    _exit(1);
  };
  void *Library = dlopen(AMDGPU_PLUGIN, RTLD_NOW | RTLD_LOCAL);
  if (!Library)
    Stop("dlopen", dlerror());
  auto Create = reinterpret_cast<offload_plugin_create_fn>(
      dlsym(Library, OFFLOAD_PLUGIN_ENTRY_SYMBOL));
  if (!Create)
    Stop("dlsym", OFFLOAD_PLUGIN_ENTRY_SYMBOL);
  GenericPlugin *Plugin = Create(InterfaceVersion);
  if (int32_t Count = Plugin->initialize(); Count != 1)
    Stop("initialize", std::to_string(Count) + " devices");
  Status Error;
  GenericDevice *Device = Plugin->getDevice(0, Error);
  if (!Device)
    Stop("getDevice(0)", Error.message());

  DeviceImageRef Ref;
  Ref.Start = FakeCodeObject;
  Ref.Size = sizeof(FakeCodeObject);
  Ref.Triple = "amdgcn-amd-amdhsa";
  Ref.Arch = "gfx90a";
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
  std::vector<char> Buffer(4096, 1);
  if (Status St = Device->dataSubmit(Memory, Buffer.data(), 4096, nullptr))
    Stop("dataSubmit", St.message());
  if (Status St = Device->dataFill(Memory, 0, 64, nullptr))
    Stop("dataFill", St.message());
  if (Status St = Device->dataExchange(Memory, *Device, Pinned, 64, nullptr))
    Stop("dataExchange", St.message());
  void *Args[1] = {Memory};
  KernelLaunchParams Params;
  std::string LaunchErrors;
  for (unsigned I = 0; I < S.Launches; ++I)
    if (Status St = Device->launchKernel(Kernel, Args, 1, Params, nullptr)) {
      if (!S.KeepLaunching)
        Stop("launchKernel", St.message());
      LaunchErrors += "\nlaunch " + std::to_string(I) + ": " + St.message();
    }
  if (!LaunchErrors.empty())
    Stop("launchKernel", LaunchErrors);
  if (Status St = Device->dataRetrieve(Buffer.data(), Memory, 4096, nullptr))
    Stop("dataRetrieve", St.message());
  if (Status St = Device->free(Memory, AllocKind::Device))
    Stop("free(Device)", St.message());
  if (Status St = Device->free(Pinned, AllocKind::Host))
    Stop("free(Host)", St.message());
  if (Status St = Device->unloadImage(Image))
    Stop("unloadImage", St.message());
  std::fprintf(stderr, "every step succeeded\n");
  std::fflush(stderr);
  _exit(0);
}

Outcome run(const Scenario &S) {
  auto Child = offload::testing::runInChildProcess([&] {
    setenv("LIBOMPTARGET_HSA_RUNTIME", FAKE_HSA_RUNTIME, 1);
    setenv("FAKE_HSA_FAIL", S.Fail.c_str(), 1);
    // So that a plugin without devices says why.
    setenv("LIBOMPTARGET_INFO", "1", 1);
    if (S.TimeoutMs.empty())
      unsetenv("LIBOMPTARGET_KERNEL_TIMEOUT_MS");
    else
      setenv("LIBOMPTARGET_KERNEL_TIMEOUT_MS", S.TimeoutMs.c_str(), 1);
    runInChild(S);
  });
  return {Child.Output, Child.ExitedZero, Child.Seconds};
}

const char *Device0 = "AMDGPU device 0 (gfx90a)";

TEST(AMDGPUPluginFaults, EveryStepSucceedsWithoutFaults) {
  Scenario S;
  S.Launches = 3;
  Outcome O = run(S);
  EXPECT_TRUE(O.Completed) << O.Output;
  EXPECT_THAT(O.Output, HasSubstr("every step succeeded"));
}

TEST(AMDGPUPluginFaults, TheTimeoutDoesNotDisturbWorkThatCompletes) {
  Scenario S;
  S.TimeoutMs = "5000";
  S.Launches = 3;
  Outcome O = run(S);
  EXPECT_TRUE(O.Completed) << O.Output;
}

TEST(AMDGPUPluginFaults, OutOfMemorySaysHowMuchAndWhy) {
  Outcome O = run({"alloc"});
  EXPECT_FALSE(O.Completed);
  EXPECT_THAT(O.Output,
              HasSubstr(std::string("omptarget error: ") + Device0 +
                        ": hsa_amd_memory_pool_allocate failed for 4096 bytes "
                        "of device memory: HSA_STATUS_ERROR_OUT_OF_RESOURCES"));
  EXPECT_THAT(O.Output, HasSubstr("step allocate(Device) failed"));
}

TEST(AMDGPUPluginFaults, QueueErrorEndsTheWaitAndNamesTheKernel) {
  Outcome O = run({"queue-error"});
  EXPECT_FALSE(O.Completed);
  EXPECT_THAT(O.Output,
              HasSubstr(std::string("step launchKernel failed: ") + Device0 +
                        ": kernel '" + KernelName +
                        "' failed: the HSA queue reported "
                        "HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION: "));
  // Without a timeout the callback alone ended the wait: had it not, the
  // child would have hung until its hang guard, without this report.
}

TEST(AMDGPUPluginFaults, TrapNamesTheKernel) {
  Outcome O = run({"queue-trap"});
  EXPECT_FALSE(O.Completed);
  EXPECT_THAT(O.Output, HasSubstr(std::string("kernel '") + KernelName +
                                  "' failed: the HSA queue reported "
                                  "HSA_STATUS_ERROR_EXCEPTION: "));
}

TEST(AMDGPUPluginFaults, AfterAQueueErrorNoKernelIsQueued) {
  Scenario S{"queue-error"};
  S.Launches = 2;
  S.KeepLaunching = true;
  Outcome O = run(S);
  EXPECT_FALSE(O.Completed);
  EXPECT_THAT(O.Output, HasSubstr("launch 0: " + std::string(Device0) +
                                  ": kernel '" + KernelName +
                                  "' failed: the HSA queue reported"));
  EXPECT_THAT(O.Output,
              HasSubstr("launch 1: " + std::string(Device0) +
                        ": cannot launch kernel '" + KernelName +
                        "': the HSA queue stopped earlier, after kernel '" +
                        KernelName + "': "
                        "HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION"));
}

TEST(AMDGPUPluginFaults, HungKernelEndsAtTheTimeout) {
  Scenario S{"hang"};
  S.TimeoutMs = "300";
  Outcome O = run(S);
  EXPECT_FALSE(O.Completed);
  EXPECT_THAT(O.Output,
              HasSubstr(std::string("step launchKernel failed: ") + Device0 +
                        ": kernel '" + KernelName +
                        "' did not complete within 300 ms "
                        "(LIBOMPTARGET_KERNEL_TIMEOUT_MS)"));
  // Not before the limit; that it ended at all is the report above (a
  // child still waiting is killed by its hang guard, without it).
  EXPECT_GE(O.Seconds, 0.3);
}

TEST(AMDGPUPluginFaults, BadTimeoutValueFailsTheDevice) {
  Scenario S;
  S.TimeoutMs = "-1";
  Outcome O = run(S);
  EXPECT_FALSE(O.Completed);
  EXPECT_THAT(O.Output, HasSubstr("step getDevice(0) failed: AMDGPU device 0: "
                                  "LIBOMPTARGET_KERNEL_TIMEOUT_MS='-1'"));
}

/// The child's side of the memory cases: device 0 of a fresh plugin over
/// the fake runtime (with LIBOMPTARGET_MEMORY_MANAGER_THRESHOLD=\p Threshold
/// when given), then \p Body; prints "counts: <entry>=<calls> ..." for
/// \p Entries afterwards and exits 0 unless a step failed.
template <typename Fn>
Outcome runWithDevice(const char *Threshold, std::vector<std::string> Entries,
                      Fn Body) {
  auto Child = offload::testing::runInChildProcess([&] {
    setenv("LIBOMPTARGET_HSA_RUNTIME", FAKE_HSA_RUNTIME, 1);
    unsetenv("FAKE_HSA_FAIL");
    if (Threshold)
      setenv("LIBOMPTARGET_MEMORY_MANAGER_THRESHOLD", Threshold, 1);
    else
      unsetenv("LIBOMPTARGET_MEMORY_MANAGER_THRESHOLD");
    void *Library = dlopen(AMDGPU_PLUGIN, RTLD_NOW | RTLD_LOCAL);
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
    void *Fake = dlopen(FAKE_HSA_RUNTIME, RTLD_NOW | RTLD_NOLOAD);
    auto Count = reinterpret_cast<unsigned long (*)(const char *)>(
        Fake ? dlsym(Fake, "fake_hsa_call_count") : nullptr);
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

TEST(AMDGPUPluginFaults, TheMemoryPoolSavesRuntimeAllocations) {
  const char *Allocations = "hsa_amd_memory_pool_allocate(device)";
  Outcome O = runWithDevice(nullptr, {Allocations}, allocateAndFreeInALoop);
  EXPECT_TRUE(O.Completed) << O.Output;
  EXPECT_THAT(O.Output,
              HasSubstr(std::string("counts: ") + Allocations + "=1\n"));
  // Turned off, every pair reaches the runtime.
  O = runWithDevice("0", {Allocations}, allocateAndFreeInALoop);
  EXPECT_TRUE(O.Completed) << O.Output;
  EXPECT_THAT(O.Output,
              HasSubstr(std::string("counts: ") + Allocations + "=10000\n"));
}

TEST(AMDGPUPluginFaults, LockedMemoryIsCopiedWithoutStaging) {
  static char Buffer[8192];
  Outcome O = runWithDevice(
      nullptr,
      {"hsa_amd_memory_lock", "hsa_amd_memory_unlock",
       "hsa_amd_memory_pool_allocate"},
      [](GenericDevice &Device) {
        void *Memory = Device.allocate(4096, AllocKind::Device);
        void *Locked = nullptr, *Again = nullptr;
        if (!Memory || Device.lockHostMemory(Buffer, sizeof(Buffer), Locked) ||
            Device.lockHostMemory(Buffer, sizeof(Buffer), Again))
          return false;
        // Two copies each way from the locked buffer: no staging buffer,
        // so no further allocation after the device block's.
        Buffer[100] = 42;
        for (int I = 0; I < 2; ++I)
          if (Device.dataSubmit(Memory, Buffer + 64, 4096, nullptr) ||
              Device.dataRetrieve(Buffer + 4096, Memory, 4096, nullptr))
            return false;
        if (Buffer[4096 + 36] != 42)
          return false;
        return !Device.unlockHostMemory(Buffer) &&
               !Device.unlockHostMemory(Buffer) &&
               Device.unlockHostMemory(Buffer);
      });
  EXPECT_TRUE(O.Completed) << O.Output;
  EXPECT_THAT(O.Output, HasSubstr("counts: hsa_amd_memory_lock=1 "
                                  "hsa_amd_memory_unlock=1 "
                                  "hsa_amd_memory_pool_allocate=1\n"));
}

/// The child's side of the asynchronous cases: a kernel launched on an
/// async info with FAKE_HSA_FAIL=\p Fail (and the timeout \p TimeoutMs, if
/// any), a copy queued after it, then synchronize; prints what each step
/// returned.
Outcome runAsync(const char *Fail, const char *TimeoutMs) {
  auto Child = offload::testing::runInChildProcess([&] {
    setenv("LIBOMPTARGET_HSA_RUNTIME", FAKE_HSA_RUNTIME, 1);
    setenv("FAKE_HSA_FAIL", Fail, 1);
    if (TimeoutMs)
      setenv("LIBOMPTARGET_KERNEL_TIMEOUT_MS", TimeoutMs, 1);
    else
      unsetenv("LIBOMPTARGET_KERNEL_TIMEOUT_MS");
    void *Library = dlopen(AMDGPU_PLUGIN, RTLD_NOW | RTLD_LOCAL);
    auto Create = Library ? reinterpret_cast<offload_plugin_create_fn>(
                                dlsym(Library, OFFLOAD_PLUGIN_ENTRY_SYMBOL))
                          : nullptr;
    Status Error;
    GenericPlugin *Plugin = Create ? Create(InterfaceVersion) : nullptr;
    GenericDevice *Device = Plugin && Plugin->initialize() > 0
                                ? Plugin->getDevice(0, Error)
                                : nullptr;
    DeviceImageRef Ref;
    Ref.Start = FakeCodeObject;
    Ref.Size = sizeof(FakeCodeObject);
    Ref.Triple = "amdgcn-amd-amdhsa";
    LoadedImage *Image = nullptr;
    KernelHandle Kernel = nullptr;
    if (!Device || Device->loadImage(Ref, Image) ||
        Device->getKernel(Image, KernelName, Kernel)) {
      std::fprintf(stderr, "no device or kernel: %s\n",
                   Error.message().c_str());
      _exit(2);
    }
    void *Memory = Device->allocate(4096, AllocKind::Device);
    std::vector<char> Buffer(4096, 1);
    __tgt_async_info Async{nullptr};
    void *Args[1] = {Memory};
    KernelLaunchParams Params;
    auto Say = [](const char *Step, const Status &S) {
      std::fprintf(stderr, "%s: %s\n", Step, S ? S.message().c_str() : "ok");
    };
    Say("launch", Device->launchKernel(Kernel, Args, 1, Params, &Async));
    Say("retrieve", Device->dataRetrieve(Buffer.data(), Memory, 4096, &Async));
    Say("synchronize", Device->synchronize(&Async));
    std::fprintf(stderr, "queue after synchronize: %s\n",
                 Async.Queue ? "set" : "null");
    std::fflush(stderr);
    _exit(0);
  });
  return {Child.Output, Child.ExitedZero, Child.Seconds};
}

TEST(AMDGPUPluginFaults, AsyncFaultIsReportedAtSynchronize) {
  Outcome O = runAsync("queue-error", nullptr);
  EXPECT_TRUE(O.Completed) << O.Output;
  // Queued, not waited for: the launch and the copy after it succeed.
  EXPECT_THAT(O.Output, HasSubstr("launch: ok\nretrieve: ok\n"));
  EXPECT_THAT(O.Output,
              HasSubstr(std::string("synchronize: ") + Device0 + ": kernel '" +
                        KernelName +
                        "' failed: the HSA queue reported "
                        "HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION: "));
  EXPECT_THAT(O.Output, HasSubstr("queue after synchronize: null"));
}

TEST(AMDGPUPluginFaults, AsyncHangEndsAtTheTimeout) {
  Outcome O = runAsync("hang", "300");
  EXPECT_TRUE(O.Completed) << O.Output;
  EXPECT_THAT(O.Output, HasSubstr("launch: ok\nretrieve: ok\n"));
  // The wait is for the copy queued after the kernel; the error names the
  // kernel it waits behind.
  EXPECT_THAT(O.Output,
              HasSubstr(std::string("synchronize: ") + Device0 + ": kernel '" +
                        KernelName + "' did not complete within 300 ms"));
}

/// The entry points of the plugin's HSA table that return a status, by
/// name.
std::vector<std::string> statusEntryPoints() {
  std::vector<std::string> Names;
#define OFFLOAD_HSA_NAME(Name, Result, Params)                                 \
  if (std::is_same<Result, hsa_status_t>::value)                          \
    Names.push_back(#Name);
  OFFLOAD_HSA_FUNCTIONS(OFFLOAD_HSA_NAME)
#undef OFFLOAD_HSA_NAME
  return Names;
}

TEST(AMDGPUPluginFaults, EveryRuntimeCallIsChecked) {
  // Entry points whose failure is not an error of the scenario, and why.
  const std::set<std::string> Tolerated = {
      // It only describes other errors.
      "hsa_status_string",
      // Called only when the runtime or a device that failed to initialize
      // is destroyed; neither happens in a scenario that succeeds.
      "hsa_shut_down",
      "hsa_queue_destroy",
      // Completion signals are pooled and reused: the plugin destroys none
      // while it runs.
      "hsa_signal_destroy",
  };
  // Failing before there is a device: the reason the plugin has none.
  const std::set<std::string> RuntimeLevel = {
      "hsa_init", "hsa_iterate_agents", "hsa_agent_get_info"};
  for (const std::string &Entry : statusEntryPoints()) {
    SCOPED_TRACE(Entry);
    Outcome O = run({Entry + "=0x1000"});
    if (Tolerated.count(Entry)) {
      EXPECT_TRUE(O.Completed) << O.Output;
      continue;
    }
    EXPECT_FALSE(O.Completed) << O.Output;
    EXPECT_THAT(O.Output,
                HasSubstr("HSA_STATUS_ERROR: A generic error has occurred."));
    if (RuntimeLevel.count(Entry)) {
      EXPECT_THAT(O.Output, HasSubstr("the amdgpu plugin has no device: "));
      EXPECT_THAT(O.Output, HasSubstr(Entry));
      continue;
    }
    EXPECT_THAT(O.Output, HasSubstr(Entry));
    EXPECT_THAT(O.Output, HasSubstr("AMDGPU device 0"));
  }
}

} // namespace
