//===- HostServiceABI.h - Device-to-host request ring -----------*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The host-service channel: a ring of request slots in host memory the GPU
// can read and write (CUDA: page-locked host memory; HSA: a fine-grained
// system pool). Device code (openmp/device/gpu/HostService.cpp) fills a
// slot; a GPU plugin's server (offload/plugins/gpu/HostServiceServer.cpp)
// performs the request on the host.
//
// Slot i serves the tickets T with T % NumSlots == i. Its Sequence says who
// owns it for ticket T:
//   T      free: the device thread holding ticket T may write it
//   T + 1  ready: the request is complete; the host owns it
//   T + 2  answered: Result holds the host's answer (requests that wait)
//   T + N  free for the next round (the host or, after reading the answer,
//          the device sets it)
// The host serves tickets in order, so requests are performed in the order
// their slots were claimed, and one request is never split.
//
// Freestanding: included by the device runtime.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_INCLUDE_HOSTSERVICEABI_H
#define OFFLOAD_INCLUDE_HOSTSERVICEABI_H

#include <stddef.h>
#include <stdint.h>

namespace ompx {
namespace hostservice {

/// The device global through which the plugin tells an image where the
/// ring is (a HostServiceRing *; null: no server, requests are dropped).
#define OMPX_HOST_SERVICE_SYMBOL "__omp_rtl_host_service"

constexpr uint64_t RingMagic = 0x31474e4952585048ull; // "HPXRING1"
/// At least a warp (wavefront) of slots: see openmp/device/gpu/HostService.cpp.
constexpr uint32_t DefaultSlots = 64;
constexpr uint32_t SlotBytes = 8192;

enum Opcode : uint32_t {
  /// One Fortran I/O statement (a FortranRecord payload).
  OpFortranStatement = 1,
  /// STOP / ERROR STOP (a FortranStopPayload): the program ends.
  OpFortranStop = 2,
  /// printf / fprintf to stdout or stderr (a PrintfPayload); answered with
  /// the number of characters written.
  OpPrintf = 3,
  /// puts / fputs (a PutsPayload); answered with 0 or -1 (EOF).
  OpPuts = 4,
  /// fopen (a FopenPayload); answered with the host's handle, 0 on failure.
  OpFopen = 5,
  /// fclose, fflush (a FileRef); answered with 0 or -1 (EOF).
  OpFclose = 6,
  OpFflush = 7,
  /// fwrite (a FileRef, then the bytes); answered with the bytes written.
  OpFwrite = 8,
  /// fread (a FreadPayload); the host puts what it read at the start of
  /// the payload and answers with the byte count.
  OpFread = 9,
  /// exit / abort (an ExitPayload): the program ends after the kernel.
  OpExit = 10,
};

/// Set in SlotHeader::Flags when the device could not fit everything.
constexpr uint32_t FlagTruncated = 1;
/// Set when the request has an item the host cannot perform.
constexpr uint32_t FlagUnsupported = 2;
/// Set by the device when it waits for Result (Sequence T + 2).
constexpr uint32_t FlagAnswer = 4;
/// A piece of a Fortran statement longer than one request: its bytes
/// continue in the next OpFortranStatement request with the same
/// SlotHeader::Statement. The host keeps the pieces and replays the
/// statement when the piece without this flag arrives.
constexpr uint32_t FlagContinued = 8;

struct SlotHeader {
  uint64_t Sequence;
  uint32_t Opcode;
  /// Payload bytes used.
  uint32_t Bytes;
  uint64_t Result;
  uint32_t Flags;
  /// The requesting thread and block, for messages.
  uint32_t Thread;
  uint32_t Block;
  /// OpFortranStatement: names the statement in each of its pieces (the
  /// low 32 bits of its first request's ticket).
  uint32_t Statement;
};

constexpr uint32_t PayloadBytes = SlotBytes - sizeof(SlotHeader);

struct Slot {
  SlotHeader Header;
  unsigned char Payload[PayloadBytes];
};

struct HostServiceRing {
  uint64_t Magic;
  uint32_t NumSlots;
  uint32_t SlotSize;
  /// The next ticket; the only field device threads contend on.
  alignas(64) uint64_t NextTicket;
  alignas(64) Slot Slots[1];
};

/// Bytes of a ring of \p NumSlots slots.
constexpr size_t ringBytes(uint32_t NumSlots) {
  return offsetof(HostServiceRing, Slots) + size_t(NumSlots) * sizeof(Slot);
}

// A Fortran I/O statement is recorded as a FortranRecord, its format, then
// items, each a one-byte ItemKind, then its value, unaligned:
//   Integer8/16/32/64   the integer (1, 2, 4, 8 bytes)
//   Real32/64           the value (4, 8 bytes)
//   Complex32/64        two values
//   Logical             one byte (0 or 1)
//   Ascii               uint32_t length, then the characters
// and replayed on the host by the matching _FortranAioOutput* call. A
// statement longer than one payload is sent as several requests (all but
// the last with FlagContinued) whose payloads, joined, are that record.
enum ItemKind : uint8_t {
  ItemInteger8 = 1,
  ItemInteger16,
  ItemInteger32,
  ItemInteger64,
  ItemReal32,
  ItemReal64,
  ItemComplex32,
  ItemComplex64,
  ItemLogical,
  ItemAscii,
};

enum StatementKind : uint32_t {
  /// PRINT * / WRITE(unit, *): list-directed.
  StatementList = 1,
  /// WRITE(unit, '(format)') / PRINT '(format)'.
  StatementFormatted = 2,
};

struct FortranRecord {
  uint32_t Kind;
  int32_t Unit;
  int32_t SourceLine;
  /// Bytes of the format (formatted statements) that follow this header,
  /// before the items.
  uint32_t FormatBytes;
};

struct FortranStopPayload {
  int32_t Code;
  uint8_t IsErrorStop;
  uint8_t Quiet;
  uint8_t HasText;
  uint8_t Reserved;
  /// Bytes of the STOP message that follow.
  uint32_t TextBytes;
};

/// The streams a device may write: glibc's stdout and stderr.
enum StreamId : uint32_t { StreamStdout = 1, StreamStderr = 2 };

/// printf's request: the format, then each argument its conversions read,
/// in order (PrintfFormat.h): an int64_t for each `*` and for integers
/// and pointers, a double for floating point, and for %s a uint32_t length
/// (NullString for a null pointer) and the characters.
/// A Stream of 0 is a file the device opened: its FileRef follows this
/// header (also in PutsPayload's requests).
struct PrintfPayload {
  uint32_t Stream;
  uint32_t FormatBytes;
};
constexpr uint32_t NullString = 0xffffffffu;

/// puts' request: the text follows, to the end of the payload.
struct PutsPayload {
  uint32_t Stream;
  /// Whether a newline follows the text (puts, not fputs).
  uint32_t Newline;
};

/// A stream the device names: stdout or stderr (Stream), or a file the
/// host opened for it (Stream 0, Handle from OpFopen; 0 in OpFflush means
/// every stream).
struct FileRef {
  uint32_t Stream;
  uint32_t Reserved;
  uint64_t Handle;
};

/// fopen's request: the path and the mode follow.
struct FopenPayload {
  uint32_t PathBytes;
  uint32_t ModeBytes;
};

struct FreadPayload {
  FileRef File;
  /// At most PayloadBytes.
  uint64_t Bytes;
};

struct ExitPayload {
  int32_t Code;
  /// abort() rather than exit().
  uint32_t Abort;
};

} // namespace hostservice
} // namespace ompx

#endif // OFFLOAD_INCLUDE_HOSTSERVICEABI_H
