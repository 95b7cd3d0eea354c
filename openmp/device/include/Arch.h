//===- Arch.h - What each device architecture provides ---------*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The portable core (src/) is written against this interface only. An
// architecture layer (arch/cpu today; arch/nvptx and arch/amdgpu later)
// implements the functions declared here and provides `ArchConfig.h` (found
// through the include path) with its inline pieces: the host-forwarding hook
// and any attributes. The GPU layers share arch/generic's, which their
// builds put on the path.
//
// Terms: a "block" is the hardware group of threads that runs one team (a
// CUDA block, an AMD work-group, a group of CPU threads); the "region"
// barrier synchronizes the threads of the current parallel region while the
// "block" barrier is used by the generic-mode state machine, so the two may
// be in use at the same time by different threads.
//
//===----------------------------------------------------------------------===//

#ifndef OPENMP_DEVICE_INCLUDE_ARCH_H
#define OPENMP_DEVICE_INCLUDE_ARCH_H

#include "DeviceABI.h"

namespace ompx {

struct TeamState;
struct GenericWork;
struct ThreadState;
struct ThreadExtras;
struct TeamExtras;

namespace arch {

/// Which barrier to use: see the file comment.
enum BarrierId : uint32_t { BlockBarrier = 0, RegionBarrier = 1 };

/// Identity of the calling device thread.
uint32_t threadIdInBlock();
uint32_t numThreadsInBlock();
uint32_t blockId();
uint32_t numBlocks();

/// The ids <ompx.h>'s host fallbacks ask for, on an architecture where they
/// run (the CPU: clang compiles C/C++ for it host style): when the calling
/// thread runs the 3-D block of an `ompx_bare` kernel, sets its id in
/// dimension \p Dim (0-2) and the block's extent there, and returns true.
/// False on every other thread, and always on GPUs, whose ompx functions
/// read the hardware (gpu/GPUKernelLanguage.cpp).
bool bareThreadIdentity(int Dim, uint32_t &Id, uint32_t &Extent);
/// Likewise for the block: its id in dimension \p Dim of the kernel's grid
/// and the grid's extent there.
bool bareBlockIdentity(int Dim, uint32_t &Id, uint32_t &Extent);

/// Threads that execute in lockstep (an NVIDIA warp, an AMD wavefront): a
/// thread of such a group cannot progress while another one of its group
/// spins. 1 where every thread progresses on its own (the CPU). The core
/// uses it to keep the generic-mode main thread out of the workers' warps
/// (see Kernel.cpp); it must be the same for every thread of a launch.
uint32_t warpSize();

/// Waits until \p Count threads of the block have reached barrier \p Id.
/// Every participant passes the same Count. The participants of a
/// RegionBarrier are threads 0..Count-1; those of a BlockBarrier with Count
/// below the block size are the generic-mode main thread and its workers,
/// which need not be whole warps. Implies a team-scope acquire/release
/// fence.
void barrier(BarrierId Id, uint32_t Count);

/// Counts the calling thread as arrived at barrier \p Id of \p Count
/// threads without waiting for the others. Where the barrier is kept in
/// memory it may be left mid-round when the kernel ends, so only the last
/// barrier of a kernel may use it. The generic-mode main thread ends its
/// kernel with it: the workers of a compiler-made state machine still wait
/// for it there, but a kernel from which link-time OpenMPOpt removed the
/// state machine (it has no parallel region) has sent its workers home.
void barrierArrive(BarrierId Id, uint32_t Count);

/// Gives the team's barriers and runtime storage their initial state.
/// Called by thread 0 of each team in __kmpc_target_init, before the
/// kernel's first barrier, when no thread can be waiting at one.
void initTeam();

/// The calling team's runtime state (team-shared memory on a GPU), and
/// what a generic-mode main thread hands its workers (apart, so that only
/// generic kernels name it).
TeamState &teamState();
GenericWork &genericWork();
/// The calling thread's own state, by value: GPUs pack it into a byte
/// of team-shared memory. initThreadState makes it ThreadState(): every
/// thread calls it first thing in __kmpc_target_init.
void initThreadState();
ThreadState threadState();
void setThreadState(ThreadState State);
/// The calling thread's ThreadExtras (State.h). Where they are made on
/// demand (GPUs), this makes them when missing, and \p Made says so (the
/// caller initializes them); nullptr when the device has no memory for
/// them. Where every thread has them (the CPU device), the launch starts
/// them afresh for each team.
ThreadExtras *threadExtras(bool &Made);
/// The calling thread's ThreadExtras when it has them, else nullptr:
/// threadExtras without the making, for the paths every kernel takes.
ThreadExtras *existingThreadExtras();
/// The calling team's TeamExtras (State.h): made on first use where made
/// on demand (GPUs; a failure is fatal), started for each team elsewhere.
TeamExtras &teamExtras();
/// Called by every thread that calls __kmpc_target_deinit: the last of
/// them releases the team's TeamExtras and ThreadExtras (GPUs).
void endThreadExtras();

/// The calling thread's part of the team-shared scratch memory backing
/// `__kmpc_alloc_shared`, \p Size bytes, with \p Used counting what is in
/// use; nullptr when the thread has none (it then uses the global heap).
char *threadScratch(size_t &Size, uint16_t *&Used);
/// Dynamic team-shared memory requested at launch (may be null).
void *dynamicSharedMemory();
size_t dynamicSharedMemorySize();

/// Device-global heap, for allocations that do not fit the scratch memory.
void *allocGlobal(size_t Size);
void freeGlobal(void *Ptr);

/// Simple mutual exclusion on a word of device memory (0 = free).
void lock(uint32_t *Word);
void unlock(uint32_t *Word);
bool tryLock(uint32_t *Word);

/// Polite spin-wait step.
void pause();

/// Monotonic time in nanoseconds and the clock's resolution in seconds.
uint64_t nanoseconds();
double tickSeconds();

/// Processors available to the device (omp_get_num_procs).
uint32_t numProcessors();

/// Reports a fatal runtime error and stops the kernel.
[[noreturn]] void fatal(const char *Message);

/// Reports a failed assertion, the runtime's own (src/Debug.h) or an
/// assert() in user code (`__assert_fail`), with \p File, \p Line,
/// \p Function and the calling block and thread, and stops the kernel.
[[noreturn]] void assertFail(const char *Expression, const char *File,
                             unsigned Line, const char *Function);

} // namespace arch

/// Atomics at device scope (cross-team visibility). Clang's scoped builtins
/// exist on every target clang-22 builds the runtime for; other compilers
/// (the CPU variant may be built with GCC) get the unscoped ones, which are
/// device-wide on a CPU.
#if defined(__clang__)
#define OMPX_ATOMIC(Op, ...)                                                   \
  __scoped_atomic_##Op(__VA_ARGS__, __MEMORY_SCOPE_DEVICE)
#else
#define OMPX_ATOMIC(Op, ...) __atomic_##Op(__VA_ARGS__)
#endif
namespace atomic {
template <typename T> inline T load(T *Ptr) {
  return OMPX_ATOMIC(load_n, Ptr, __ATOMIC_ACQUIRE);
}
template <typename T> inline void store(T *Ptr, T Value) {
  OMPX_ATOMIC(store_n, Ptr, Value, __ATOMIC_RELEASE);
}
template <typename T> inline T add(T *Ptr, T Value) {
  return OMPX_ATOMIC(fetch_add, Ptr, Value, __ATOMIC_ACQ_REL);
}
template <typename T> inline bool cas(T *Ptr, T &Expected, T Desired) {
  return OMPX_ATOMIC(compare_exchange_n, Ptr, &Expected, Desired, false,
                     __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}
inline void fence() { OMPX_ATOMIC(thread_fence, __ATOMIC_SEQ_CST); }
} // namespace atomic

} // namespace ompx

// The architecture's inline configuration: must define
//   OMPX_FORWARD_TO_HOST(Name, ReturnType, (ParamTypes...), Args...)
// which, on an architecture where device code shares a process with a host
// OpenMP runtime (the CPU), returns the host runtime's `Name(Args...)` when
// the caller is not a device thread; elsewhere it expands to nothing.
#include "ArchConfig.h"

#endif // OPENMP_DEVICE_INCLUDE_ARCH_H
