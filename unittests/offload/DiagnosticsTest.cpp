//===- DiagnosticsTest.cpp - Names and places in runtime messages ---------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "diagnostics/Diagnostics.h"

#include "gtest/gtest.h"

using namespace offload;

namespace {

TEST(Diagnostics, ClangMapNameIsVariableThenFile) {
  const char *Name = ";arr[0:n];/home/u/t.c;16;5;;";
  EXPECT_EQ(mapName(Name), "arr[0:n]");
  // The file's last component, as upstream prints locations.
  EXPECT_EQ(mapLocation(Name), "t.c:16:5");
}

TEST(Diagnostics, FlangMapNameIsFileThenVariable) {
  // Flang writes the fields the other way round.
  const char *Name = ";/home/u/t.F90;anarray(1:5000);99;36;;";
  EXPECT_EQ(mapName(Name), "anarray(1:5000)");
  EXPECT_EQ(mapLocation(Name), "t.F90:99:36");
  const char *Relative = ";t.f90;x;3;9;;";
  EXPECT_EQ(mapName(Relative), "x");
  EXPECT_EQ(mapLocation(Relative), "t.f90:3:9");
}

TEST(Diagnostics, MissingOrUnknownNames) {
  EXPECT_EQ(mapName(nullptr), "unknown");
  // Upstream prints every location as file:line:col, unknown ones too.
  EXPECT_EQ(mapLocation(";x;unknown;0;0;;"), "unknown:0:0");
  EXPECT_EQ(mapLocation(nullptr), "unknown:0:0");
  EXPECT_EQ(mapName(";x;unknown;0;0;;"), "x");
}

TEST(Diagnostics, ConstructLocations) {
  ident_t Known{};
  Known.psource = ";/home/u/t.c;main;12;3;;";
  EXPECT_EQ(sourceLocation(&Known), "t.c:12:3");
  // Clang's location of a construct compiled without debug information.
  ident_t Unknown{};
  Unknown.psource = ";unknown;unknown;0;0;;";
  EXPECT_EQ(sourceLocation(&Unknown), "unknown:0:0");
  EXPECT_EQ(sourceLocation(nullptr), "unknown:0:0");
}

} // namespace
