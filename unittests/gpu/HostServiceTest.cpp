//===- HostServiceTest.cpp - The host side of the host-service channel ----===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The ring server (gpu/HostServiceServer) and the Fortran replay
// (gpu/HostServiceFortran) without a GPU: host threads play the device,
// following the slot protocol of HostServiceABI.h as
// openmp/device/gpu/HostService.cpp does, and a fake Flang runtime records
// the calls a replay makes.
//
//===----------------------------------------------------------------------===//

#include "gpu/HostServiceFortran.h"
#include "gpu/HostServiceServer.h"

#include "gtest/gtest.h"

#include <array>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

using namespace offload::plugin;
using namespace ompx::hostservice;

namespace {

/// A claimed slot, written like the device runtime does.
struct FakeRequest {
  Slot *S;
  uint64_t Ticket;
  void append(const void *Data, uint32_t Bytes) {
    std::memcpy(S->Payload + S->Header.Bytes, Data, Bytes);
    S->Header.Bytes += Bytes;
  }
  template <typename T> void value(T V) { append(&V, sizeof(V)); }
  void submit() {
    __atomic_store_n(&S->Header.Sequence, Ticket + 1, __ATOMIC_RELEASE);
  }
};

FakeRequest claim(HostServiceRing &Ring, uint32_t Op, uint32_t Thread = 0) {
  uint64_t Ticket = __atomic_fetch_add(&Ring.NextTicket, 1, __ATOMIC_RELAXED);
  Slot &S = Ring.Slots[Ticket % Ring.NumSlots];
  while (__atomic_load_n(&S.Header.Sequence, __ATOMIC_ACQUIRE) != Ticket)
    std::this_thread::yield();
  S.Header.Opcode = Op;
  S.Header.Bytes = 0;
  S.Header.Flags = 0;
  S.Header.Thread = Thread;
  S.Header.Block = 0;
  return {&S, Ticket};
}

/// Records the requests it performs as "<opcode>:<first payload word>".
class RecordingHandler : public HostServiceHandler {
public:
  uint64_t perform(const SlotHeader &Header, unsigned char *Payload) override {
    uint32_t Word = 0;
    if (Header.Bytes >= 4)
      std::memcpy(&Word, Payload, 4);
    std::lock_guard<std::mutex> Lock(Mutex);
    Seen.push_back(std::to_string(Header.Opcode) + ":" + std::to_string(Word));
    return 0;
  }
  void afterKernel() override { ++AfterKernel; }
  std::mutex Mutex;
  std::vector<std::string> Seen;
  int AfterKernel = 0;
};

struct RingMemory {
  explicit RingMemory(uint32_t Slots) : Bytes(ringBytes(Slots)) {
    Memory = ::operator new(Bytes, std::align_val_t(64));
  }
  ~RingMemory() { ::operator delete(Memory, std::align_val_t(64)); }
  size_t Bytes;
  void *Memory;
};

TEST(HostServiceServer, InitializesTheRing) {
  RingMemory M(4);
  RecordingHandler H;
  HostServiceServer Server(M.Memory, 4, H);
  EXPECT_EQ(Server.ring()->Magic, RingMagic);
  EXPECT_EQ(Server.ring()->NumSlots, 4u);
  EXPECT_EQ(Server.ring()->NextTicket, 0u);
  for (uint64_t I = 0; I < 4; ++I)
    EXPECT_EQ(Server.ring()->Slots[I].Header.Sequence, I);
}

TEST(HostServiceServer, ServesInClaimOrderAndStopsAtAnUnsubmittedSlot) {
  RingMemory M(4);
  RecordingHandler H;
  HostServiceServer Server(M.Memory, 4, H);
  HostServiceRing &Ring = *Server.ring();
  FakeRequest A = claim(Ring, 7), B = claim(Ring, 7), C = claim(Ring, 7);
  A.value(uint32_t(1));
  B.value(uint32_t(2));
  C.value(uint32_t(3));
  // B and C are done, A is still being written: nothing may be served.
  C.submit();
  B.submit();
  EXPECT_EQ(Server.serveReady(), 0u);
  A.submit();
  EXPECT_EQ(Server.serveReady(), 3u);
  EXPECT_EQ(H.Seen, (std::vector<std::string>{"7:1", "7:2", "7:3"}));
  // Served slots are free for the next round.
  EXPECT_EQ(Ring.Slots[0].Header.Sequence, 4u);
  EXPECT_EQ(Ring.Slots[2].Header.Sequence, 6u);
}

TEST(HostServiceServer, SkipsSlotsOfThreadsThatEndedOnlyAfterAFailure) {
  RingMemory M(4);
  RecordingHandler H;
  HostServiceServer Server(M.Memory, 4, H);
  HostServiceRing &Ring = *Server.ring();
  Server.kernelQueued();
  claim(Ring, 7); // Its thread trapped before submitting.
  FakeRequest B = claim(Ring, 8);
  B.value(uint32_t(5));
  B.submit();
  Server.kernelsCompleted(1, /*Failed=*/false);
  EXPECT_TRUE(H.Seen.empty());
  EXPECT_EQ(H.AfterKernel, 1);
  Server.kernelQueued();
  Server.kernelsCompleted(1, /*Failed=*/true);
  EXPECT_EQ(H.Seen, (std::vector<std::string>{"8:5"}));
  EXPECT_EQ(H.AfterKernel, 2);
  // The ring goes on: the next ticket uses slot 2.
  FakeRequest C = claim(Ring, 9);
  EXPECT_EQ(C.S, &Ring.Slots[2]);
}

TEST(HostServiceServer, ManyThreadsThroughFewSlotsWhileTheKernelRuns) {
  RingMemory M(4);
  RecordingHandler H;
  HostServiceServer Server(M.Memory, 4, H);
  HostServiceRing &Ring = *Server.ring();
  constexpr uint32_t Threads = 4, PerThread = 200;
  Server.kernelQueued();
  std::vector<std::thread> Device;
  for (uint32_t T = 0; T < Threads; ++T)
    Device.emplace_back([&, T] {
      for (uint32_t I = 0; I < PerThread; ++I) {
        FakeRequest R = claim(Ring, 10 + T, T);
        R.value(I);
        R.submit();
      }
    });
  for (std::thread &T : Device)
    T.join();
  Server.kernelsCompleted(1, false);
  ASSERT_EQ(H.Seen.size(), size_t(Threads * PerThread));
  // Each thread's requests arrive whole and in its program order.
  std::vector<uint32_t> Next(Threads, 0);
  for (const std::string &S : H.Seen) {
    uint32_t Op = std::stoul(S.substr(0, S.find(':')));
    uint32_t Value = std::stoul(S.substr(S.find(':') + 1));
    ASSERT_GE(Op, 10u);
    EXPECT_EQ(Value, Next[Op - 10]++);
  }
}

/// A Flang runtime that writes what it is asked to do into Log.
std::string Log;
void *const FakeCookie = reinterpret_cast<void *>(0x1234);
FortranIOTable fakeFlang() {
  FortranIOTable T;
  T.BeginList = [](int Unit, const char *, int Line) {
    Log += "list(" + std::to_string(Unit) + "@" + std::to_string(Line) + ")";
    return FakeCookie;
  };
  T.BeginFormatted = [](const char *F, size_t N, const void *, int Unit,
                        const char *, int) {
    Log += "fmt(" + std::string(F, N) + "," + std::to_string(Unit) + ")";
    return FakeCookie;
  };
  T.Integer8 = [](void *, int8_t V) {
    return Log += " i1:" + std::to_string(V), true;
  };
  T.Integer16 = [](void *, int16_t V) {
    return Log += " i2:" + std::to_string(V), true;
  };
  T.Integer32 = [](void *, int32_t V) {
    return Log += " i4:" + std::to_string(V), true;
  };
  T.Integer64 = [](void *, int64_t V) {
    return Log += " i8:" + std::to_string(V), true;
  };
  T.Real32 = [](void *, float V) {
    return Log += " r4:" + std::to_string(V), true;
  };
  T.Real64 = [](void *, double V) {
    return Log += " r8:" + std::to_string(V), true;
  };
  T.Complex32 = [](void *, float A, float B) {
    return Log += " c4:" + std::to_string(A) + "," + std::to_string(B), true;
  };
  T.Complex64 = [](void *, double A, double B) {
    return Log += " c8:" + std::to_string(A) + "," + std::to_string(B), true;
  };
  T.Logical = [](void *, bool V) { return Log += V ? " T" : " F", true; };
  T.Ascii = [](void *, const char *S, size_t N) {
    return Log += " '" + std::string(S, N) + "'", true;
  };
  T.End = [](void *C) { return Log += C == FakeCookie ? " end;" : " bad;", 0; };
  T.BeginFlush = [](int Unit, const char *, int) {
    Log += " flush(" + std::to_string(Unit) + ")";
    return FakeCookie;
  };
  T.Stop = [](int Code, bool Error, bool Quiet) {
    Log += "stop(" + std::to_string(Code) + "," + std::to_string(Error) + "," +
           std::to_string(Quiet) + ")";
  };
  T.StopText = [](const char *S, size_t N, bool Error, bool) {
    Log += "stoptext(" + std::string(S, N) + "," + std::to_string(Error) + ")";
  };
  return T;
}

/// The bytes of one statement's slot, as FortranIO.cpp records it.
struct Statement {
  std::vector<unsigned char> Bytes;
  template <typename T> Statement &raw(T V) {
    const unsigned char *P = reinterpret_cast<const unsigned char *>(&V);
    Bytes.insert(Bytes.end(), P, P + sizeof(V));
    return *this;
  }
  template <typename T> Statement &item(ItemKind K, T V) {
    return raw(uint8_t(K)).raw(V);
  }
  Statement &text(const std::string &S) {
    raw(uint8_t(ItemAscii)).raw(uint32_t(S.size()));
    Bytes.insert(Bytes.end(), S.begin(), S.end());
    return *this;
  }
  SlotHeader header(uint32_t Op = OpFortranStatement, uint32_t Flags = 0) {
    SlotHeader H{};
    H.Opcode = Op;
    H.Bytes = uint32_t(Bytes.size());
    H.Flags = Flags;
    return H;
  }
};

TEST(FortranHostService, ReplaysEveryItemKindInOrder) {
  FortranIOTable T = fakeFlang();
  FortranHostService Service(&T, "test device");
  Statement S;
  S.raw(FortranRecord{StatementList, 6, 12, 0})
      .text("hello")
      .item(ItemInteger8, int8_t(-8))
      .item(ItemInteger16, int16_t(1600))
      .item(ItemInteger32, int32_t(42))
      .item(ItemInteger64, int64_t(1) << 40)
      .item(ItemReal32, 2.5f)
      .item(ItemReal64, -0.25)
      .item(ItemComplex32, std::array<float, 2>{1, 2})
      .item(ItemComplex64, std::array<double, 2>{3, 4})
      .item(ItemLogical, uint8_t(1))
      .item(ItemLogical, uint8_t(0));
  Log.clear();
  Service.perform(S.header(), S.Bytes.data());
  EXPECT_EQ(Log, "list(6@12) 'hello' i1:-8 i2:1600 i4:42 i8:1099511627776 "
                 "r4:2.500000 r8:-0.250000 c4:1.000000,2.000000 "
                 "c8:3.000000,4.000000 T F end; flush(6) end;");
}

TEST(FortranHostService, FormattedStatementsPassTheirFormat) {
  FortranIOTable T = fakeFlang();
  FortranHostService Service(&T, "test device");
  std::string Format = "(A,I3)";
  Statement S;
  S.raw(FortranRecord{StatementFormatted, 10, 3, uint32_t(Format.size())});
  S.Bytes.insert(S.Bytes.end(), Format.begin(), Format.end());
  S.text("n=").item(ItemInteger32, int32_t(7));
  Log.clear();
  Service.perform(S.header(), S.Bytes.data());
  EXPECT_EQ(Log, "fmt((A,I3),10) 'n=' i4:7 end; flush(10) end;");
}

TEST(FortranHostService, AMalformedRecordStopsAtTheBadItem) {
  FortranIOTable T = fakeFlang();
  FortranHostService Service(&T, "test device");
  Statement S;
  S.raw(FortranRecord{StatementList, 6, 1, 0}).item(ItemInteger32, int32_t(1));
  S.raw(uint8_t(ItemInteger64)).raw(uint16_t(0)); // 2 of 8 bytes
  Log.clear();
  testing::internal::CaptureStderr();
  Service.perform(S.header(), S.Bytes.data());
  std::string Err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(Log, "list(6@1) i4:1 end; flush(6) end;");
  EXPECT_NE(Err.find("test device: a Fortran output statement at line 1"),
            std::string::npos)
      << Err;
  EXPECT_NE(Err.find("malformed"), std::string::npos) << Err;
}

TEST(FortranHostService, TruncatedStatementsAreReported) {
  FortranIOTable T = fakeFlang();
  FortranHostService Service(&T, "test device");
  Statement S;
  S.raw(FortranRecord{StatementList, 6, 9, 0}).item(ItemInteger32, int32_t(1));
  testing::internal::CaptureStderr();
  Service.perform(S.header(OpFortranStatement, FlagTruncated), S.Bytes.data());
  std::string Err = testing::internal::GetCapturedStderr();
  EXPECT_NE(Err.find("more than fits in one request (" +
                     std::to_string(PayloadBytes) +
                     " bytes for the record, its format and its items) and "
                     "the device heap had no room for the rest"),
            std::string::npos)
      << Err;
}

// A statement in three pieces, with another thread's statement between
// them: the host keeps the pieces (split inside an item) and replays the
// statement whole when its last piece arrives.
TEST(FortranHostService, JoinsTheContinuedPiecesOfAStatement) {
  FortranIOTable T = fakeFlang();
  FortranHostService Service(&T, "test device");
  Statement Long, Other;
  Long.raw(FortranRecord{StatementList, 6, 4, 0})
      .item(ItemInteger32, int32_t(7))
      .text("long")
      .item(ItemReal64, 0.5);
  Other.raw(FortranRecord{StatementList, 6, 5, 0}).text("other");
  std::vector<uint32_t> Cuts = {5, 19, uint32_t(Long.Bytes.size())};
  Log.clear();
  uint32_t Start = 0;
  for (uint32_t Cut : Cuts) {
    bool Last = Cut == Long.Bytes.size();
    SlotHeader H = Long.header(OpFortranStatement, Last ? 0 : FlagContinued);
    H.Bytes = Cut - Start;
    H.Statement = 40;
    Service.perform(H, Long.Bytes.data() + Start);
    Start = Cut;
    if (!Last)
      EXPECT_EQ(Log, "");
    if (Cut == Cuts[0]) {
      SlotHeader O = Other.header();
      O.Statement = 41;
      Service.perform(O, Other.Bytes.data());
      EXPECT_EQ(Log, "list(6@5) 'other' end; flush(6) end;");
      Log.clear();
    }
  }
  EXPECT_EQ(Log, "list(6@4) i4:7 'long' r8:0.500000 end; flush(6) end;");
}

TEST(FortranHostService, StopEndsTheProgramOnlyAfterTheKernel) {
  FortranIOTable T = fakeFlang();
  FortranHostService Service(&T, "test device");
  Statement S;
  S.raw(FortranStopPayload{3, 0, 0, 0, 0, 0});
  Log.clear();
  Service.perform(S.header(OpFortranStop), S.Bytes.data());
  EXPECT_TRUE(Service.stopPending());
  EXPECT_EQ(Log, "");
  // The fake returns where Flang's would exit.
  Service.afterKernel();
  EXPECT_EQ(Log, "stop(3,0,0)");
}

TEST(FortranHostService, ErrorStopWithTextKeepsItsMessage) {
  FortranIOTable T = fakeFlang();
  FortranHostService Service(&T, "test device");
  Statement S;
  S.raw(FortranStopPayload{1, 1, 0, 1, 0, 4});
  S.Bytes.insert(S.Bytes.end(), {'b', 'a', 'd', '!'});
  Log.clear();
  Service.perform(S.header(OpFortranStop), S.Bytes.data());
  Service.afterKernel();
  EXPECT_EQ(Log.substr(0, 16), "stoptext(bad!,1)");
}

TEST(FortranHostService, NoStopNoAction) {
  FortranIOTable T = fakeFlang();
  FortranHostService Service(&T, "test device");
  Log.clear();
  Service.afterKernel();
  EXPECT_FALSE(Service.stopPending());
  EXPECT_EQ(Log, "");
}

} // namespace
