//===- HostServiceServer.h - Host side of the host-service ring -*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Serves the requests GPU threads put in a host-service ring
// (offload/include/HostServiceABI.h). A thread polls the ring while kernels
// run, so requests that wait for an answer, or wait for a free slot, make
// progress; when a kernel completes, the waiting host thread serves what is
// left before the completion returns, so the kernel's output is out before
// the program goes on. Requests are performed in the order their slots were
// claimed, one at a time.
//
// The plugin provides the ring's memory (host memory the device can access)
// and tells the server about launches and completions.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_PLUGINS_GPU_HOSTSERVICESERVER_H
#define OFFLOAD_PLUGINS_GPU_HOSTSERVICESERVER_H

#include "HostServiceABI.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>

namespace offload {
namespace plugin {

/// Performs requests.
class HostServiceHandler {
public:
  virtual ~HostServiceHandler() = default;
  /// Performs the request in \p Header and \p Payload (Header.Bytes bytes)
  /// and returns its answer (ignored for requests that do not wait). A
  /// request may leave data for the device at the start of the payload.
  virtual uint64_t perform(const ompx::hostservice::SlotHeader &Header,
                           unsigned char *Payload) = 0;
  /// Called by the host thread that waited for a kernel, after the
  /// kernel's requests are served: what must happen in that thread (ending
  /// the program after STOP) happens here.
  virtual void afterKernel() {}
};

class HostServiceServer {
public:
  /// Serves the ring in \p Memory (ringBytes(NumSlots) bytes, which this
  /// initializes) with \p Handler. No thread runs until the first launch.
  HostServiceServer(void *Memory, uint32_t NumSlots,
                    HostServiceHandler &Handler);
  ~HostServiceServer();
  HostServiceServer(const HostServiceServer &) = delete;
  HostServiceServer &operator=(const HostServiceServer &) = delete;

  ompx::hostservice::HostServiceRing *ring() const { return Ring; }

  /// A kernel that may use the ring was queued: poll until it completes.
  void kernelQueued();
  /// \p Kernels queued kernels have ended (\p Failed: abnormally, so no
  /// thread of theirs will finish a request it claimed). Serves every
  /// remaining request, then lets the handler act in this thread.
  void kernelsCompleted(uint32_t Kernels, bool Failed);

  /// Serves submitted requests in ticket order until one is not submitted
  /// yet; with \p SkipClaimed, a slot claimed but never submitted (its
  /// thread is gone) is freed and skipped. Returns how many were served.
  uint32_t serveReady(bool SkipClaimed = false);

private:
  bool serveOne(bool SkipClaimed);
  void poll();

  ompx::hostservice::HostServiceRing *Ring;
  uint32_t NumSlots;
  HostServiceHandler &Handler;
  /// The next ticket to serve; guarded by ServeMutex.
  uint64_t Head = 0;
  std::mutex ServeMutex;

  std::mutex StateMutex;
  std::condition_variable Wake;
  uint32_t Running = 0;
  bool Stopping = false;
  std::thread Poller;
};

} // namespace plugin
} // namespace offload

#endif // OFFLOAD_PLUGINS_GPU_HOSTSERVICESERVER_H
