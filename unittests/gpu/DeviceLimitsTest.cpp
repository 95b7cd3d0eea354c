//===- DeviceLimitsTest.cpp - Stack and heap sizes of GPU plugins ---------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gpu/DeviceLimits.h"

#include "gtest/gtest.h"

using namespace offload::plugin;

namespace {

TEST(DeviceLimits, UnsetOrEmptyIsAbsent) {
  EXPECT_FALSE(parseRequestedSize("LIBOMPTARGET_STACK_SIZE", nullptr).Present);
  RequestedSize Empty = parseRequestedSize("LIBOMPTARGET_STACK_SIZE", "");
  EXPECT_FALSE(Empty.Present);
  EXPECT_TRUE(Empty.Error.empty());
}

TEST(DeviceLimits, BytesAndBinaryUnits) {
  EXPECT_EQ(parseRequestedSize("V", "8192").Bytes, 8192u);
  EXPECT_EQ(parseRequestedSize("V", "16K").Bytes, 16u << 10);
  EXPECT_EQ(parseRequestedSize("V", "64m").Bytes, 64u << 20);
  EXPECT_EQ(parseRequestedSize("V", "2G").Bytes, size_t(2) << 30);
  EXPECT_TRUE(parseRequestedSize("V", "0").Present);
}

TEST(DeviceLimits, BadValuesNameTheVariable) {
  for (const char *Bad : {"-1", "abc", "12KB", "1.5M", " 4096", "4096x",
                          "99999999999999999999999", "99999999999G"}) {
    RequestedSize R = parseRequestedSize("LIBOMPTARGET_HEAP_SIZE", Bad);
    EXPECT_FALSE(R.Present) << Bad;
    EXPECT_NE(R.Error.find("LIBOMPTARGET_HEAP_SIZE='"), std::string::npos)
        << R.Error;
    EXPECT_NE(R.Error.find(Bad), std::string::npos) << R.Error;
  }
}

TEST(DeviceLimits, StackIsRaisedToTheFloorButNeverLowered) {
  RequestedSize None;
  EXPECT_EQ(stackBytesToSet(None, 1024), DefaultMinimumStackBytes);
  EXPECT_EQ(stackBytesToSet(None, DefaultMinimumStackBytes), 0u);
  EXPECT_EQ(stackBytesToSet(None, 65536), 0u);
}

TEST(DeviceLimits, AnExplicitRequestWinsEvenBelowTheFloor) {
  RequestedSize Small = parseRequestedSize("V", "512");
  EXPECT_EQ(stackBytesToSet(Small, 1024), 512u);
  EXPECT_EQ(stackBytesToSet(Small, 512), 0u);
  RequestedSize Large = parseRequestedSize("V", "64K");
  EXPECT_EQ(stackBytesToSet(Large, 1024), 64u << 10);
}

} // namespace
