//===- CPUArch.cpp - The architecture interface on CPU threads ------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "CPUDevice.h"

#include <dlfcn.h>
#include <limits.h>
#include <linux/futex.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

using namespace ompx;
using namespace ompx::cpu;

__thread void *ompx::arch::CurrentDeviceThread = nullptr;

namespace {

DeviceThread *self() {
  return static_cast<DeviceThread *>(arch::CurrentDeviceThread);
}

/// What a thread that is not a device thread sees: the initial thread of a
/// team of one (used when the host runtime is absent, e.g. in unit tests).
__thread ThreadState FallbackThread;
__thread ThreadExtras FallbackExtras;
__thread bool FallbackThreadReady = false;
__thread TeamState FallbackTeam;
__thread GenericWork FallbackWork;
__thread TeamExtras FallbackTeamExtras;
__thread bool FallbackTeamExtrasReady = false;

void futexWait(uint32_t *Word, uint32_t Expected) {
  syscall(SYS_futex, Word, FUTEX_WAIT_PRIVATE, Expected, nullptr, nullptr, 0);
}

void futexWakeAll(uint32_t *Word) {
  syscall(SYS_futex, Word, FUTEX_WAKE_PRIVATE, INT_MAX, nullptr, nullptr, 0);
}

/// Spins before sleeping: short, because the device threads often
/// outnumber the processors.
constexpr int SpinsBeforeSleep = 2000;

} // namespace

bool arch::bareThreadIdentity(int Dim, uint32_t &Id, uint32_t &Extent) {
  DeviceThread *T = self();
  if (!T || !T->BareExtent[0] || Dim < 0 || Dim > 2)
    return false;
  Id = T->BareId[Dim];
  Extent = T->BareExtent[Dim];
  return true;
}

bool arch::bareBlockIdentity(int Dim, uint32_t &Id, uint32_t &Extent) {
  DeviceThread *T = self();
  if (!T || !T->BareExtent[0] || Dim < 0 || Dim > 2)
    return false;
  const uint32_t *Grid = T->BareGrid;
  uint32_t Below = 1;
  for (int D = 0; D < Dim; ++D)
    Below *= Grid[D];
  Id = T->TeamId / Below % Grid[Dim];
  Extent = Grid[Dim];
  return true;
}

void cpu::barrierWait(Barrier &B, uint32_t Count) {
  if (Count <= 1) {
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    return;
  }
  uint32_t Generation = __atomic_load_n(&B.Generation, __ATOMIC_ACQUIRE);
  if (__atomic_add_fetch(&B.Arrived, 1, __ATOMIC_ACQ_REL) == Count) {
    // Last one in: reset for the next round, then release everybody.
    __atomic_store_n(&B.Arrived, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&B.Generation, Generation + 1, __ATOMIC_RELEASE);
    futexWakeAll(&B.Generation);
    return;
  }
  for (int I = 0; I < SpinsBeforeSleep; ++I) {
    if (__atomic_load_n(&B.Generation, __ATOMIC_ACQUIRE) != Generation)
      return;
    __builtin_ia32_pause();
  }
  while (__atomic_load_n(&B.Generation, __ATOMIC_ACQUIRE) == Generation)
    futexWait(&B.Generation, Generation);
}

namespace {
/// What arch::warpSize() answers; only tests change it.
uint32_t SimulatedWarpSize = 1;
} // namespace

void cpu::setSimulatedWarpSizeForTesting(uint32_t WarpSize) {
  __atomic_store_n(&SimulatedWarpSize, WarpSize ? WarpSize : 1,
                   __ATOMIC_RELEASE);
}

// Every CPU thread progresses on its own: the threads of a team need no
// lockstep precautions.
uint32_t arch::warpSize() {
  return __atomic_load_n(&SimulatedWarpSize, __ATOMIC_ACQUIRE);
}

uint32_t arch::threadIdInBlock() {
  DeviceThread *T = self();
  return T ? T->ThreadId : 0;
}

uint32_t arch::numThreadsInBlock() {
  DeviceThread *T = self();
  return T ? T->NumThreads : 1;
}

uint32_t arch::blockId() {
  DeviceThread *T = self();
  return T ? T->TeamId : 0;
}

uint32_t arch::numBlocks() {
  DeviceThread *T = self();
  return T ? T->NumTeams : 1;
}

void arch::barrier(BarrierId Id, uint32_t Count) {
  DeviceThread *T = self();
  if (!T)
    return;
  barrierWait(T->MyGroup->Barriers[Id], Count);
}

// A group's barriers serve its teams one after another, so a round must
// not be left open: the worker threads of a CPU group never leave before
// the main thread's last barrier, so waiting costs nothing here.
void arch::barrierArrive(BarrierId Id, uint32_t Count) { barrier(Id, Count); }

// A group's barriers start at zero when the pool creates it, and every
// round leaves Arrived at zero for the next team.
void arch::initTeam() {
  if (DeviceThread *T = self())
    initTeamExtras(T->MyGroup->Extras);
}

TeamExtras &arch::teamExtras() {
  if (DeviceThread *T = self())
    return T->MyGroup->Extras;
  if (!FallbackTeamExtrasReady) {
    initTeamExtras(FallbackTeamExtras);
    FallbackTeamExtrasReady = true;
  }
  return FallbackTeamExtras;
}

TeamState &arch::teamState() {
  DeviceThread *T = self();
  return T ? T->MyGroup->State : FallbackTeam;
}

GenericWork &arch::genericWork() {
  DeviceThread *T = self();
  return T ? T->MyGroup->Work : FallbackWork;
}

namespace {
/// Starts the fallback thread's state and extras on first use.
void readyFallbackThread() {
  if (FallbackThreadReady)
    return;
  FallbackThread = ThreadState();
  initThreadExtras(FallbackExtras);
  FallbackThreadReady = true;
}
} // namespace

ThreadState arch::threadState() {
  if (DeviceThread *T = self())
    return T->State;
  readyFallbackThread();
  return FallbackThread;
}

void arch::initThreadState() { setThreadState(ThreadState()); }

void arch::setThreadState(ThreadState State) {
  if (DeviceThread *T = self()) {
    T->State = State;
    return;
  }
  readyFallbackThread();
  FallbackThread = State;
}

// Every thread has an equal slice of its group's scratch memory.
char *arch::threadScratch(size_t &Size, uint16_t *&Used) {
  DeviceThread *T = self();
  if (!T || !T->MyGroup->Scratch || !T->NumThreads)
    return nullptr;
  Size = (T->MyGroup->ScratchSize / T->NumThreads) & ~size_t(15);
  if (Size > 0xfff0) // what the 16-bit count holds
    Size = 0xfff0;
  if (Size == 0)
    return nullptr;
  Used = &T->StackUsed;
  return static_cast<char *>(T->MyGroup->Scratch) + Size * T->ThreadId;
}

// Host threads have memory to spare: every one has its extras for the
// whole kernel, started afresh for each team (CPULaunch.cpp).
ThreadExtras *arch::threadExtras(bool &Made) {
  Made = false;
  if (DeviceThread *T = self())
    return &T->Extras;
  readyFallbackThread();
  return &FallbackExtras;
}

ThreadExtras *arch::existingThreadExtras() {
  bool Made;
  return threadExtras(Made);
}

void arch::endThreadExtras() {}

void *arch::dynamicSharedMemory() {
  DeviceThread *T = self();
  return T ? T->MyGroup->DynamicShared : nullptr;
}

size_t arch::dynamicSharedMemorySize() {
  DeviceThread *T = self();
  return T ? T->MyGroup->DynamicSharedSize : 0;
}

void *arch::allocGlobal(size_t Size) { return malloc(Size); }

void arch::freeGlobal(void *Ptr) { free(Ptr); }

bool arch::tryLock(uint32_t *Word) {
  return __atomic_exchange_n(Word, 1u, __ATOMIC_ACQUIRE) == 0;
}

void arch::lock(uint32_t *Word) {
  for (int Spins = 0;; ++Spins) {
    if (__atomic_load_n(Word, __ATOMIC_RELAXED) == 0 && tryLock(Word))
      return;
    // The holder may be descheduled when threads outnumber processors.
    if (Spins % 64 == 63)
      sched_yield();
    else
      __builtin_ia32_pause();
  }
}

void arch::unlock(uint32_t *Word) {
  __atomic_store_n(Word, 0u, __ATOMIC_RELEASE);
}

void arch::pause() { __builtin_ia32_pause(); }

uint64_t arch::nanoseconds() {
  struct timespec Now;
  clock_gettime(CLOCK_MONOTONIC, &Now);
  return uint64_t(Now.tv_sec) * 1000000000u + uint64_t(Now.tv_nsec);
}

double arch::tickSeconds() {
  struct timespec Resolution;
  if (clock_getres(CLOCK_MONOTONIC, &Resolution) != 0)
    return 1e-9;
  return double(Resolution.tv_sec) + double(Resolution.tv_nsec) * 1e-9;
}

uint32_t arch::numProcessors() {
  long N = sysconf(_SC_NPROCESSORS_ONLN);
  return N > 0 ? uint32_t(N) : 1;
}

void arch::assertFail(const char *Expression, const char *File, unsigned Line,
                      const char *Function) {
  DeviceThread *T = self();
  fprintf(stderr,
          "%s:%u: %s: team %u, thread %u of kernel '%s': device assertion "
          "`%s` failed\n",
          File, Line, Function, T ? T->TeamId : 0, T ? T->ThreadId : 0,
          cpu::currentKernelName(), Expression);
  abort();
}

void arch::fatal(const char *Message) {
  fprintf(stderr, "ompdevice: fatal error in kernel '%s': %s\n",
          cpu::currentKernelName(), Message);
  abort();
}

// libomp is found through a function only it defines: the address the
// image's reference resolved to names the loaded library, whatever its file
// name. A weak reference keeps images and tests without libomp linkable.
extern "C" void __kmpc_fork_call(void *, int32_t, void *, ...)
    __attribute__((weak));

void *arch::hostRuntimeSymbol(const char *Name) {
  static void *Handle = nullptr;
  void *H = __atomic_load_n(&Handle, __ATOMIC_ACQUIRE);
  if (!H) {
    Dl_info Info;
    if (__kmpc_fork_call &&
        dladdr(reinterpret_cast<void *>(&__kmpc_fork_call), &Info) &&
        Info.dli_fname)
      H = dlopen(Info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
    if (!H)
      H = dlopen("libomp.so.5", RTLD_LAZY | RTLD_NOLOAD);
    if (!H)
      H = dlopen("libomp.so", RTLD_LAZY | RTLD_NOLOAD);
    if (!H)
      H = OMPX_NO_HOST_SYMBOL;
    __atomic_store_n(&Handle, H, __ATOMIC_RELEASE);
  }
  if (H == OMPX_NO_HOST_SYMBOL)
    return OMPX_NO_HOST_SYMBOL;
  void *Symbol = dlsym(H, Name);
  return Symbol ? Symbol : OMPX_NO_HOST_SYMBOL;
}
