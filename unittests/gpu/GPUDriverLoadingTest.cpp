//===- GPUDriverLoadingTest.cpp - CUDA and HSA driver loading -------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The GPU plugins' driver layers on a machine without a GPU: every way the
// driver can be unusable ends in zero devices and a reason naming the
// library, the symbol or the failing call.
//
//===----------------------------------------------------------------------===//

#include "amdgpu/HSARuntime.h"
#include "cuda/CUDADriver.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

#include <unistd.h>

using namespace offload::plugin;
using ::testing::HasSubstr;

namespace {

bool exists(const char *Path) { return access(Path, R_OK) == 0; }

const char *CudaStub = "/usr/local/cuda/lib64/stubs/libcuda.so";
const char *DebianHSA = "/usr/lib/x86_64-linux-gnu/libhsa-runtime64.so.1";

TEST(CUDADriverLoading, MissingLibraryMeansNoDevices) {
  auto Driver = cuda::CUDADriver::load("libno-such-cuda-driver.so.1");
  EXPECT_EQ(Driver->numDevices(), 0);
  EXPECT_THAT(Driver->unavailableReason(),
              HasSubstr("cannot load 'libno-such-cuda-driver.so.1'"));
  EXPECT_EQ(Driver->api().cuInit, nullptr);
}

TEST(CUDADriverLoading, LibraryWithoutTheAPINamesTheSymbol) {
  // libm is loadable but has no CUDA entry points.
  auto Driver = cuda::CUDADriver::load("libm.so.6");
  EXPECT_EQ(Driver->numDevices(), 0);
  EXPECT_THAT(Driver->unavailableReason(), HasSubstr("'libm.so.6'"));
  EXPECT_THAT(Driver->unavailableReason(), HasSubstr("'cuInit'"));
  // A partly resolved table is not left behind.
  EXPECT_EQ(Driver->api().cuInit, nullptr);
}

TEST(CUDADriverLoading, ToolkitStubAnswersWithAnError) {
  if (!exists(CudaStub))
    GTEST_SKIP() << CudaStub << " is not installed";
  auto Driver = cuda::CUDADriver::load(CudaStub);
  EXPECT_EQ(Driver->numDevices(), 0);
  EXPECT_NE(Driver->api().cuInit, nullptr);
  EXPECT_THAT(Driver->unavailableReason(), HasSubstr("cuInit returned"));
  EXPECT_THAT(Driver->unavailableReason(),
              HasSubstr("CUDA_ERROR_STUB_LIBRARY"));
}

TEST(CUDADriverLoading, DefaultLibraryHonoursTheOverride) {
  setenv("LIBOMPTARGET_CUDA_DRIVER", "/some/libcuda.so", 1);
  EXPECT_EQ(cuda::CUDADriver::defaultLibrary(), "/some/libcuda.so");
  unsetenv("LIBOMPTARGET_CUDA_DRIVER");
  EXPECT_EQ(cuda::CUDADriver::defaultLibrary(), "libcuda.so.1");
}

TEST(CUDADriverLoading, ErrorNamesWithoutADriver) {
  auto Driver = cuda::CUDADriver::load("libno-such-cuda-driver.so.1");
  EXPECT_EQ(Driver->errorName(2), "CUDA_ERROR_OUT_OF_MEMORY (2)");
  EXPECT_EQ(Driver->errorName(12345), "CUDA error 12345");
}

TEST(HSARuntimeLoading, MissingLibraryMeansNoDevices) {
  auto Runtime = hsa::HSARuntime::load("libno-such-hsa-runtime.so.1");
  EXPECT_EQ(Runtime->numDevices(), 0);
  EXPECT_THAT(Runtime->unavailableReason(),
              HasSubstr("cannot load 'libno-such-hsa-runtime.so.1'"));
}

TEST(HSARuntimeLoading, LibraryWithoutTheAPINamesTheSymbol) {
  auto Runtime = hsa::HSARuntime::load("libm.so.6");
  EXPECT_EQ(Runtime->numDevices(), 0);
  EXPECT_THAT(Runtime->unavailableReason(), HasSubstr("'hsa_init'"));
}

TEST(HSARuntimeLoading, DebianRuntimeFindsNoGPU) {
  if (!exists(DebianHSA))
    GTEST_SKIP() << DebianHSA << " is not installed";
  auto Runtime = hsa::HSARuntime::load(DebianHSA);
  EXPECT_NE(Runtime->api().hsa_init, nullptr);
  if (Runtime->numDevices() > 0)
    GTEST_SKIP() << "this machine has an AMD GPU";
  // Without /dev/kfd hsa_init fails; with it but no GPU, no agent is a GPU.
  EXPECT_THAT(Runtime->unavailableReason(),
              ::testing::AnyOf(HasSubstr("hsa_init returned"),
                               HasSubstr("finds no GPU agent")));
}

} // namespace
