//===- KernelTimeoutTest.cpp - LIBOMPTARGET_KERNEL_TIMEOUT_MS -------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gpu/KernelTimeout.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

#include <chrono>
#include <cstdlib>
#include <thread>

using namespace offload::plugin;
using ::testing::HasSubstr;

namespace {

TEST(KernelTimeout, UnsetEmptyOrZeroMeansNoLimit) {
  for (const char *Value : {static_cast<const char *>(nullptr), "", "0"}) {
    KernelTimeout T = parseKernelTimeout(Value);
    EXPECT_FALSE(T.enabled());
    EXPECT_TRUE(T.Error.empty());
  }
}

TEST(KernelTimeout, Milliseconds) {
  KernelTimeout T = parseKernelTimeout("2500");
  EXPECT_TRUE(T.enabled());
  EXPECT_EQ(T.Milliseconds, 2500u);
  EXPECT_TRUE(T.Error.empty());
}

TEST(KernelTimeout, BadValuesNameTheVariable) {
  for (const char *Value : {"-5", "10s", "abc", " 10", "1e3"}) {
    KernelTimeout T = parseKernelTimeout(Value);
    EXPECT_FALSE(T.enabled()) << Value;
    EXPECT_THAT(T.Error, HasSubstr("LIBOMPTARGET_KERNEL_TIMEOUT_MS='" +
                                   std::string(Value) + "'"));
    EXPECT_THAT(T.Error, HasSubstr("milliseconds"));
  }
  EXPECT_THAT(parseKernelTimeout("99999999999999999999999").Error,
              HasSubstr("too large"));
}

TEST(KernelTimeout, ReadsTheEnvironment) {
  setenv("LIBOMPTARGET_KERNEL_TIMEOUT_MS", "75", 1);
  EXPECT_EQ(kernelTimeoutFromEnvironment().Milliseconds, 75u);
  unsetenv("LIBOMPTARGET_KERNEL_TIMEOUT_MS");
  EXPECT_FALSE(kernelTimeoutFromEnvironment().enabled());
}

TEST(WaitDeadline, PassesOnlyWithALimit) {
  WaitDeadline Never(parseKernelTimeout(nullptr));
  WaitDeadline Soon(parseKernelTimeout("1"));
  WaitDeadline Later(parseKernelTimeout("600000"));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_TRUE(Soon.passed());
  EXPECT_FALSE(Later.passed());
  EXPECT_FALSE(Never.passed());
}

} // namespace
