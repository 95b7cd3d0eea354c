//===- GPUArch.cpp - The architecture interface on NVIDIA and AMD GPUs ----===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Implements include/Arch.h once for both GPU families, in terms of the
// per-family primitives in arch/<family>/GPUPrimitives.h (found through the
// include path of the build for that family).
//
// Storage: the team state, the per-thread states and the scratch memory of
// __kmpc_alloc_shared live in team-shared memory, which is per block and
// needs no allocation. Per-thread state is an array indexed by the thread's
// id in its block, which bounds the block size the runtime supports
// (MaxThreadsPerBlock, a contract with the GPU plugins). Every byte of
// team-shared memory costs every kernel occupancy, so it holds only what
// every kernel uses: the per-thread state is a byte (256 bytes for the
// block; the rest of a thread's view is the team's, State.h), the scratch
// is 512 bytes, for the team's leader only, and what only some constructs
// need (TeamExtras, ThreadExtras) comes from the device heap, in a block
// the team allocates when a thread first needs it.
//
// Barriers: every barrier over the whole block, the runtime's and the
// user's (ompx_sync_block), is the one hardware barrier 0, as upstream's
// SPMD barriers are. Threads at two different whole-block barriers then
// meet: code ported from CUDA that puts `#pragma omp barrier` in a branch
// some threads skip (undefined in OpenMP) completes as it does with
// upstream's runtime, the skipping threads' arrival at the region's closing
// barrier completing the round. A barrier over the first Count threads uses
// a counted hardware barrier of its own where it exists and Count is a
// whole number of warps (NVPTX); otherwise a barrier in shared memory
// (arrival counter + generation).
//
//===----------------------------------------------------------------------===//

#include "Arch.h"
#include "Debug.h"
#include "DeviceEnvironment.h"
#include "GPUPrimitives.h"
#include "State.h"

using namespace ompx;

namespace ompx {
namespace gpu {
/// Block size the runtime supports; the plugins launch at most this many
/// threads per block.
constexpr uint32_t MaxThreadsPerBlock = 256;
/// Bytes of team-shared scratch for __kmpc_alloc_shared, used by the team's
/// leader (the generic-mode main thread, which shares its locals with its
/// regions, or SPMD thread 0); other threads allocate from the device heap.
/// Upstream's runtime keeps 512 bytes too.
constexpr size_t TeamScratchBytes = 512;

/// A thread's own byte of team-shared memory: its ThreadState (the level
/// in the low six bits, at most arch::MaxCountedLevel; InTeamRegion in the
/// eighth), and in the seventh whether it has ThreadExtras, so that the
/// paths every kernel takes (a parallel region asks for a pushed
/// num_threads) look no further when it has none.
constexpr uint8_t LevelMask = 0x3f;
constexpr uint8_t HasExtrasBit = 0x40;
constexpr uint8_t InTeamRegionBit = 0x80;
static_assert(arch::MaxCountedLevel <= LevelMask,
              "ThreadState::Level needs more bits");
} // namespace gpu
} // namespace ompx

namespace ompx {
namespace gpu {

/// A barrier in team-shared memory, for thread counts the hardware cannot
/// express, in one word (every byte of team memory costs every kernel): the
/// low ArrivedBits count the threads that arrived in this round, the rest
/// is the round's generation, which changes when the round completes. Any
/// starting generation would do for the barrier itself, but team-shared
/// memory starts undefined, and link-time OpenMPOpt (its Attributor) takes
/// a spin loop comparing two reads of an undefined value as never looping
/// and deletes it: arch::initTeam zeroes the word when the kernel starts.
using SoftwareBarrier = uint32_t;
constexpr uint32_t ArrivedBits = 16;
constexpr uint32_t ArrivedMask = (1u << ArrivedBits) - 1;
static_assert(MaxThreadsPerBlock <= ArrivedMask,
              "a software barrier counts up to ArrivedMask threads");
/// What a team makes in the device heap when a thread first needs it
/// (arch::teamExtras, arch::threadExtras): the team's extras and one
/// pointer per thread of the block to its ThreadExtras, nullptr until that
/// thread needs them.
struct TeamHeapBlock {
  TeamExtras Team;
  ThreadExtras *Threads[MaxThreadsPerBlock];
};
/// A named type, so the address space qualifies the variable, not what it
/// points to.
using TeamHeapBlockPtr = TeamHeapBlock *;

// The team-shared memory of the runtime, defined once per image (in the
// runtime's archive) and only declared in the NVPTX compile-time module
// (OMPX_TEAM_MEMORY_DECLARED, see CMakeLists.txt): clang copies that
// module's functions into every translation unit, which must all name the
// same memory. Team-shared memory is not initialized by the loader; the
// runtime initializes what it reads (arch::initTeam).
#ifdef OMPX_TEAM_MEMORY_DECLARED
#define OMPX_TEAM_MEMORY extern
#else
#define OMPX_TEAM_MEMORY [[clang::loader_uninitialized]]
#endif
OMPX_TEAM_MEMORY OMPX_SHARED TeamState SharedTeam;
OMPX_TEAM_MEMORY OMPX_SHARED GenericWork SharedGenericWork;
/// Every thread's ThreadState in a byte of its own, which only that thread
/// reads and writes, with plain accesses: a byte store leaves its
/// neighbours in the word alone on every GPU. (Four bits per thread would
/// save 128 bytes but need atomic updates, and every atomic is an ordering
/// point for the GPU emulator's racecheck: an atomic at each region entry
/// hid a shared sum without a reduction, test/emulator/checks.test.)
OMPX_TEAM_MEMORY OMPX_SHARED uint8_t SharedThreadStates[MaxThreadsPerBlock];
OMPX_TEAM_MEMORY OMPX_SHARED char SharedScratch[TeamScratchBytes]
    __attribute__((aligned(16)));
OMPX_TEAM_MEMORY OMPX_SHARED uint16_t SharedScratchUsed;
OMPX_TEAM_MEMORY OMPX_SHARED SoftwareBarrier SharedBarriers[2];
/// The team's heap block, made by the first thread that needs extras;
/// nullptr until then.
OMPX_TEAM_MEMORY OMPX_SHARED TeamHeapBlockPtr SharedHeapBlock;
/// Threads that called __kmpc_target_deinit. (Not in TeamState: link-time
/// GlobalOpt splits a team-shared struct into its fields, and drops those
/// a kernel does not use, only when no field is updated atomically.)
OMPX_TEAM_MEMORY OMPX_SHARED uint32_t SharedThreadsDone;
#undef OMPX_TEAM_MEMORY

} // namespace gpu
} // namespace ompx

using namespace ompx::gpu;

namespace {

/// Generic address of a team-shared object (a C-style cast is how clang
/// converts between address spaces).
template <typename T> T *generic(OMPX_SHARED T *Ptr) { return (T *)Ptr; }

/// Dynamic shared memory (the launch's extra bytes) starts where the static
/// allocation ends; an external array of unknown size names that point.
extern "C" alignas(16) OMPX_SHARED char __ompx_dynamic_shared[];

/// Arrives at \p B and returns the generation of the round it arrived in.
uint32_t softwareBarrierArrive(SoftwareBarrier *B, uint32_t Count) {
  uint32_t Before = atomic::add(B, 1u);
  uint32_t Generation = Before >> ArrivedBits;
  // Last to arrive: no arrivals and the next generation in one store (no
  // thread arrives for the next round before it sees that generation). No
  // loop on this path, so lanes of one AMD wavefront reconverge before
  // anyone spins below.
  if ((Before & ArrivedMask) == Count - 1)
    atomic::store(B, (Generation + 1) << ArrivedBits);
  return Generation;
}

// Not inlined: a spin loop in every team barrier's inlined code kept the
// loop clang writes into each reduction (copying the private values between
// warps 4 bytes at a time, two team barriers in its body) too big to unroll,
// and the private copies stayed on the stack (sm_90 dot product: 40 bytes).
[[clang::noinline]] void softwareBarrier(SoftwareBarrier *B, uint32_t Count) {
  uint32_t Generation = softwareBarrierArrive(B, Count);
  while ((atomic::load(B) >> ArrivedBits) == Generation)
    gpu::pause();
  gpu::fenceBlock();
}

} // namespace

OMPX_HOT uint32_t arch::threadIdInBlock() { return gpu::threadId(); }
OMPX_HOT uint32_t arch::numThreadsInBlock() { return gpu::blockSize(); }
OMPX_HOT uint32_t arch::blockId() { return gpu::blockId(); }
OMPX_HOT uint32_t arch::numBlocks() { return gpu::gridSize(); }
// NVIDIA sm_70+ schedules the threads of a warp independently, but the
// runtime keeps the generic-mode main thread in a warp of its own there as
// well: AMD wavefronts do run in lockstep, and one rule for both families
// keeps the grid contract of the plugins the same.
OMPX_HOT uint32_t arch::warpSize() { return gpu::warpSize(); }

bool arch::bareThreadIdentity(int, uint32_t &, uint32_t &) { return false; }
bool arch::bareBlockIdentity(int, uint32_t &, uint32_t &) { return false; }

namespace {

/// What synchronizes \p Count threads at barrier \p Id.
enum class BarrierKind {
  /// One thread: a fence is enough.
  Fence,
  /// Every thread of the block: hardware barrier 0, whatever the Id.
  Block,
  /// Threads 0..Count-1 of a region, whole warps: a counted hardware
  /// barrier. The generic state machine's participants (the main thread
  /// and its workers) never are whole warps.
  Counted,
  /// Any other count: SharedBarriers[Id].
  Software,
};

OMPX_HOT BarrierKind barrierKind(arch::BarrierId Id, uint32_t Count) {
  if (Count <= 1)
    return BarrierKind::Fence;
  if (Count >= gpu::blockSize())
    return BarrierKind::Block;
  if (Id == arch::RegionBarrier && gpu::hasCountedBarrier() &&
      Count % gpu::warpSize() == 0)
    return BarrierKind::Counted;
  return BarrierKind::Software;
}

} // namespace

OMPX_HOT void arch::barrier(BarrierId Id, uint32_t Count) {
  switch (barrierKind(Id, Count)) {
  case BarrierKind::Fence:
    gpu::fenceBlock();
    return;
  case BarrierKind::Block:
    gpu::blockBarrier(0);
    return;
  case BarrierKind::Counted:
    gpu::countedBarrier(Id + 1, Count);
    return;
  case BarrierKind::Software:
    softwareBarrier(generic(&SharedBarriers[Id]), Count);
    return;
  }
}

void arch::barrierArrive(BarrierId Id, uint32_t Count) {
  // Only the software barrier can count an arrival without a wait; the
  // hardware's are whole-block or whole-warp ones, whose threads are all
  // still running.
  if (barrierKind(Id, Count) != BarrierKind::Software) {
    barrier(Id, Count);
    return;
  }
  gpu::fenceBlock();
  softwareBarrierArrive(generic(&SharedBarriers[Id]), Count);
}

// Only here: a thread may still be spinning on a finished round's
// Generation when thread 0 reaches a later block barrier, so a reset there
// could hand it back the value it waits to see change. Every field is
// written: link-time OpenMPOpt folds loads of never-written team-shared
// memory (State.h).
void arch::initTeam() {
  for (uint32_t Id = 0; Id < 2; ++Id)
    atomic::store(generic(&SharedBarriers[Id]), 0u);
  atomic::store(generic(&SharedScratchUsed), uint16_t(0));
  atomic::store(generic(&SharedHeapBlock), (TeamHeapBlock *)nullptr);
  atomic::store(generic(&SharedThreadsDone), 0u);
}

OMPX_HOT TeamState &arch::teamState() { return *generic(&SharedTeam); }
OMPX_HOT GenericWork &arch::genericWork() {
  return *generic(&SharedGenericWork);
}

// The plugins cap every launch at MaxThreadsPerBlock, so the bound is a
// debug check: a message and trap on every query would put a printf call,
// its stack frame and its registers into every kernel.
namespace {
/// The calling thread's byte of SharedThreadStates.
uint8_t *threadStateByte() {
  uint32_t Tid = gpu::threadId();
  OMPX_ASSERT(Tid < gpu::MaxThreadsPerBlock,
              "block larger than the device runtime supports (256 threads); "
              "the plugin must cap threads per block");
  return generic(&SharedThreadStates[Tid]);
}
} // namespace

// One store per thread, of its own byte. Thread 0 zeroing the whole array
// in initTeam doubled the device link's OpenMPOpt time (48 kernels for
// gfx90a: 3.6 -> 6.1 s): every load of a thread's byte was checked against
// that store.
OMPX_HOT void arch::initThreadState() { *threadStateByte() = 0; }

OMPX_HOT ThreadState arch::threadState() {
  uint8_t Bits = *threadStateByte();
  ThreadState State;
  State.InTeamRegion = Bits & InTeamRegionBit;
  State.Level = Bits & LevelMask;
  return State;
}

OMPX_HOT void arch::setThreadState(ThreadState State) {
  uint8_t *Byte = threadStateByte();
  *Byte = (*Byte & HasExtrasBit) | (State.Level & LevelMask) |
          (State.InTeamRegion ? InTeamRegionBit : 0);
}

namespace {
/// Allocates the team's heap block, unless another thread got there first;
/// returns the block the team keeps (nullptr when the device is out of
/// memory). Everything in it is initialized before the block is
/// published.
TeamHeapBlock *installTeamHeapBlock() {
  TeamHeapBlock **Slot = generic(&SharedHeapBlock);
  auto *Fresh =
      static_cast<TeamHeapBlock *>(gpu::allocate(sizeof(TeamHeapBlock)));
  if (!Fresh)
    return nullptr;
  initTeamExtras(Fresh->Team);
  for (uint32_t I = 0; I < gpu::MaxThreadsPerBlock; ++I)
    Fresh->Threads[I] = nullptr;
  TeamHeapBlock *Expected = nullptr;
  if (atomic::cas(Slot, Expected, Fresh))
    return Fresh;
  gpu::deallocate(Fresh); // another thread was first
  return Expected;
}

TeamHeapBlock *teamHeapBlock() {
  TeamHeapBlock *Block = atomic::load(generic(&SharedHeapBlock));
  return Block ? Block : installTeamHeapBlock();
}
} // namespace

TeamExtras &arch::teamExtras() {
  TeamHeapBlock *Block = teamHeapBlock();
  if (!Block)
    fatal("out of device memory for the runtime's team state "
          "(LIBOMPTARGET_HEAP_SIZE)");
  return Block->Team;
}

ThreadExtras *arch::existingThreadExtras() {
  if (!(*threadStateByte() & HasExtrasBit))
    return nullptr;
  // This thread made its extras, so it has seen the block.
  TeamHeapBlock *Block = __scoped_atomic_load_n(
      generic(&SharedHeapBlock), __ATOMIC_RELAXED, __MEMORY_SCOPE_WRKGRP);
  return Block->Threads[gpu::threadId()];
}

ThreadExtras *arch::threadExtras(bool &Made) {
  Made = false;
  TeamHeapBlock *Block = teamHeapBlock();
  if (!Block)
    return nullptr;
  ThreadExtras *&Mine = Block->Threads[gpu::threadId()];
  if (Mine)
    return Mine;
  Mine = static_cast<ThreadExtras *>(gpu::allocate(sizeof(ThreadExtras)));
  Made = Mine != nullptr;
  if (Made)
    *threadStateByte() |= HasExtrasBit;
  return Mine;
}

// Generic-mode workers never call __kmpc_target_deinit, but they are done
// with their extras once the main thread is (its last region has ended):
// the last deinit caller (every thread of an SPMD block, the main thread of
// a generic one) frees them all.
void arch::endThreadExtras() {
  uint32_t Callers = isSPMDMode() ? gpu::blockSize() : 1;
  if (atomic::add(generic(&SharedThreadsDone), 1u) + 1 != Callers)
    return;
  TeamHeapBlock *Block = atomic::load(generic(&SharedHeapBlock));
  if (!Block)
    return;
  atomic::store(generic(&SharedHeapBlock), (TeamHeapBlock *)nullptr);
  for (uint32_t I = 0; I < gpu::MaxThreadsPerBlock; ++I)
    if (Block->Threads[I])
      gpu::deallocate(Block->Threads[I]);
  gpu::deallocate(Block);
}

char *arch::threadScratch(size_t &Size, uint16_t *&Used) {
  if (!isTeamLeader())
    return nullptr;
  Size = gpu::TeamScratchBytes;
  Used = generic(&SharedScratchUsed);
  return generic(&SharedScratch[0]);
}

// The launch itself says how much dynamic shared memory it has, so this
// does not depend on the device environment (which the default NVPTX flow
// does not export; see docs/GPU.md).
static uint32_t dynamicSharedBytes() {
  // The team-shared address of the dynamic area is its offset in the
  // block's shared memory.
  auto Start = uint32_t(reinterpret_cast<uintptr_t>(&__ompx_dynamic_shared[0]));
  return gpu::dynamicSharedBytes(Start);
}

void *arch::dynamicSharedMemory() {
  return dynamicSharedBytes() ? generic(&__ompx_dynamic_shared[0]) : nullptr;
}
size_t arch::dynamicSharedMemorySize() { return dynamicSharedBytes(); }

void *arch::allocGlobal(size_t Size) { return gpu::allocate(Size); }
void arch::freeGlobal(void *Ptr) { gpu::deallocate(Ptr); }

bool arch::tryLock(uint32_t *Word) {
  uint32_t Expected = 0;
  return atomic::cas(Word, Expected, 1u);
}

void arch::lock(uint32_t *Word) {
  while (!tryLock(Word))
    gpu::pause();
}

void arch::unlock(uint32_t *Word) { atomic::store(Word, 0u); }

void arch::pause() { gpu::pause(); }

uint64_t arch::nanoseconds() {
  uint64_t Hz = gpu::clockHz(deviceEnvironment().ClockFrequency);
  uint64_t Ticks = gpu::clockTicks();
  // Split to avoid overflowing Ticks * 1e9.
  return Ticks / Hz * 1000000000u + Ticks % Hz * 1000000000u / Hz;
}

double arch::tickSeconds() {
  return 1.0 / double(gpu::clockHz(deviceEnvironment().ClockFrequency));
}

uint32_t arch::numProcessors() {
  uint64_t Reported = deviceEnvironment().HardwareParallelism;
  return Reported ? uint32_t(Reported) : gpu::multiprocessors();
}

void arch::fatal(const char *Message) {
  gpu::printFatal(Message);
  __builtin_trap();
}

void arch::assertFail(const char *Expression, const char *File, unsigned Line,
                      const char *Function) {
  gpu::assertFail(Expression, File, Line, Function);
  __builtin_trap();
}
