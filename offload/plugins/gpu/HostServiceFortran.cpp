//===- HostServiceFortran.cpp - Fortran I/O and STOP from GPUs ------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "HostServiceFortran.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>

using namespace offload::plugin;
using namespace ompx::hostservice;

namespace {

/// The name of the copy of Flang's runtime beside the plugin.
constexpr const char *FortranIOLibrary = "libomptarget.fortran-io.so";

template <typename Fn>
bool lookUp(void *Handle, const char *Name, Fn &Out, std::string &Missing) {
  Out = reinterpret_cast<Fn>(dlsym(Handle, Name));
  if (!Out && Missing.empty())
    Missing = Name;
  return Out != nullptr;
}

/// Reads the items of a statement record, checking every length.
class ItemReader {
public:
  ItemReader(const unsigned char *Data, uint32_t Bytes)
      : Data(Data), End(Data + Bytes) {}
  bool done() const { return Data == End; }
  template <typename T> bool read(T &Value) {
    if (size_t(End - Data) < sizeof(T))
      return false;
    std::memcpy(&Value, Data, sizeof(T));
    Data += sizeof(T);
    return true;
  }
  bool bytes(uint32_t Count, const char *&Out) {
    if (size_t(End - Data) < Count)
      return false;
    Out = reinterpret_cast<const char *>(Data);
    Data += Count;
    return true;
  }

private:
  const unsigned char *Data;
  const unsigned char *End;
};

/// Replays one item; false when the record is malformed.
bool replayItem(const FortranIOTable &T, void *Cookie, ItemReader &In) {
  uint8_t Kind = 0;
  if (!In.read(Kind))
    return false;
  switch (Kind) {
#define OMPX_SCALAR_ITEM(KIND, TYPE, CALL)                                     \
  case KIND: {                                                                 \
    TYPE V;                                                                    \
    return In.read(V) && (T.CALL(Cookie, V), true);                            \
  }
    OMPX_SCALAR_ITEM(ItemInteger8, int8_t, Integer8)
    OMPX_SCALAR_ITEM(ItemInteger16, int16_t, Integer16)
    OMPX_SCALAR_ITEM(ItemInteger32, int32_t, Integer32)
    OMPX_SCALAR_ITEM(ItemInteger64, int64_t, Integer64)
    OMPX_SCALAR_ITEM(ItemReal32, float, Real32)
    OMPX_SCALAR_ITEM(ItemReal64, double, Real64)
#undef OMPX_SCALAR_ITEM
  case ItemComplex32: {
    float V[2];
    return In.read(V) && (T.Complex32(Cookie, V[0], V[1]), true);
  }
  case ItemComplex64: {
    double V[2];
    return In.read(V) && (T.Complex64(Cookie, V[0], V[1]), true);
  }
  case ItemLogical: {
    uint8_t V;
    return In.read(V) && (T.Logical(Cookie, V != 0), true);
  }
  case ItemAscii: {
    uint32_t Length;
    const char *Text;
    return In.read(Length) && In.bytes(Length, Text) &&
           (T.Ascii(Cookie, Text, Length), true);
  }
  default:
    return false;
  }
}

} // namespace

bool offload::plugin::resolveFortranIO(void *Handle, FortranIOTable &T,
                                       std::string &Missing) {
  Missing.clear();
  bool All = true;
  All &= lookUp(Handle, "_FortranAioBeginExternalListOutput", T.BeginList,
                Missing);
  All &= lookUp(Handle, "_FortranAioBeginExternalFormattedOutput",
                T.BeginFormatted, Missing);
  All &= lookUp(Handle, "_FortranAioOutputInteger8", T.Integer8, Missing);
  All &= lookUp(Handle, "_FortranAioOutputInteger16", T.Integer16, Missing);
  All &= lookUp(Handle, "_FortranAioOutputInteger32", T.Integer32, Missing);
  All &= lookUp(Handle, "_FortranAioOutputInteger64", T.Integer64, Missing);
  All &= lookUp(Handle, "_FortranAioOutputReal32", T.Real32, Missing);
  All &= lookUp(Handle, "_FortranAioOutputReal64", T.Real64, Missing);
  All &= lookUp(Handle, "_FortranAioOutputComplex32", T.Complex32, Missing);
  All &= lookUp(Handle, "_FortranAioOutputComplex64", T.Complex64, Missing);
  All &= lookUp(Handle, "_FortranAioOutputLogical", T.Logical, Missing);
  All &= lookUp(Handle, "_FortranAioOutputAscii", T.Ascii, Missing);
  All &= lookUp(Handle, "_FortranAioEndIoStatement", T.End, Missing);
  All &= lookUp(Handle, "_FortranAioBeginFlush", T.BeginFlush, Missing);
  All &= lookUp(Handle, "_FortranAStopStatement", T.Stop, Missing);
  All &= lookUp(Handle, "_FortranAStopStatementText", T.StopText, Missing);
  return All;
}

const FortranIOTable *offload::plugin::hostFortranIO(std::string &Error) {
  static FortranIOTable Table;
  static std::string Why;
  static const bool Found = [] {
    std::string Missing;
    if (resolveFortranIO(RTLD_DEFAULT, Table, Missing))
      return true;
    Dl_info Self;
    std::string Path = FortranIOLibrary;
    if (dladdr(reinterpret_cast<void *>(&hostFortranIO), &Self) &&
        Self.dli_fname) {
      std::string Plugin = Self.dli_fname;
      size_t Slash = Plugin.rfind('/');
      if (Slash != std::string::npos)
        Path = Plugin.substr(0, Slash + 1) + FortranIOLibrary;
    }
    void *Handle = dlopen(Path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!Handle) {
      const char *Reason = dlerror();
      Why = "cannot load " + Path + ": " + (Reason ? Reason : "unknown");
      return false;
    }
    if (!resolveFortranIO(Handle, Table, Missing)) {
      Why = Path + " lacks " + Missing;
      return false;
    }
    return true;
  }();
  if (!Found)
    Error = Why;
  return Found ? &Table : nullptr;
}

FortranHostService::FortranHostService(const FortranIOTable *Table,
                                       std::string Device)
    : Table(Table), Device(std::move(Device)) {}

const FortranIOTable *FortranHostService::table() {
  if (Table)
    return Table;
  std::string Error;
  Table = hostFortranIO(Error);
  if (!Table)
    fprintf(stderr,
            "omptarget error: %s: Fortran output from the device is lost: "
            "%s\n",
            Device.c_str(), Error.c_str());
  return Table;
}

uint64_t FortranHostService::perform(const SlotHeader &Header,
                                     unsigned char *Payload) {
  switch (Header.Opcode) {
  case OpFortranStatement:
    collectStatement(Header, Payload);
    return 0;
  case OpFortranStop:
    recordStop(Payload, Header.Bytes);
    return 0;
  default:
    fprintf(stderr,
            "omptarget error: %s: unknown host-service request %u from "
            "block %u thread %u\n",
            Device.c_str(), Header.Opcode, Header.Block, Header.Thread);
    return ~uint64_t(0);
  }
}

void FortranHostService::collectStatement(const SlotHeader &Header,
                                          const unsigned char *Payload) {
  bool Continued = Header.Flags & FlagContinued;
  auto It = Partial.find(Header.Statement);
  if (!Continued && It == Partial.end()) {
    replayStatement(Header, Payload);
    return;
  }
  if (It == Partial.end())
    It = Partial.emplace(Header.Statement, PartialStatement()).first;
  PartialStatement &Pieces = It->second;
  Pieces.Bytes.insert(Pieces.Bytes.end(), Payload, Payload + Header.Bytes);
  Pieces.Flags |= Header.Flags;
  if (Continued)
    return;
  SlotHeader Whole = Header;
  Whole.Flags = Pieces.Flags & ~FlagContinued;
  Whole.Bytes = uint32_t(Pieces.Bytes.size());
  replayStatement(Whole, Pieces.Bytes.data());
  Partial.erase(It);
}

void FortranHostService::replayStatement(const SlotHeader &Header,
                                         const unsigned char *Payload) {
  const FortranIOTable *T = table();
  if (!T)
    return;
  ItemReader In(Payload, Header.Bytes);
  FortranRecord Record;
  const char *Format = nullptr;
  bool HasRecord = In.read(Record);
  bool WellFormed = HasRecord && In.bytes(Record.FormatBytes, Format);
  void *Cookie = nullptr;
  if (WellFormed) {
    Cookie = Record.Kind == StatementFormatted
                 ? T->BeginFormatted(Format, Record.FormatBytes, nullptr,
                                     Record.Unit, "(device)", Record.SourceLine)
                 : T->BeginList(Record.Unit, "(device)", Record.SourceLine);
    while (WellFormed && !In.done())
      WellFormed = replayItem(*T, Cookie, In);
    T->End(Cookie);
    // The statement is out before the kernel's completion returns (the
    // plugin's copy of the runtime would otherwise hold it until exit).
    T->End(T->BeginFlush(Record.Unit, "(device)", Record.SourceLine));
  }
  // What does not fit in the first request waits in the device's heap
  // until the statement ends; a full heap cuts the statement there (so its
  // last item may be cut too: truncation comes before a malformed tail).
  static const std::string TooLong =
      "more than fits in one request (" + std::to_string(PayloadBytes) +
      " bytes for the record, its format and its items) and the device "
      "heap had no room for the rest (left out)";
  const char *Problem = Header.Flags & FlagTruncated ? TooLong.c_str()
                        : !WellFormed                ? "a malformed record"
                        : Header.Flags & FlagUnsupported
                            ? "an item of a type the device "
                              "cannot send (left out)"
                            : nullptr;
  if (Problem)
    fprintf(stderr,
            "omptarget warning: %s: a Fortran output statement at line %d "
            "of block %u thread %u had %s\n",
            Device.c_str(), HasRecord ? Record.SourceLine : 0, Header.Block,
            Header.Thread, Problem);
}

void FortranHostService::recordStop(const unsigned char *Payload,
                                    uint32_t Bytes) {
  ItemReader In(Payload, Bytes);
  FortranStopPayload Stop;
  const char *Text = nullptr;
  if (!In.read(Stop) || !In.bytes(Stop.TextBytes, Text))
    return;
  std::lock_guard<std::mutex> Lock(StopMutex);
  // The first STOP wins, as when threads race to stop on the host.
  if (StopRequested)
    return;
  StopRequested = true;
  StopCode = Stop.Code;
  StopIsError = Stop.IsErrorStop;
  StopQuiet = Stop.Quiet;
  StopHasText = Stop.HasText;
  StopText.assign(Text, Stop.TextBytes);
}

bool FortranHostService::stopPending() const {
  std::lock_guard<std::mutex> Lock(StopMutex);
  return StopRequested;
}

void FortranHostService::afterKernel() {
  if (!stopPending())
    return;
  const FortranIOTable *T = table();
  fflush(nullptr);
  if (!T)
    exit(StopIsError ? 1 : StopCode);
  // Flang's own STOP: its message, its flushing, its exit code.
  if (StopHasText)
    T->StopText(StopText.data(), StopText.size(), StopIsError, StopQuiet);
  T->Stop(StopCode, StopIsError, StopQuiet);
}
