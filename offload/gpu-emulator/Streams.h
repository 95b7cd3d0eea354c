//===- Streams.h - Asynchronous streams of the emulated device --*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A stream is a host thread running its queued operations in order, so
// copies and launches return before they are done, as on a GPU. The first
// failure is sticky: later operations are skipped and every later query or
// synchronisation reports it (a faulting kernel ruins a CUDA context too).
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_GPU_EMULATOR_STREAMS_H
#define OFFLOAD_GPU_EMULATOR_STREAMS_H

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

namespace gpuemu {

class Stream {
public:
  Stream();
  ~Stream();
  Stream(const Stream &) = delete;
  Stream &operator=(const Stream &) = delete;

  /// Queues \p Operation, which returns a CUDA error code.
  void enqueue(std::function<int()> Operation);
  /// Waits until every queued operation has run; the sticky error or 0.
  int synchronize();
  /// 0 when idle, CUDA_ERROR_NOT_READY (600) when busy, else the error.
  int query();

private:
  void run();

  std::mutex Lock;
  std::condition_variable Changed;
  std::deque<std::function<int()>> Queue;
  bool Busy = false, Stopping = false;
  int Error = 0;
  std::thread Worker;
};

} // namespace gpuemu

#endif // OFFLOAD_GPU_EMULATOR_STREAMS_H
