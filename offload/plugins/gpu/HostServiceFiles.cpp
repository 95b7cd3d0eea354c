//===- HostServiceFiles.cpp - fopen, fread, fwrite, exit from GPUs --------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "HostServiceFiles.h"

#include <cstdlib>
#include <cstring>

using namespace offload::plugin;
using namespace ompx::hostservice;

namespace {

constexpr uint64_t Failed = uint64_t(int64_t(-1));

template <typename T>
bool readAt(const unsigned char *Payload, uint32_t Bytes, T &Out) {
  if (Bytes < sizeof(T))
    return false;
  std::memcpy(&Out, Payload, sizeof(T));
  return true;
}

} // namespace

FILE *FileHostService::fileOf(const FileRef &Ref, const SlotHeader &Header) {
  if (Ref.Stream == StreamStdout)
    return stdout;
  if (Ref.Stream == StreamStderr)
    return stderr;
  FILE *File = reinterpret_cast<FILE *>(uintptr_t(Ref.Handle));
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    if (Open.count(File))
      return File;
  }
  fprintf(stderr,
          "omptarget error: %s: block %u thread %u used a FILE * that is "
          "not stdout, stderr or a file it opened (0x%llx)\n",
          Device.c_str(), Header.Block, Header.Thread,
          static_cast<unsigned long long>(Ref.Handle));
  return nullptr;
}

uint64_t FileHostService::perform(const SlotHeader &Header,
                                  unsigned char *Payload) {
  uint32_t Bytes = Header.Bytes;
  switch (Header.Opcode) {
  case OpFopen: {
    FopenPayload P;
    if (!readAt(Payload, Bytes, P) ||
        uint64_t(P.PathBytes) + P.ModeBytes > Bytes - sizeof(P))
      return 0;
    const char *Text = reinterpret_cast<const char *>(Payload) + sizeof(P);
    std::string Path(Text, P.PathBytes), Mode(Text + P.PathBytes, P.ModeBytes);
    FILE *File = std::fopen(Path.c_str(), Mode.c_str());
    if (File) {
      std::lock_guard<std::mutex> Lock(Mutex);
      Open.insert(File);
    }
    return uint64_t(uintptr_t(File));
  }
  case OpFclose:
  case OpFflush: {
    FileRef Ref;
    if (!readAt(Payload, Bytes, Ref))
      return Failed;
    if (Header.Opcode == OpFflush && !Ref.Stream && !Ref.Handle)
      return std::fflush(nullptr) ? Failed : 0;
    FILE *File = fileOf(Ref, Header);
    if (!File)
      return Failed;
    if (Header.Opcode == OpFflush)
      return std::fflush(File) ? Failed : 0;
    if (!Ref.Stream) {
      std::lock_guard<std::mutex> Lock(Mutex);
      Open.erase(File);
    } else {
      // The device does not close the host's stdout or stderr.
      return std::fflush(File) ? Failed : 0;
    }
    return std::fclose(File) ? Failed : 0;
  }
  case OpFwrite: {
    FileRef Ref;
    if (!readAt(Payload, Bytes, Ref))
      return Failed;
    FILE *File = fileOf(Ref, Header);
    if (!File)
      return Failed;
    size_t Written =
        std::fwrite(Payload + sizeof(Ref), 1, Bytes - sizeof(Ref), File);
    if (Ref.Stream)
      std::fflush(File);
    return Written;
  }
  case OpFread: {
    FreadPayload P;
    if (!readAt(Payload, Bytes, P) || P.Bytes > PayloadBytes)
      return Failed;
    FILE *File = fileOf(P.File, Header);
    if (!File)
      return Failed;
    return std::fread(Payload, 1, size_t(P.Bytes), File);
  }
  case OpExit: {
    ExitPayload P;
    if (!readAt(Payload, Bytes, P))
      return Failed;
    std::lock_guard<std::mutex> Lock(Mutex);
    // The first exit wins, as when host threads race to exit.
    if (!ExitRequested) {
      ExitRequested = true;
      ExitCode = P.Abort ? -1 : P.Code;
    }
    return 0;
  }
  default:
    return Failed;
  }
}

bool FileHostService::exitPending(int &Code) const {
  std::lock_guard<std::mutex> Lock(Mutex);
  Code = ExitCode;
  return ExitRequested;
}

void FileHostService::afterKernel() {
  int Code;
  if (!exitPending(Code))
    return;
  if (Code == -1)
    std::abort();
  std::exit(Code);
}
