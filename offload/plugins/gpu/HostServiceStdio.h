//===- HostServiceStdio.h - printf and puts from GPUs -----------*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Performs the printf and puts requests of GPU threads
// (openmp/device/gpu/HostStdio.cpp): the format is formatted again by the
// host's printf, one conversion at a time, from the recorded arguments,
// and each request is written to stdout, stderr or a file the device
// opened (resolved by the file service) with one write.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_PLUGINS_GPU_HOSTSERVICESTDIO_H
#define OFFLOAD_PLUGINS_GPU_HOSTSERVICESTDIO_H

#include "HostServiceServer.h"

#include <cstdio>
#include <functional>
#include <string>

namespace offload {
namespace plugin {

/// Formats an OpPrintf payload into \p Out and says which stream it is
/// for; for a file (stream 0) the FileRef that follows the header goes to
/// \p File. False (with \p Error) when the payload is malformed.
bool formatPrintfRequest(const unsigned char *Payload, uint32_t Bytes,
                         uint32_t &Stream, std::string &Out, std::string &Error,
                         ompx::hostservice::FileRef *File = nullptr);

/// The handler of OpPrintf and OpPuts requests, writing to \p Stdout and
/// \p Stderr (the process's own unless a test says otherwise).
class StdioHostService : public HostServiceHandler {
public:
  StdioHostService(std::string Device, FILE *Stdout = nullptr,
                   FILE *Stderr = nullptr)
      : Device(std::move(Device)), Stdout(Stdout), Stderr(Stderr) {}
  uint64_t perform(const ompx::hostservice::SlotHeader &Header,
                   unsigned char *Payload) override;

  /// The host's FILE for a device's file, or null (the resolver says why).
  using FileResolver =
      std::function<FILE *(const ompx::hostservice::FileRef &,
                           const ompx::hostservice::SlotHeader &)>;
  /// Output for files goes where \p Resolve says; without a resolver it is
  /// refused.
  void resolveFilesWith(FileResolver Resolve) {
    ResolveFile = std::move(Resolve);
  }

private:
  FILE *fileOf(uint32_t Stream) const;
  bool readRequest(const ompx::hostservice::SlotHeader &Header,
                   const unsigned char *Payload, std::string &Text,
                   ompx::hostservice::FileRef &File, std::string &Error);
  std::string Device;
  FILE *Stdout, *Stderr;
  FileResolver ResolveFile;
};

} // namespace plugin
} // namespace offload

#endif // OFFLOAD_PLUGINS_GPU_HOSTSERVICESTDIO_H
