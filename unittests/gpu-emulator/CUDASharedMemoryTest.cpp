//===- CUDASharedMemoryTest.cpp - The emulated driver's shared memory -----===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The emulated libcuda's per-block shared memory limit, as a GPU's driver
// enforces it: 48 KiB of static plus dynamic shared memory, unless
// cuFuncSetAttribute raised the kernel's dynamic limit, up to 227 KiB in
// all. The plugins never raise it, so only a direct caller of the driver
// reaches the opt-in. The kernel is a host function standing for an image's
// entry point.
//
//===----------------------------------------------------------------------===//

#include "ModuleLoader.h"

#include "gtest/gtest.h"

#include <cstdint>

using namespace gpuemu;

extern "C" {
int cuFuncGetAttribute(int *Value, int Attribute, void *Function);
int cuFuncSetAttribute(void *Function, int Attribute, int Value);
int cuDeviceGetAttribute(int *Value, int Attribute, int Device);
int cuLaunchKernel(void *Function, unsigned GridX, unsigned GridY,
                   unsigned GridZ, unsigned BlockX, unsigned BlockY,
                   unsigned BlockZ, unsigned SharedBytes, void *Stream,
                   void **Params, void **Extra);
}

namespace {

constexpr int InvalidValue = 1; // CUDA_ERROR_INVALID_VALUE
constexpr int SharedSizeBytes = 1, MaxDynamicSharedSizeBytes = 8;
constexpr int MaxSharedMemoryPerBlockOptin = 97;

int Runs = 0;
void countRun(void **) { ++Runs; }

const uint64_t NoParameters[] = {0};

class CUDASharedMemoryTest : public ::testing::Test {
protected:
  void SetUp() override {
    Module.StaticSharedBytes = 4096;
    Kernel.Module = &Module;
    Kernel.Name = "k";
    Kernel.Entry = countRun;
    Kernel.Params = NoParameters;
    Kernel.StaticSharedBytes = 1024;
    Kernel.MaxDynamicSharedBytes = CUDASharedPerBlock - 1024;
    Runs = 0;
  }

  /// Launches one thread with \p DynamicBytes of dynamic shared memory.
  int launch(unsigned DynamicBytes) {
    return cuLaunchKernel(&Kernel, 1, 1, 1, 1, 1, 1, DynamicBytes, nullptr,
                          nullptr, nullptr);
  }

  LoadedModule Module;
  KernelFunction Kernel;
};

TEST_F(CUDASharedMemoryTest, FortyEightKiBWithoutOptIn) {
  int Value = 0;
  ASSERT_EQ(cuFuncGetAttribute(&Value, SharedSizeBytes, &Kernel), 0);
  EXPECT_EQ(Value, 1024);
  ASSERT_EQ(cuFuncGetAttribute(&Value, MaxDynamicSharedSizeBytes, &Kernel), 0);
  EXPECT_EQ(Value, 48 * 1024 - 1024);
  EXPECT_EQ(launch(48 * 1024 - 1024), 0);
  EXPECT_EQ(Runs, 1);
  EXPECT_EQ(launch(48 * 1024 - 1023), InvalidValue);
  EXPECT_EQ(Runs, 1);
}

TEST_F(CUDASharedMemoryTest, OptInUpTo227KiB) {
  int Value = 0;
  ASSERT_EQ(cuDeviceGetAttribute(&Value, MaxSharedMemoryPerBlockOptin, 0), 0);
  EXPECT_EQ(Value, 232448);
  // The static part counts against the limit too.
  EXPECT_EQ(
      cuFuncSetAttribute(&Kernel, MaxDynamicSharedSizeBytes, 232448 - 1024 + 1),
      InvalidValue);
  ASSERT_EQ(cuFuncSetAttribute(&Kernel, MaxDynamicSharedSizeBytes, 100 * 1024),
            0);
  ASSERT_EQ(cuFuncGetAttribute(&Value, MaxDynamicSharedSizeBytes, &Kernel), 0);
  EXPECT_EQ(Value, 100 * 1024);
  EXPECT_EQ(launch(100 * 1024), 0);
  EXPECT_EQ(Runs, 1);
  EXPECT_EQ(launch(100 * 1024 + 1), InvalidValue);
  EXPECT_EQ(Runs, 1);
}

} // namespace
