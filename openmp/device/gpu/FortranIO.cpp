//===- FortranIO.cpp - Fortran PRINT, WRITE and STOP in GPU regions -------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Flang lowers an output statement to calls of its runtime
// (_FortranAioBegin*, one _FortranAioOutput* per item,
// _FortranAioEndIoStatement) and STOP to _FortranAStopStatement{,Text}. On a
// GPU these record the statement in one host-service slot (the cookie is the
// slot), which the plugin replays through Flang's own runtime on the host: the
// formatting is Flang's, and one statement's output is never split by another
// thread's. Array items arrive as descriptors and are recorded element by
// element.
//
// What does not fit in the slot goes to a buffer on the device heap, whose
// address the slot's Result field keeps while the thread holds the slot.
// At the end of the statement the slot goes out flagged FlagContinued and
// the buffer follows in as many requests as it takes; the host joins them
// (by SlotHeader::Statement) and replays the whole statement. The extra
// slots are claimed only at the end, after the statement's own slot was
// submitted: a thread never waits for a slot while it holds one, which on
// a GPU could wait for a lane of its own wavefront that cannot run.
//
// Names and signatures are those of flang-22's flang/Runtime/io-api.h and
// stop.h.
//
//===----------------------------------------------------------------------===//

#include "GPUPrimitives.h"
#include "HostService.h"

using namespace ompx;
using namespace ompx::hostservice;

namespace {

/// The start of Flang's array descriptor (ISO_Fortran_binding.h's CFI_cdesc_t
/// as flang-22 lays it out), followed by one Dimension per rank.
struct Descriptor {
  char *BaseAddr;
  size_t ElemLen;
  int32_t Version;
  uint8_t Rank;
  int8_t Type;
  uint8_t Attribute;
  uint8_t Extra;
  struct Dimension {
    int64_t LowerBound;
    int64_t Extent;
    int64_t ByteStride;
  } Dims[1];
};

// ISO_Fortran_binding.h's type codes as Flang assigns them to intrinsic
// types.
enum TypeCode : int8_t {
  TypeInt8 = 7,
  TypeInt16 = 8,
  TypeInt32 = 9,
  TypeInt64 = 10,
  TypeLogical2 = 13,
  TypeLogical4 = 14,
  TypeLogical8 = 15,
  TypeFloat = 27,
  TypeDouble = 28,
  TypeFloatComplex = 34,
  TypeDoubleComplex = 35,
  TypeLogical1 = 39,
  TypeChar = 40,
};

Request requestOf(void *Cookie) {
  Request R;
  R.Claimed = static_cast<Slot *>(Cookie);
  if (R.Claimed)
    R.Ticket = R.Claimed->Header.Sequence;
  return R;
}

/// The part of a statement beyond its slot, on the device heap.
struct Overflow {
  uint32_t Bytes;
  uint32_t Capacity;
  unsigned char Data[1];
};

Overflow *overflowOf(const SlotHeader &H) {
  return reinterpret_cast<Overflow *>(uintptr_t(H.Result));
}

/// Appends \p Bytes to the overflow buffer of the statement in \p H,
/// growing it; false when the heap has no room.
bool appendOverflow(SlotHeader &H, const unsigned char *Data, uint32_t Bytes) {
  Overflow *Buffer = overflowOf(H);
  uint32_t Used = Buffer ? Buffer->Bytes : 0;
  uint64_t Capacity = Buffer ? Buffer->Capacity : 0;
  if (Bytes > Capacity - Used) {
    uint64_t Grown = Capacity ? Capacity : PayloadBytes;
    while (Grown - Used < Bytes)
      Grown *= 2;
    if (Grown > UINT32_MAX)
      return false;
    auto *Larger = static_cast<Overflow *>(
        gpu::allocate(sizeof(Overflow) + size_t(Grown)));
    if (!Larger)
      return false;
    Larger->Bytes = Used;
    Larger->Capacity = uint32_t(Grown);
    if (Buffer) {
      __builtin_memcpy(Larger->Data, Buffer->Data, Used);
      gpu::deallocate(Buffer);
    }
    Buffer = Larger;
    H.Result = uintptr_t(Buffer);
  }
  __builtin_memcpy(Buffer->Data + Used, Data, Bytes);
  Buffer->Bytes = Used + Bytes;
  return true;
}

/// Appends \p Bytes to the statement \p Cookie: to its slot while they
/// fit, then to its overflow buffer.
void put(void *Cookie, const void *Data, uint32_t Bytes) {
  Request R = requestOf(Cookie);
  if (!R.Claimed)
    return;
  SlotHeader &H = R.Claimed->Header;
  if (H.Flags & FlagTruncated)
    return;
  const auto *Next = static_cast<const unsigned char *>(Data);
  if (!overflowOf(H)) {
    uint32_t Room = PayloadBytes - H.Bytes;
    uint32_t InSlot = Bytes < Room ? Bytes : Room;
    append(R, Next, InSlot);
    Next += InSlot;
    Bytes -= InSlot;
  }
  if (Bytes && !appendOverflow(H, Next, Bytes))
    H.Flags |= FlagTruncated;
}

/// Sends the overflow buffer of statement \p Statement after its first
/// request, the last piece without FlagContinued.
void sendOverflow(const Overflow &Buffer, uint32_t Statement) {
  for (uint32_t Done = 0; Done < Buffer.Bytes;) {
    uint32_t Left = Buffer.Bytes - Done;
    uint32_t Piece = Left < PayloadBytes ? Left : PayloadBytes;
    Request R = claim(OpFortranStatement);
    if (!R.Claimed)
      return;
    R.Claimed->Header.Statement = Statement;
    append(R, Buffer.Data + Done, Piece);
    Done += Piece;
    if (Done < Buffer.Bytes)
      R.Claimed->Header.Flags |= FlagContinued;
    submit(R);
  }
}

void *begin(uint32_t Kind, int32_t Unit, int32_t Line, const char *Format,
            uint32_t FormatBytes) {
  Request R = claim(OpFortranStatement);
  if (!R.Claimed)
    return nullptr;
  R.Claimed->Header.Statement = uint32_t(R.Ticket);
  FortranRecord Record = {Kind, Unit, Line, FormatBytes};
  put(R.Claimed, &Record, sizeof(Record));
  put(R.Claimed, Format, FormatBytes);
  return R.Claimed;
}

bool item(void *Cookie, ItemKind Kind, const void *Value, uint32_t Bytes) {
  uint8_t Tag = Kind;
  put(Cookie, &Tag, 1);
  put(Cookie, Value, Bytes);
  return true;
}

bool ascii(void *Cookie, const char *Text, size_t Length) {
  uint32_t Bytes = uint32_t(Length);
  uint8_t Tag = ItemAscii;
  put(Cookie, &Tag, 1);
  put(Cookie, &Bytes, sizeof(Bytes));
  put(Cookie, Text, Bytes);
  return true;
}

/// Records the element at \p Element of an array of type \p Type.
void element(void *Cookie, int8_t Type, size_t ElemLen, const char *Element) {
  switch (Type) {
  case TypeInt8:
    item(Cookie, ItemInteger8, Element, 1);
    return;
  case TypeInt16:
    item(Cookie, ItemInteger16, Element, 2);
    return;
  case TypeInt32:
    item(Cookie, ItemInteger32, Element, 4);
    return;
  case TypeInt64:
    item(Cookie, ItemInteger64, Element, 8);
    return;
  case TypeFloat:
    item(Cookie, ItemReal32, Element, 4);
    return;
  case TypeDouble:
    item(Cookie, ItemReal64, Element, 8);
    return;
  case TypeFloatComplex:
    item(Cookie, ItemComplex32, Element, 8);
    return;
  case TypeDoubleComplex:
    item(Cookie, ItemComplex64, Element, 16);
    return;
  case TypeLogical1:
  case TypeLogical2:
  case TypeLogical4:
  case TypeLogical8: {
    uint8_t Value = 0;
    for (size_t I = 0; I < ElemLen; ++I)
      Value |= Element[I] != 0;
    item(Cookie, ItemLogical, &Value, 1);
    return;
  }
  case TypeChar:
    ascii(Cookie, Element, ElemLen);
    return;
  default: {
    // Derived types, kinds the host replay has no call for: the host
    // reports the statement as incomplete.
    Request R = requestOf(Cookie);
    if (R.Claimed)
      R.Claimed->Header.Flags |= FlagUnsupported;
    return;
  }
  }
}

} // namespace

extern "C" {

void *_FortranAioBeginExternalListOutput(int32_t Unit, const char *,
                                         int32_t Line) {
  return begin(StatementList, Unit, Line, nullptr, 0);
}

void *_FortranAioBeginExternalFormattedOutput(const char *Format, size_t Length,
                                              const void *, int32_t Unit,
                                              const char *, int32_t Line) {
  return begin(StatementFormatted, Unit, Line, Format, uint32_t(Length));
}

bool _FortranAioOutputInteger8(void *Cookie, int8_t V) {
  return item(Cookie, ItemInteger8, &V, sizeof(V));
}
bool _FortranAioOutputInteger16(void *Cookie, int16_t V) {
  return item(Cookie, ItemInteger16, &V, sizeof(V));
}
bool _FortranAioOutputInteger32(void *Cookie, int32_t V) {
  return item(Cookie, ItemInteger32, &V, sizeof(V));
}
bool _FortranAioOutputInteger64(void *Cookie, int64_t V) {
  return item(Cookie, ItemInteger64, &V, sizeof(V));
}
bool _FortranAioOutputReal32(void *Cookie, float V) {
  return item(Cookie, ItemReal32, &V, sizeof(V));
}
bool _FortranAioOutputReal64(void *Cookie, double V) {
  return item(Cookie, ItemReal64, &V, sizeof(V));
}
bool _FortranAioOutputComplex32(void *Cookie, float Re, float Im) {
  float V[2] = {Re, Im};
  return item(Cookie, ItemComplex32, V, sizeof(V));
}
bool _FortranAioOutputComplex64(void *Cookie, double Re, double Im) {
  double V[2] = {Re, Im};
  return item(Cookie, ItemComplex64, V, sizeof(V));
}
bool _FortranAioOutputLogical(void *Cookie, bool V) {
  uint8_t Value = V;
  return item(Cookie, ItemLogical, &Value, 1);
}
bool _FortranAioOutputAscii(void *Cookie, const char *Text, size_t Length) {
  return ascii(Cookie, Text, Length);
}

/// Every element of the array (or scalar) \p Desc, in array element order.
bool _FortranAioOutputDescriptor(void *Cookie, const Descriptor &Desc) {
  uint32_t Rank = Desc.Rank;
  int64_t Index[15] = {};
  if (Rank > 15)
    return false;
  for (uint32_t D = 0; D < Rank; ++D)
    if (Desc.Dims[D].Extent <= 0)
      return true;
  for (;;) {
    const char *Element = Desc.BaseAddr;
    for (uint32_t D = 0; D < Rank; ++D)
      Element += Index[D] * Desc.Dims[D].ByteStride;
    element(Cookie, Desc.Type, Desc.ElemLen, Element);
    uint32_t D = 0;
    while (D < Rank && ++Index[D] == Desc.Dims[D].Extent)
      Index[D++] = 0;
    if (D == Rank)
      return true;
  }
}

int32_t _FortranAioEndIoStatement(void *Cookie) {
  Request R = requestOf(Cookie);
  if (!R.Claimed)
    return 0;
  SlotHeader &H = R.Claimed->Header;
  Overflow *Buffer = overflowOf(H);
  uint32_t Statement = H.Statement;
  if (Buffer) {
    H.Result = 0;
    H.Flags |= FlagContinued;
  }
  submit(R);
  if (Buffer) {
    sendOverflow(*Buffer, Statement);
    gpu::deallocate(Buffer);
  }
  return 0;
}

/// STOP and ERROR STOP: the host ends the program once the kernel has
/// stopped; the trap stops this kernel now.
[[noreturn]] void _FortranAStopStatement(int32_t Code, bool IsErrorStop,
                                         bool Quiet) {
  Request R = claim(OpFortranStop);
  FortranStopPayload Stop = {Code, IsErrorStop, Quiet, 0, 0, 0};
  append(R, &Stop, sizeof(Stop));
  submit(R);
  __builtin_trap();
}

[[noreturn]] void _FortranAStopStatementText(const char *Text, size_t Length,
                                             bool IsErrorStop, bool Quiet) {
  Request R = claim(OpFortranStop);
  FortranStopPayload Stop = {IsErrorStop ? 1 : 0, IsErrorStop, Quiet, 1, 0,
                             uint32_t(Length)};
  append(R, &Stop, sizeof(Stop));
  append(R, Text, uint32_t(Length));
  submit(R);
  __builtin_trap();
}

} // extern "C"
