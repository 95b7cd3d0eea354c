//===- HostStdio.cpp - printf, fprintf and puts through the host ----------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// C's output to stdout and stderr from target regions, as host-service
// requests: one request per call, so a call's output is never split by
// another thread's, formatted on the host by the host's printf from the
// recorded format and arguments (offload/plugins/gpu/HostServiceStdio.cpp).
// Each call waits for the host's answer (its return value).
//
// clang-22 turns printf in NVPTX code into the driver's vprintf itself, so
// printf is defined here for AMD GPUs only; fprintf, vfprintf, puts, fputs,
// fputc, putc and putchar serve both (upstream gets them from LLVM's GPU libc).
// They write stdout, stderr and the files fopen opened (HostFiles.cpp has
// fopen and friends): for a file, the request's stream is 0 and the file's
// FileRef follows its header.
//
//===----------------------------------------------------------------------===//

#include "HostService.h"
#include "PrintfFormat.h"

#include <stdarg.h>

using namespace ompx::hostservice;
using namespace ompx::printf_format;

namespace {

/// What the host program's stdout and stderr point at in device code:
/// only their addresses matter.
char StdoutTag, StderrTag;

uint32_t length(const char *S) {
  uint32_t N = 0;
  while (S[N])
    ++N;
  return N;
}

const FileRef StdoutRef = {StreamStdout, 0, 0};

template <typename T> void appendValue(Request &R, T Value) {
  append(R, &Value, sizeof(Value));
}

/// Records the arguments \p Format's conversions read from \p Args.
void appendArguments(Request &R, const char *Format, uint32_t Length,
                     va_list Args) {
  size_t Pos = 0;
  Conversion C;
  while (nextConversion(Format, Length, Pos, C)) {
    for (uint32_t I = 0; I < C.Stars; ++I)
      appendValue(R, int64_t(va_arg(Args, int)));
    switch (C.Kind) {
    case ArgInt:
      appendValue(R, int64_t(va_arg(Args, int)));
      break;
    case ArgLong:
      appendValue(R, int64_t(va_arg(Args, long long)));
      break;
    case ArgDouble:
      appendValue(R, va_arg(Args, double));
      break;
    case ArgPointer:
      appendValue(R, int64_t(uintptr_t(va_arg(Args, void *))));
      break;
    case ArgString: {
      const char *S = va_arg(Args, const char *);
      uint32_t N = S ? length(S) : NullString;
      appendValue(R, N);
      if (S)
        append(R, S, N);
      break;
    }
    case ArgCount:
      (void)va_arg(Args, void *);
      break;
    case ArgNone:
      break;
    }
  }
}

/// The FileRef of \p File after a request's header, when it is a file.
void appendFile(Request &R, const FileRef &File) {
  if (!File.Stream)
    appendValue(R, File);
}

int formatTo(const FileRef &File, const char *Format, va_list Args) {
  if (!Format)
    return -1;
  uint32_t Length = length(Format);
  Request R = claim(OpPrintf);
  appendValue(R, PrintfPayload{File.Stream, Length});
  appendFile(R, File);
  append(R, Format, Length);
  appendArguments(R, Format, Length, Args);
  return int(int64_t(call(R)));
}

int writeText(const FileRef &File, const char *Text, bool Newline) {
  if (!Text)
    return -1;
  Request R = claim(OpPuts);
  appendValue(R, PutsPayload{File.Stream, Newline});
  appendFile(R, File);
  append(R, Text, length(Text));
  return int(int64_t(call(R)));
}

} // namespace

extern "C" {

void *stdout = &StdoutTag;
void *stderr = &StderrTag;

#if defined(__AMDGPU__)
int printf(const char *Format, ...) {
  va_list Args;
  va_start(Args, Format);
  int Result = formatTo(StdoutRef, Format, Args);
  va_end(Args);
  return Result;
}
int vprintf(const char *Format, va_list Args) {
  return formatTo(StdoutRef, Format, Args);
}
#endif

int fprintf(void *File, const char *Format, ...) {
  if (!File)
    return -1;
  va_list Args;
  va_start(Args, Format);
  int Result = formatTo(fileRefOf(File), Format, Args);
  va_end(Args);
  return Result;
}
int vfprintf(void *File, const char *Format, va_list Args) {
  return File ? formatTo(fileRefOf(File), Format, Args) : -1;
}
int puts(const char *Text) { return writeText(StdoutRef, Text, true); }
int fputs(const char *Text, void *File) {
  return File ? writeText(fileRefOf(File), Text, false) : -1;
}
// The optimizer turns some printf and fprintf calls into these.
int fputc(int C, void *File) {
  char Text[2] = {char(C), 0};
  return fputs(Text, File) < 0 ? -1 : (unsigned char)C;
}
int putc(int C, void *File) { return fputc(C, File); }
int putchar(int C) {
  char Text[2] = {char(C), 0};
  return writeText(StdoutRef, Text, false) < 0 ? -1 : (unsigned char)C;
}

} // extern "C"

FileRef ompx::hostservice::fileRefOf(const void *File) {
  // A file fopen opened is the host's handle for it.
  FileRef Ref = {0, 0, uint64_t(uintptr_t(File))};
  if (File == stdout || File == stderr)
    Ref = {File == stdout ? StreamStdout : StreamStderr, 0, 0};
  return Ref;
}
