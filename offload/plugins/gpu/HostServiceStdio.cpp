//===- HostServiceStdio.cpp - printf and puts from GPUs -------------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "HostServiceStdio.h"
#include "PrintfFormat.h"

#include <cstring>

using namespace offload::plugin;
using namespace ompx::hostservice;
using namespace ompx::printf_format;

namespace {

/// Reads recorded arguments, checking every length.
class ArgumentReader {
public:
  ArgumentReader(const unsigned char *Data, const unsigned char *End)
      : Data(Data), End(End) {}
  template <typename T> bool read(T &Value) {
    if (size_t(End - Data) < sizeof(T))
      return false;
    std::memcpy(&Value, Data, sizeof(T));
    Data += sizeof(T);
    return true;
  }
  bool text(uint32_t Count, std::string &Out) {
    if (size_t(End - Data) < Count)
      return false;
    Out.assign(reinterpret_cast<const char *>(Data), Count);
    Data += Count;
    return true;
  }

private:
  const unsigned char *Data;
  const unsigned char *End;
};

/// \p Spec without its length modifiers, then \p Modifier, then the
/// specifier: the device's argument sizes are not the host's.
std::string withModifier(const std::string &Spec, const char *Modifier) {
  std::string Out = Spec.substr(0, Spec.size() - 1);
  while (!Out.empty() && std::strchr("hlLjztq", Out.back()))
    Out.pop_back();
  return Out + Modifier + Spec.back();
}

template <typename... Ts>
void appendFormatted(std::string &Out, const std::string &Spec, Ts... Args) {
  int N = std::snprintf(nullptr, 0, Spec.c_str(), Args...);
  if (N <= 0)
    return;
  size_t At = Out.size();
  Out.resize(At + size_t(N) + 1);
  std::snprintf(&Out[At], size_t(N) + 1, Spec.c_str(), Args...);
  Out.resize(At + size_t(N));
}

/// Formats conversion \p C (its text \p Spec) with its recorded arguments.
bool formatConversion(const Conversion &C, std::string Spec, ArgumentReader &In,
                      std::string &Out) {
  // Each `*` becomes the width or precision the device passed.
  for (uint32_t I = 0; I < C.Stars; ++I) {
    int64_t Value;
    if (!In.read(Value))
      return false;
    size_t Star = Spec.find('*');
    Spec.replace(Star, 1, std::to_string(int(Value)));
  }
  int64_t Integer;
  double Real;
  switch (C.Kind) {
  case ArgNone:
    Out += C.Specifier == '%' ? "%" : Spec;
    return true;
  case ArgCount:
    return true;
  case ArgInt:
    if (!In.read(Integer))
      return false;
    appendFormatted(Out, Spec, int(Integer));
    return true;
  case ArgLong:
    if (!In.read(Integer))
      return false;
    appendFormatted(Out, withModifier(Spec, "ll"), (long long)Integer);
    return true;
  case ArgPointer:
    if (!In.read(Integer))
      return false;
    appendFormatted(Out, Spec, reinterpret_cast<void *>(uintptr_t(Integer)));
    return true;
  case ArgDouble:
    if (!In.read(Real))
      return false;
    appendFormatted(Out, withModifier(Spec, ""), Real);
    return true;
  case ArgString: {
    uint32_t Length;
    std::string Text;
    if (!In.read(Length))
      return false;
    if (Length == NullString) {
      appendFormatted(Out, Spec, static_cast<const char *>(nullptr));
      return true;
    }
    if (!In.text(Length, Text))
      return false;
    appendFormatted(Out, Spec, Text.c_str());
    return true;
  }
  }
  return false;
}

} // namespace

bool offload::plugin::formatPrintfRequest(const unsigned char *Payload,
                                          uint32_t Bytes, uint32_t &Stream,
                                          std::string &Out, std::string &Error,
                                          FileRef *File) {
  ArgumentReader In(Payload, Payload + Bytes);
  PrintfPayload Header;
  FileRef Target = {};
  std::string Format;
  if (!In.read(Header) || (!Header.Stream && !In.read(Target)) ||
      !In.text(Header.FormatBytes, Format)) {
    Error = "a malformed printf request";
    return false;
  }
  Stream = Target.Stream = Header.Stream;
  if (File)
    *File = Target;
  size_t Pos = 0, Done = 0;
  Conversion C;
  while (nextConversion(Format.data(), Format.size(), Pos, C)) {
    Out.append(Format, Done, C.Start - Done);
    Done = C.End;
    if (!formatConversion(C, Format.substr(C.Start, C.End - C.Start), In,
                          Out)) {
      Error = "printf arguments missing for \"" + Format + "\"";
      return false;
    }
  }
  Out.append(Format, Done, std::string::npos);
  return true;
}

FILE *StdioHostService::fileOf(uint32_t Stream) const {
  if (Stream == StreamStdout)
    return Stdout ? Stdout : stdout;
  if (Stream == StreamStderr)
    return Stderr ? Stderr : stderr;
  return nullptr;
}

/// The text of a printf or puts request, and the file it is for.
bool StdioHostService::readRequest(const SlotHeader &Header,
                                   const unsigned char *Payload,
                                   std::string &Text, FileRef &File,
                                   std::string &Error) {
  uint32_t Stream;
  if (Header.Opcode == OpPrintf)
    return formatPrintfRequest(Payload, Header.Bytes, Stream, Text, Error,
                               &File);
  PutsPayload Puts;
  uint32_t Offset = sizeof(Puts);
  if (Header.Bytes >= sizeof(Puts))
    std::memcpy(&Puts, Payload, sizeof(Puts));
  if (Header.Bytes < sizeof(Puts) ||
      (!Puts.Stream && Header.Bytes < sizeof(Puts) + sizeof(FileRef))) {
    Error = "a malformed puts request";
    return false;
  }
  File = FileRef{Puts.Stream, 0, 0};
  if (!Puts.Stream) {
    std::memcpy(&File, Payload + Offset, sizeof(File));
    Offset += sizeof(File);
  }
  Text.assign(reinterpret_cast<const char *>(Payload) + Offset,
              Header.Bytes - Offset);
  if (Puts.Newline)
    Text += '\n';
  return true;
}

uint64_t StdioHostService::perform(const SlotHeader &Header,
                                   unsigned char *Payload) {
  std::string Text, Error;
  FileRef Target = {};
  bool WellFormed = readRequest(Header, Payload, Text, Target, Error);
  if (Header.Flags & FlagTruncated)
    Error = "more output than fits in one request (" +
            std::to_string(PayloadBytes) +
            " bytes with its format and arguments; the rest is left out)";
  FILE *File = nullptr;
  if (WellFormed && Target.Stream)
    File = fileOf(Target.Stream);
  else if (WellFormed && ResolveFile)
    // The resolver names a handle the device did not open itself.
    File = ResolveFile(Target, Header);
  if (!Error.empty() || (WellFormed && Target.Stream && !File) ||
      (WellFormed && !Target.Stream && !ResolveFile))
    fprintf(stderr, "omptarget error: %s: block %u thread %u sent %s\n",
            Device.c_str(), Header.Block, Header.Thread,
            Error.empty() ? "output for a stream other than stdout, stderr "
                            "and the files it opened"
                          : Error.c_str());
  if (!File)
    return uint64_t(int64_t(-1));
  // One write per request: another thread's output never lands inside it.
  size_t Written = fwrite(Text.data(), 1, Text.size(), File);
  if (Target.Stream)
    fflush(File);
  if (Written != Text.size())
    return uint64_t(int64_t(-1));
  return Header.Opcode == OpPuts ? 0 : uint64_t(Text.size());
}
