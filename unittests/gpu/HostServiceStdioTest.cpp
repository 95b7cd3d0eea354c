//===- HostServiceStdioTest.cpp - printf and puts requests on the host ----===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// gpu/HostServiceStdio without a GPU: requests recorded as
// openmp/device/gpu/HostStdio.cpp records them are formatted like the
// host's own printf would format the same call.
//
//===----------------------------------------------------------------------===//

#include "gpu/HostServiceStdio.h"
#include "PrintfFormat.h"

#include "gtest/gtest.h"

#include <cstring>
#include <string>
#include <vector>

using namespace offload::plugin;
using namespace ompx::hostservice;
using namespace ompx::printf_format;

namespace {

/// A printf request, built like the device runtime builds it.
struct PrintfRequest {
  std::vector<unsigned char> Bytes;
  explicit PrintfRequest(const std::string &Format,
                         uint32_t Stream = StreamStdout) {
    raw(PrintfPayload{Stream, uint32_t(Format.size())});
    Bytes.insert(Bytes.end(), Format.begin(), Format.end());
  }
  template <typename T> PrintfRequest &raw(T V) {
    const unsigned char *P = reinterpret_cast<const unsigned char *>(&V);
    Bytes.insert(Bytes.end(), P, P + sizeof(V));
    return *this;
  }
  PrintfRequest &integer(int64_t V) { return raw(V); }
  PrintfRequest &real(double V) { return raw(V); }
  PrintfRequest &text(const char *S) {
    if (!S)
      return raw(NullString);
    raw(uint32_t(std::strlen(S)));
    Bytes.insert(Bytes.end(), S, S + std::strlen(S));
    return *this;
  }
  std::string format(bool ExpectOk = true) {
    std::string Out, Error;
    uint32_t Stream = 0;
    bool Ok = formatPrintfRequest(Bytes.data(), uint32_t(Bytes.size()), Stream,
                                  Out, Error);
    EXPECT_EQ(Ok, ExpectOk) << Error;
    return Ok ? Out : Error;
  }
};

TEST(PrintfFormat, FindsConversionsAndTheirArguments) {
  const char *F = "a%d b%-8.3lf c%*.*s d%% e%zu f%p g%hhx h%Lg i%n";
  size_t Pos = 0;
  Conversion C;
  std::vector<std::pair<ArgKind, uint32_t>> Seen;
  while (nextConversion(F, std::strlen(F), Pos, C))
    Seen.push_back({C.Kind, C.Stars});
  std::vector<std::pair<ArgKind, uint32_t>> Expected = {
      {ArgInt, 0},  {ArgDouble, 0}, {ArgString, 2},
      {ArgNone, 0}, {ArgLong, 0},   {ArgPointer, 0},
      {ArgInt, 0},  {ArgDouble, 0}, {ArgCount, 0}};
  EXPECT_EQ(Seen, Expected);
}

TEST(HostServiceStdio, FormatsLikeTheHostPrintf) {
  char Expected[256];
  std::snprintf(Expected, sizeof(Expected),
                "n=%d u=%u x=%#06x c=%c f=%.3f e=%10.2e g=%g s=[%-6s] "
                "l=%ld ll=%lld z=%zu %%",
                -5, 4000000000u, 255, 'z', 2.5, 12345.678, 1e-5, "ab",
                -1234567890123L, 9000000000000000000LL, size_t(77));
  std::string Out = PrintfRequest("n=%d u=%u x=%#06x c=%c f=%.3f e=%10.2e g=%g "
                                  "s=[%-6s] l=%ld ll=%lld z=%zu %%")
                        .integer(-5)
                        .integer(int32_t(4000000000u))
                        .integer(255)
                        .integer('z')
                        .real(2.5)
                        .real(12345.678)
                        .real(1e-5)
                        .text("ab")
                        .integer(-1234567890123LL)
                        .integer(9000000000000000000LL)
                        .integer(77)
                        .format();
  EXPECT_EQ(Out, Expected);
}

TEST(HostServiceStdio, StarsPointersNullStringsAndLongDouble) {
  char Expected[256];
  std::snprintf(Expected, sizeof(Expected), "[%*.*f] [%-*d] %p %s %Lf", 9, 2,
                3.14159, 4, 7, reinterpret_cast<void *>(0x1234), "(null)",
                (long double)0.5);
  std::string Out = PrintfRequest("[%*.*f] [%-*d] %p %s %Lf")
                        .integer(9)
                        .integer(2)
                        .real(3.14159)
                        .integer(4)
                        .integer(7)
                        .integer(0x1234)
                        .text(nullptr)
                        .real(0.5)
                        .format();
  // glibc prints a null %s as "(null)".
  EXPECT_EQ(Out, Expected);
}

TEST(HostServiceStdio, MissingArgumentsAreAnError) {
  std::string Error = PrintfRequest("%d and %f").integer(1).format(false);
  EXPECT_NE(Error.find("printf arguments missing for \"%d and %f\""),
            std::string::npos)
      << Error;
}

TEST(HostServiceStdio, WritesEachRequestWholeAndAnswersItsLength) {
  FILE *Out = std::tmpfile();
  FILE *Err = std::tmpfile();
  ASSERT_TRUE(Out && Err);
  StdioHostService Service("test device", Out, Err);
  PrintfRequest P("v=%d\n", StreamStderr);
  P.integer(42);
  SlotHeader H{};
  H.Opcode = OpPrintf;
  H.Bytes = uint32_t(P.Bytes.size());
  EXPECT_EQ(Service.perform(H, P.Bytes.data()), 5u);
  std::vector<unsigned char> Puts(sizeof(PutsPayload));
  PutsPayload PP{StreamStdout, 1};
  std::memcpy(Puts.data(), &PP, sizeof(PP));
  const char *Line = "a line";
  Puts.insert(Puts.end(), Line, Line + 6);
  H.Opcode = OpPuts;
  H.Bytes = uint32_t(Puts.size());
  EXPECT_EQ(Service.perform(H, Puts.data()), 0u);
  auto Contents = [](FILE *F) {
    std::rewind(F);
    char Buffer[64] = {};
    size_t N = std::fread(Buffer, 1, sizeof(Buffer) - 1, F);
    return std::string(Buffer, N);
  };
  EXPECT_EQ(Contents(Err), "v=42\n");
  EXPECT_EQ(Contents(Out), "a line\n");
  std::fclose(Out);
  std::fclose(Err);
}

TEST(HostServiceStdio, UnknownStreamsAreRefused) {
  StdioHostService Service("test device");
  PrintfRequest P("x", 7);
  SlotHeader H{};
  H.Opcode = OpPrintf;
  H.Bytes = uint32_t(P.Bytes.size());
  testing::internal::CaptureStderr();
  EXPECT_EQ(int64_t(Service.perform(H, P.Bytes.data())), -1);
  std::string Err = testing::internal::GetCapturedStderr();
  EXPECT_NE(Err.find("test device: block 0 thread 0 sent output for a "
                     "stream other than stdout, stderr and the files it "
                     "opened"),
            std::string::npos)
      << Err;
}

// fputs to a file: stream 0, the file's FileRef after the header, the text;
// the resolver names the host's FILE.
TEST(HostServiceStdio, FileOutputGoesWhereTheResolverSays) {
  StdioHostService Service("test device");
  FILE *File = std::tmpfile();
  ASSERT_NE(File, nullptr);
  FileRef Seen = {};
  Service.resolveFilesWith([&](const FileRef &Ref, const SlotHeader &) {
    Seen = Ref;
    return File;
  });
  PutsPayload Puts = {0, 0};
  FileRef Ref = {0, 0, 0x1234};
  std::vector<unsigned char> Bytes(sizeof(Puts) + sizeof(Ref));
  std::memcpy(Bytes.data(), &Puts, sizeof(Puts));
  std::memcpy(Bytes.data() + sizeof(Puts), &Ref, sizeof(Ref));
  const char Text[] = "to a file";
  Bytes.insert(Bytes.end(), Text, Text + sizeof(Text) - 1);
  SlotHeader H{};
  H.Opcode = OpPuts;
  H.Bytes = uint32_t(Bytes.size());
  EXPECT_EQ(Service.perform(H, Bytes.data()), 0u);
  EXPECT_EQ(Seen.Handle, 0x1234u);
  std::rewind(File);
  char Back[32] = {0};
  EXPECT_EQ(std::fread(Back, 1, sizeof(Back) - 1, File), sizeof(Text) - 1);
  EXPECT_STREQ(Back, Text);
  std::fclose(File);
}

} // namespace
