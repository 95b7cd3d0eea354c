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
// and each request is written to stdout or stderr with one write.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_PLUGINS_GPU_HOSTSERVICESTDIO_H
#define OFFLOAD_PLUGINS_GPU_HOSTSERVICESTDIO_H

#include "HostServiceServer.h"

#include <cstdio>
#include <string>

namespace offload {
namespace plugin {

/// Formats an OpPrintf payload into \p Out and says which stream it is
/// for. False (with \p Error) when the payload is malformed.
bool formatPrintfRequest(const unsigned char *Payload, uint32_t Bytes,
                         uint32_t &Stream, std::string &Out,
                         std::string &Error);

/// The handler of OpPrintf and OpPuts requests, writing to \p Stdout and
/// \p Stderr (the process's own unless a test says otherwise).
class StdioHostService : public HostServiceHandler {
public:
  StdioHostService(std::string Device, FILE *Stdout = nullptr,
                   FILE *Stderr = nullptr)
      : Device(std::move(Device)), Stdout(Stdout), Stderr(Stderr) {}
  uint64_t perform(const ompx::hostservice::SlotHeader &Header,
                   unsigned char *Payload) override;

private:
  FILE *fileOf(uint32_t Stream) const;
  std::string Device;
  FILE *Stdout, *Stderr;
};

} // namespace plugin
} // namespace offload

#endif // OFFLOAD_PLUGINS_GPU_HOSTSERVICESTDIO_H
