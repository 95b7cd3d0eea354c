//===- Streams.cpp - Asynchronous streams of the emulated device ----------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Streams.h"

namespace gpuemu {

Stream::Stream() : Worker([this] { run(); }) {}

Stream::~Stream() {
  {
    std::lock_guard<std::mutex> Guard(Lock);
    Stopping = true;
  }
  Changed.notify_all();
  Worker.join();
}

void Stream::enqueue(std::function<int()> Operation) {
  {
    std::lock_guard<std::mutex> Guard(Lock);
    Queue.push_back(std::move(Operation));
  }
  Changed.notify_all();
}

int Stream::synchronize() {
  std::unique_lock<std::mutex> Guard(Lock);
  Changed.wait(Guard, [&] { return Queue.empty() && !Busy; });
  return Error;
}

int Stream::query() {
  std::lock_guard<std::mutex> Guard(Lock);
  if (Error)
    return Error;
  return Queue.empty() && !Busy ? 0 : 600;
}

void Stream::run() {
  std::unique_lock<std::mutex> Guard(Lock);
  for (;;) {
    Changed.wait(Guard, [&] { return Stopping || !Queue.empty(); });
    if (Queue.empty())
      return;
    std::function<int()> Operation = std::move(Queue.front());
    Queue.pop_front();
    Busy = true;
    bool Skip = Error != 0;
    Guard.unlock();
    int Result = Skip ? 0 : Operation();
    Guard.lock();
    if (Result && !Error)
      Error = Result;
    Busy = false;
    Changed.notify_all();
  }
}

} // namespace gpuemu
