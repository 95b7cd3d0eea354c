//===- HostServiceFilesTest.cpp - File and exit requests on the host ------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// gpu/HostServiceFiles without a GPU: requests laid out as
// openmp/device/gpu/HostFiles.cpp lays them out.
//
//===----------------------------------------------------------------------===//

#include "gpu/HostServiceFiles.h"

#include "gtest/gtest.h"

#include <cstdio>
#include <cstring>
#include <string>
#include <unistd.h>
#include <vector>

using namespace offload::plugin;
using namespace ompx::hostservice;

namespace {

struct Payload {
  std::vector<unsigned char> Bytes;
  template <typename T> Payload &raw(T V) {
    const unsigned char *P = reinterpret_cast<const unsigned char *>(&V);
    Bytes.insert(Bytes.end(), P, P + sizeof(V));
    return *this;
  }
  Payload &text(const std::string &S) {
    Bytes.insert(Bytes.end(), S.begin(), S.end());
    return *this;
  }
  uint64_t send(FileHostService &Service, uint32_t Op) {
    SlotHeader H{};
    H.Opcode = Op;
    H.Bytes = uint32_t(Bytes.size());
    Bytes.resize(PayloadBytes);
    return Service.perform(H, Bytes.data());
  }
};

FileRef hostFile(uint64_t Handle) { return FileRef{0, 0, Handle}; }

TEST(HostServiceFiles, WritesThenReadsAFile) {
  std::string Path =
      ::testing::TempDir() + "host-service-" + std::to_string(getpid());
  std::string Mode = "w+";
  FileHostService Service("test device");
  uint64_t Handle =
      Payload()
          .raw(FopenPayload{uint32_t(Path.size()), uint32_t(Mode.size())})
          .text(Path)
          .text(Mode)
          .send(Service, OpFopen);
  ASSERT_NE(Handle, 0u);
  EXPECT_EQ(Payload()
                .raw(hostFile(Handle))
                .text("hello, file")
                .send(Service, OpFwrite),
            11u);
  EXPECT_EQ(Payload().raw(hostFile(Handle)).send(Service, OpFflush), 0u);
  FILE *Direct = std::fopen(Path.c_str(), "r");
  ASSERT_TRUE(Direct);
  char Seen[32] = {};
  EXPECT_EQ(std::fread(Seen, 1, sizeof(Seen), Direct), 11u);
  std::fclose(Direct);
  EXPECT_STREQ(Seen, "hello, file");
  // Back to the start through the same handle, as fread on the device.
  std::rewind(reinterpret_cast<FILE *>(uintptr_t(Handle)));
  Payload Read;
  Read.raw(FreadPayload{hostFile(Handle), 5});
  EXPECT_EQ(Read.send(Service, OpFread), 5u);
  EXPECT_EQ(std::string(reinterpret_cast<char *>(Read.Bytes.data()), 5),
            "hello");
  EXPECT_EQ(Payload().raw(hostFile(Handle)).send(Service, OpFclose), 0u);
  // Closed: the handle is no longer one of the device's files.
  testing::internal::CaptureStderr();
  EXPECT_EQ(int64_t(Payload().raw(hostFile(Handle)).send(Service, OpFflush)),
            -1);
  std::string Err = testing::internal::GetCapturedStderr();
  EXPECT_NE(Err.find("test device: block 0 thread 0 used a FILE * that is "
                     "not stdout, stderr or a file it opened"),
            std::string::npos)
      << Err;
  std::remove(Path.c_str());
}

TEST(HostServiceFiles, AFailedOpenAnswersNull) {
  std::string Path = "/nonexistent/dir/file", Mode = "r";
  FileHostService Service("test device");
  EXPECT_EQ(Payload()
                .raw(FopenPayload{uint32_t(Path.size()), uint32_t(Mode.size())})
                .text(Path)
                .text(Mode)
                .send(Service, OpFopen),
            0u);
}

TEST(HostServiceFiles, ForeignHandlesAreNeverUsed) {
  FileHostService Service("test device");
  testing::internal::CaptureStderr();
  EXPECT_EQ(
      int64_t(
          Payload().raw(hostFile(0x1234)).text("x").send(Service, OpFwrite)),
      -1);
  testing::internal::GetCapturedStderr();
}

TEST(HostServiceFiles, ExitWaitsForTheKernelAndTheFirstWins) {
  FileHostService Service("test device");
  int Code = 0;
  EXPECT_FALSE(Service.exitPending(Code));
  Payload().raw(ExitPayload{5, 0}).send(Service, OpExit);
  Payload().raw(ExitPayload{0, 1}).send(Service, OpExit);
  ASSERT_TRUE(Service.exitPending(Code));
  EXPECT_EQ(Code, 5);
  EXPECT_EXIT(Service.afterKernel(), testing::ExitedWithCode(5), "");
}

TEST(HostServiceFiles, AbortAborts) {
  FileHostService Service("test device");
  Payload().raw(ExitPayload{0, 1}).send(Service, OpExit);
  EXPECT_DEATH(Service.afterKernel(), "");
}

} // namespace
