//===- InteropPropertiesTest.cpp - omp_get_interop_* rules ----------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "interop/Interop.h"

#include "gtest/gtest.h"

#include <cstring>

using namespace offload;

namespace {

/// An object as the CUDA plugin describes its devices.
InteropObject cudaLikeObject(int32_t Kind) {
  InteropObject Object;
  Object.DeviceNum = 2;
  Object.Kind = Kind;
  Object.Properties.ForeignRuntimeId = 2; // omp_ifr_cuda_driver
  Object.Properties.ForeignRuntimeName = "cuda_driver";
  Object.Properties.VendorId = 11;
  Object.Properties.VendorName = "nvidia";
  Object.Properties.HasDeviceHandle = true;
  Object.Properties.DeviceHandle = 0;
  Object.Properties.DeviceContext = reinterpret_cast<void *>(0x1000);
  Object.Properties.DeviceHandleType = "CUdevice";
  Object.Properties.SyncType = "CUstream";
  Object.TargetSync = reinterpret_cast<void *>(0x2000);
  return Object;
}

TEST(InteropProperties, ValuesOfEachType) {
  InteropObject Object = cudaLikeObject(InteropTarget);
  int Rc = 99;
  EXPECT_EQ(readInteropProperty(&Object, IprForeignRuntimeId,
                                InteropValue::Int, Rc)
                .IntValue,
            2);
  EXPECT_EQ(Rc, IrcSuccess);
  EXPECT_STREQ(readInteropProperty(&Object, IprVendorName, InteropValue::Str,
                                   Rc)
                   .StrValue,
               "nvidia");
  EXPECT_EQ(Rc, IrcSuccess);
  // Device handle 0 is a valid CUdevice, not "no value".
  EXPECT_EQ(
      readInteropProperty(&Object, IprDevice, InteropValue::Int, Rc).IntValue,
      0);
  EXPECT_EQ(Rc, IrcSuccess);
  EXPECT_EQ(readInteropProperty(&Object, IprDeviceContext, InteropValue::Ptr,
                                Rc)
                .PtrValue,
            reinterpret_cast<void *>(0x1000));
  EXPECT_EQ(Rc, IrcSuccess);
  EXPECT_EQ(
      readInteropProperty(&Object, IprDeviceNum, InteropValue::Int, Rc)
          .IntValue,
      2);
}

TEST(InteropProperties, WrongAccessorNamesTheRealType) {
  InteropObject Object = cudaLikeObject(InteropTarget);
  int Rc = 0;
  readInteropProperty(&Object, IprForeignRuntimeName, InteropValue::Int, Rc);
  EXPECT_EQ(Rc, IrcTypeStr);
  readInteropProperty(&Object, IprDevice, InteropValue::Ptr, Rc);
  EXPECT_EQ(Rc, IrcTypeInt);
  readInteropProperty(&Object, IprTargetSync, InteropValue::Str, Rc);
  EXPECT_EQ(Rc, IrcTypePtr);
}

TEST(InteropProperties, TargetSyncObjectsHaveNoDeviceOrContext) {
  InteropObject Object = cudaLikeObject(InteropTargetSync);
  int Rc = 0;
  readInteropProperty(&Object, IprDeviceContext, InteropValue::Ptr, Rc);
  EXPECT_EQ(Rc, IrcNoValue);
  EXPECT_EQ(readInteropProperty(&Object, IprTargetSync, InteropValue::Ptr, Rc)
                .PtrValue,
            reinterpret_cast<void *>(0x2000));
  EXPECT_EQ(Rc, IrcSuccess);
}

TEST(InteropProperties, DeviceWithoutForeignRuntime) {
  InteropObject Object; // the CPU device: default properties, no sync
  Object.DeviceNum = 0;
  int Rc = 0;
  readInteropProperty(&Object, IprForeignRuntimeId, InteropValue::Int, Rc);
  EXPECT_EQ(Rc, IrcNoValue);
  readInteropProperty(&Object, IprTargetSync, InteropValue::Ptr, Rc);
  EXPECT_EQ(Rc, IrcNoValue);
  readInteropProperty(&Object, IprPlatform, InteropValue::Ptr, Rc);
  EXPECT_EQ(Rc, IrcNoValue);
  EXPECT_EQ(
      readInteropProperty(&Object, IprDeviceNum, InteropValue::Int, Rc)
          .IntValue,
      0);
  EXPECT_EQ(Rc, IrcSuccess);
}

TEST(InteropProperties, EmptyAndOutOfRange) {
  int Rc = 0;
  readInteropProperty(nullptr, IprDeviceNum, InteropValue::Int, Rc);
  EXPECT_EQ(Rc, IrcEmpty);
  InteropObject Destroyed;
  Destroyed.Magic = 0;
  readInteropProperty(&Destroyed, IprDeviceNum, InteropValue::Int, Rc);
  EXPECT_EQ(Rc, IrcEmpty);
  InteropObject Object;
  readInteropProperty(&Object, 0, InteropValue::Int, Rc);
  EXPECT_EQ(Rc, IrcOutOfRange);
  readInteropProperty(&Object, IprFirst - 1, InteropValue::Int, Rc);
  EXPECT_EQ(Rc, IrcOutOfRange);
}

TEST(InteropProperties, NamesTypesAndDescriptions) {
  InteropObject Object = cudaLikeObject(InteropTarget);
  EXPECT_STREQ(interopPropertyName(IprTargetSync), "targetsync");
  EXPECT_STREQ(interopPropertyName(IprForeignRuntimeId), "fr_id");
  EXPECT_EQ(interopPropertyName(0), nullptr);
  EXPECT_STREQ(interopPropertyType(&Object, IprTargetSync), "CUstream");
  EXPECT_STREQ(interopPropertyType(&Object, IprDevice), "CUdevice");
  EXPECT_STREQ(interopPropertyType(nullptr, IprDeviceNum), "int");
  EXPECT_NE(interopRcDescription(IrcTypeInt), nullptr);
  EXPECT_EQ(interopRcDescription(42), nullptr);
}

} // namespace
