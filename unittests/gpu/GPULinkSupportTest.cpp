//===- GPULinkSupportTest.cpp - Pieces of the wrapper's GPU device links --===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "GPUBitcodeLinker.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

using namespace llvm;
using namespace wrapper;
using ::testing::HasSubstr;

namespace {

TEST(GPULinkSupport, MissingToolNamesToolAndPurpose) {
  Expected<std::string> Tool = findGPUTool(
      "no-such-gpu-tool", {"/nonexistent/cuda/bin"}, {"/nonexistent/too"},
      "the device link of nvptx64-nvidia-cuda (sm_90)", "install it");
  ASSERT_FALSE(bool(Tool));
  std::string Message = toString(Tool.takeError());
  EXPECT_THAT(Message, HasSubstr("cannot find 'no-such-gpu-tool'"));
  EXPECT_THAT(Message,
              HasSubstr("the device link of nvptx64-nvidia-cuda (sm_90)"));
  EXPECT_THAT(Message, HasSubstr("/nonexistent/cuda/bin, PATH, "
                                 "/nonexistent/too"));
  EXPECT_THAT(Message, HasSubstr("install it"));
}

TEST(GPULinkSupport, PreferredDirectoryWins) {
  SmallString<128> Dir;
  ASSERT_FALSE(sys::fs::createUniqueDirectory("gpu-tool", Dir));
  SmallString<128> Tool(Dir);
  sys::path::append(Tool, "sh");
  ASSERT_FALSE(sys::fs::copy_file("/bin/sh", Tool));
  ASSERT_FALSE(
      sys::fs::setPermissions(Tool, sys::fs::all_exe | sys::fs::owner_read));
  Expected<std::string> Found =
      findGPUTool("sh", {Dir.str().str()}, {}, "a test", "");
  ASSERT_TRUE(bool(Found)) << toString(Found.takeError());
  EXPECT_EQ(*Found, Tool.str());
  sys::fs::remove(Tool);
  sys::fs::remove(Dir);
}

TEST(GPULinkSupport, LinkOptions) {
  SmallString<128> Prefix;
  ASSERT_FALSE(sys::fs::createUniqueDirectory("gpu-prefix", Prefix));
  SmallString<128> LibDir(Prefix);
  sys::path::append(LibDir, "lib", "nvptx64-nvidia-cuda");
  ASSERT_FALSE(sys::fs::create_directories(LibDir));
  SmallString<128> Archive(LibDir);
  sys::path::append(Archive, "libompdevice.a");
  {
    std::error_code EC;
    raw_fd_ostream OS(Archive, EC);
    ASSERT_FALSE(EC);
    OS << "!<arch>\n";
  }
  ToolchainPaths Paths;
  Paths.Prefix = Prefix.str().str();
  DeviceLinkJob Job;
  Job.Triple = Triple("nvptx64-nvidia-cuda");
  Job.Arch = "sm_90";
  Job.LinkerArgs = {"-lompdevice", "--verbose"};
  Job.CompilerArgs = {"-O3", "-g"};
  Expected<GPULinkOptions> Options = parseGPULinkOptions(Job, Paths);
  ASSERT_TRUE(bool(Options)) << toString(Options.takeError());
  ASSERT_EQ(Options->Archives.size(), 1u);
  EXPECT_EQ(Options->Archives[0], Archive.str());
  EXPECT_EQ(Options->LinkerPassThrough, std::vector<std::string>{"--verbose"});
  EXPECT_EQ(Options->OptLevel, 3u);
  EXPECT_TRUE(Options->Debug);

  Job.LinkerArgs = {"-lnosuchlib"};
  Expected<GPULinkOptions> Missing = parseGPULinkOptions(Job, Paths);
  ASSERT_FALSE(bool(Missing));
  EXPECT_THAT(toString(Missing.takeError()),
              HasSubstr("cannot find -lnosuchlib for the nvptx64-nvidia-cuda "
                        "device link (sm_90)"));
  sys::fs::remove_directories(Prefix);
}

TEST(GPULinkSupport, NothingToLinkGivesNoCode) {
  GPUBitcodeLink Link;
  Link.Triple = Triple("amdgcn-amd-amdhsa");
  Link.CPU = "gfx90a";
  Expected<SmallString<0>> Code = runGPUBitcodeLink(Link);
  ASSERT_TRUE(bool(Code)) << toString(Code.takeError());
  EXPECT_TRUE(Code->empty());
}

TEST(GPULinkSupport, UnreadableBitcodeNamesTheFile) {
  GPUBitcodeLink Link;
  Link.Triple = Triple("amdgcn-amd-amdhsa");
  Link.CPU = "gfx90a";
  Link.BitcodeFiles = {"/nonexistent/image.bc"};
  Expected<SmallString<0>> Code = runGPUBitcodeLink(Link);
  ASSERT_FALSE(bool(Code));
  EXPECT_THAT(toString(Code.takeError()),
              HasSubstr("cannot read '/nonexistent/image.bc'"));
}

} // namespace
