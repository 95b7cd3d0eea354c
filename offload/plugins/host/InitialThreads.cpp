//===- InitialThreads.cpp - Device initial threads of the CPU device ------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "InitialThreads.h"

#include <dlfcn.h>

#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace offload {
namespace host {

namespace {

/// One parked thread waiting for a kernel to run.
struct InitialThread {
  std::mutex Lock;
  std::condition_variable Wake;
  const std::function<void()> *Body = nullptr;
  bool Finished = false;

  void loop() {
    std::unique_lock<std::mutex> Guard(Lock);
    for (;;) {
      Wake.wait(Guard, [&] { return Body != nullptr; });
      const std::function<void()> *Job = Body;
      Guard.unlock();
      (*Job)();
      Guard.lock();
      Body = nullptr;
      Finished = true;
      Wake.notify_all();
    }
  }
};

/// Idle threads; never destroyed (they outlive static destructors, and a
/// parked thread costs only its stack).
struct Pool {
  std::mutex Lock;
  std::vector<InitialThread *> Idle;
};

Pool &pool() {
  static Pool *Instance = new Pool();
  return *Instance;
}

} // namespace

bool insideHostParallelRegion() {
  using LevelFn = int (*)();
  // libomp is in the process whenever an OpenMP program runs; looked up
  // once, not linked, so the plugin does not pin one libomp.
  static LevelFn Level =
      reinterpret_cast<LevelFn>(dlsym(RTLD_DEFAULT, "omp_get_level"));
  return Level && Level() > 0;
}

void runOnInitialThread(const std::function<void()> &Body) {
  InitialThread *Thread = nullptr;
  {
    Pool &P = pool();
    std::lock_guard<std::mutex> Guard(P.Lock);
    if (!P.Idle.empty()) {
      Thread = P.Idle.back();
      P.Idle.pop_back();
    }
  }
  if (!Thread) {
    Thread = new InitialThread();
    std::thread([Thread] { Thread->loop(); }).detach();
  }
  {
    std::unique_lock<std::mutex> Guard(Thread->Lock);
    Thread->Finished = false;
    Thread->Body = &Body;
    Thread->Wake.notify_all();
    Thread->Wake.wait(Guard, [&] { return Thread->Finished; });
  }
  Pool &P = pool();
  std::lock_guard<std::mutex> Guard(P.Lock);
  P.Idle.push_back(Thread);
}

} // namespace host
} // namespace offload
