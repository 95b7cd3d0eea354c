//===- InitialThreads.cpp - Device initial threads of the CPU device ------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "InitialThreads.h"

#include "Guarded.h"

#include <dlfcn.h>
#include <pthread.h>
#include <semaphore.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace offload {
namespace host {

namespace {

/// sem_wait, restarted after signals.
void waitFor(sem_t &Semaphore) {
  while (sem_wait(&Semaphore) != 0 && errno == EINTR) {
  }
}

/// Makes the libomp teams of the calling thread (a new root) sleep as soon
/// as they wait, unless the user chose KMP_BLOCKTIME. libomp's workers spin
/// 200 ms after each parallel region by default; between the kernels of a
/// time-step loop that is all the time, and the spinning workers take the
/// CPUs that the launching thread (waking up when its kernel is done) and
/// the next kernel's own workers need, which on a machine with few cores
/// stalls every launch for whole scheduler slices.
void stopSpinningBetweenKernels() {
  if (getenv("KMP_BLOCKTIME"))
    return;
  using SetBlocktimeFn = void (*)(int);
  if (auto SetBlocktime = reinterpret_cast<SetBlocktimeFn>(
          dlsym(RTLD_DEFAULT, "kmp_set_blocktime")))
    SetBlocktime(0);
}

/// One parked thread waiting for a kernel to run. The launching thread
/// posts Start and waits on Done; semaphores, not a condition variable,
/// so each direction costs one wake-up and neither side has to re-acquire
/// a mutex the other still holds.
struct InitialThread {
  sem_t Start;
  sem_t Done;
  void (*Body)(void *) = nullptr;
  void *Context = nullptr;

  InitialThread() {
    sem_init(&Start, 0, 0);
    sem_init(&Done, 0, 0);
  }

  static void *main(void *Self) {
    auto *Thread = static_cast<InitialThread *>(Self);
    stopSpinningBetweenKernels();
    for (;;) {
      waitFor(Thread->Start);
      Thread->Body(Thread->Context);
      sem_post(&Thread->Done);
    }
    return nullptr;
  }
};

/// Idle threads, the most recently used last; never destroyed (they outlive
/// static destructors, and a parked thread costs only its stack).
using IdleThreads = Guarded<std::vector<InitialThread *>>;

IdleThreads &idleThreads() {
  static IdleThreads *Instance = new IdleThreads();
  return *Instance;
}

/// A new parked thread, or null with \p Error set.
InitialThread *startThread(std::string &Error) {
  auto *Thread = new InitialThread();
  pthread_t Handle;
  int Code = pthread_create(&Handle, nullptr, InitialThread::main, Thread);
  if (Code != 0) {
    Error = std::string("cannot start a device initial thread: ") +
            strerror(Code);
    delete Thread;
    return nullptr;
  }
  // Its libomp workers inherit the name, so `top -H` and profilers show
  // the device's threads apart from the host's.
  pthread_setname_np(Handle, "omp-device-init");
  pthread_detach(Handle);
  return Thread;
}

} // namespace

HostNesting hostNesting() {
  using LevelFn = int (*)();
  // libomp is in the process whenever an OpenMP program runs; looked up
  // once, not linked, so the plugin does not pin one libomp.
  static LevelFn Level =
      reinterpret_cast<LevelFn>(dlsym(RTLD_DEFAULT, "omp_get_level"));
  static LevelFn ActiveLevel =
      reinterpret_cast<LevelFn>(dlsym(RTLD_DEFAULT, "omp_get_active_level"));
  static LevelFn MaxActiveLevels = reinterpret_cast<LevelFn>(
      dlsym(RTLD_DEFAULT, "omp_get_max_active_levels"));
  HostNesting Nesting;
  if (Level && ActiveLevel && MaxActiveLevels) {
    Nesting.Level = Level();
    Nesting.ActiveLevel = ActiveLevel();
    Nesting.MaxActiveLevels = MaxActiveLevels();
  }
  return Nesting;
}

bool runOnInitialThread(void (*Body)(void *), void *Context,
                        std::string &Error) {
  InitialThread *Thread = nullptr;
  {
    IdleThreads::Access Idle = idleThreads().lock();
    if (!Idle->empty()) {
      Thread = Idle->back();
      Idle->pop_back();
    }
  }
  if (!Thread && !(Thread = startThread(Error)))
    return false;
  Thread->Body = Body;
  Thread->Context = Context;
  sem_post(&Thread->Start);
  waitFor(Thread->Done);
  idleThreads().lock()->push_back(Thread);
  return true;
}

} // namespace host
} // namespace offload
