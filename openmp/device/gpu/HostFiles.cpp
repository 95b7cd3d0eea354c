//===- HostFiles.cpp - fopen, fread, fwrite, exit from GPU threads --------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// C's files in target regions, performed by the host (host-service
// requests, offload/plugins/gpu/HostServiceFiles.cpp): fopen returns the
// host's handle, which the device only passes back. Reads and writes
// larger than one request's payload take several requests. exit and abort
// end the program once the kernel has stopped: the request, then a trap.
//
//===----------------------------------------------------------------------===//

#include "HostService.h"

using namespace ompx::hostservice;

namespace {

uint32_t length(const char *S) {
  uint32_t N = 0;
  while (S[N])
    ++N;
  return N;
}

template <typename T> void appendValue(Request &R, T Value) {
  append(R, &Value, sizeof(Value));
}

/// One request about \p File that carries nothing else.
int64_t fileRequest(uint32_t Op, void *File) {
  Request R = claim(Op);
  appendValue(R, fileRefOf(File));
  return int64_t(call(R));
}

[[noreturn]] void endProgram(int32_t Code, bool Abort) {
  Request R = claim(OpExit);
  appendValue(R, ExitPayload{Code, Abort});
  submit(R);
  __builtin_trap();
}

} // namespace

extern "C" {

void *fopen(const char *Path, const char *Mode) {
  if (!Path || !Mode)
    return nullptr;
  uint32_t PathBytes = length(Path), ModeBytes = length(Mode);
  Request R = claim(OpFopen);
  appendValue(R, FopenPayload{PathBytes, ModeBytes});
  append(R, Path, PathBytes);
  append(R, Mode, ModeBytes);
  return reinterpret_cast<void *>(uintptr_t(call(R)));
}

int fclose(void *File) { return int(fileRequest(OpFclose, File)); }
int fflush(void *File) { return int(fileRequest(OpFflush, File)); }

size_t fwrite(const void *Data, size_t Size, size_t Count, void *File) {
  size_t Total = Size * Count, Done = 0;
  const char *Bytes = static_cast<const char *>(Data);
  while (Done < Total) {
    uint32_t Chunk = uint32_t(Total - Done < PayloadBytes - sizeof(FileRef)
                                  ? Total - Done
                                  : PayloadBytes - sizeof(FileRef));
    Request R = claim(OpFwrite);
    appendValue(R, fileRefOf(File));
    append(R, Bytes + Done, Chunk);
    int64_t Written = int64_t(call(R));
    if (Written <= 0)
      break;
    Done += size_t(Written);
    if (uint64_t(Written) < Chunk)
      break;
  }
  return Size ? Done / Size : 0;
}

size_t fread(void *Data, size_t Size, size_t Count, void *File) {
  size_t Total = Size * Count, Done = 0;
  char *Bytes = static_cast<char *>(Data);
  while (Done < Total) {
    uint32_t Chunk =
        uint32_t(Total - Done < PayloadBytes ? Total - Done : PayloadBytes);
    Request R = claim(OpFread);
    appendValue(R, FreadPayload{fileRefOf(File), Chunk});
    int64_t Read = int64_t(call(R, Bytes + Done, Chunk));
    if (Read <= 0)
      break;
    Done += size_t(Read);
    if (uint64_t(Read) < Chunk)
      break;
  }
  return Size ? Done / Size : 0;
}

[[noreturn]] void exit(int Code) { endProgram(Code, false); }
[[noreturn]] void abort() { endProgram(134, true); }

} // extern "C"
