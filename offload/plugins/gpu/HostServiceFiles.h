//===- HostServiceFiles.h - fopen, fread, fwrite, exit from GPUs -*- C++
//-*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Performs the file and exit requests of GPU threads
// (openmp/device/gpu/HostFiles.cpp) with the host's C library. A handle the
// device passes back must be one this service opened and has not closed:
// anything else is refused with a message, never used as a FILE *.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_PLUGINS_GPU_HOSTSERVICEFILES_H
#define OFFLOAD_PLUGINS_GPU_HOSTSERVICEFILES_H

#include "HostServiceServer.h"

#include <cstdio>
#include <mutex>
#include <set>
#include <string>

namespace offload {
namespace plugin {

class FileHostService : public HostServiceHandler {
public:
  explicit FileHostService(std::string Device) : Device(std::move(Device)) {}
  uint64_t perform(const ompx::hostservice::SlotHeader &Header,
                   unsigned char *Payload) override;
  /// Ends the program when a thread called exit or abort.
  void afterKernel() override;

  /// Whether exit or abort is waiting for its kernel to end, and with
  /// which code (-1: abort).
  bool exitPending(int &Code) const;

  /// The host's FILE for \p Ref: stdout, stderr, or a file the device
  /// opened; null, with a message naming the requester, for any other.
  FILE *fileOf(const ompx::hostservice::FileRef &Ref,
               const ompx::hostservice::SlotHeader &Header);

private:
  std::string Device;
  std::set<FILE *> Open;
  mutable std::mutex Mutex;
  bool ExitRequested = false;
  int ExitCode = 0;
};

} // namespace plugin
} // namespace offload

#endif // OFFLOAD_PLUGINS_GPU_HOSTSERVICEFILES_H
