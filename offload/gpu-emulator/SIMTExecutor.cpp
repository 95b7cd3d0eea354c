//===- SIMTExecutor.cpp - Runs a grid of GPU threads on the host ----------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "SIMTExecutor.h"
#include "Checkers.h"
#include "Schedule.h"
#include "ThreadStacks.h"
#include "gpu/CUDAABI.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace gpuemu {

thread_local BlockState *CurrentBlock GPUEMU_FAST_TLS = nullptr;
thread_local GPUThread *CurrentThread GPUEMU_FAST_TLS = nullptr;

using boost::context::detail::jump_fcontext;
using boost::context::detail::make_fcontext;
using boost::context::detail::transfer_t;

void switchToScheduler() {
  GPUEMU_SWITCH_FIBER(CurrentBlock->SchedulerFiber);
  transfer_t Back = jump_fcontext(CurrentBlock->Scheduler, nullptr);
  CurrentBlock->Scheduler = Back.fctx;
}

void failLaunch(int CudaError, const std::string &Message) {
  BlockState &Block = *CurrentBlock;
  GPUThread &Self = *CurrentThread;
  if (!Block.Failed) {
    Block.Failed = true;
    Block.FailureCode = CudaError;
    Block.FailureMessage =
        Message + " (block " + std::to_string(Block.Id.X) + "," +
        std::to_string(Block.Id.Y) + "," + std::to_string(Block.Id.Z) +
        ", thread " + std::to_string(Self.Id.X) + "," +
        std::to_string(Self.Id.Y) + "," + std::to_string(Self.Id.Z) + ")";
  }
  // The scheduler never resumes a thread of a failed block.
  GPUEMU_SWITCH_FIBER(Block.SchedulerFiber);
  jump_fcontext(Block.Scheduler, nullptr);
  std::abort();
}

namespace {

/// The launch the blocks of this host thread belong to.
thread_local const LaunchConfig *CurrentLaunch GPUEMU_FAST_TLS = nullptr;

/// Runs the kernel as the current GPU thread and records its exit.
void runThread(Context Scheduler) {
  CurrentBlock->Scheduler = Scheduler;
  CurrentLaunch->Entry(CurrentLaunch->Params);
  CurrentThread->Wait = ThreadWait::Exited;
  CurrentBlock->WarpExited[CurrentBlock->warpOf(*CurrentThread)] |=
      uint64_t(1) << CurrentBlock->laneOf(*CurrentThread);
  --CurrentBlock->Live;
  recheckAfterExit(*CurrentBlock, *CurrentThread);
}

/// Where every GPU thread starts: runs the kernel, then exits for good.
/// It never returns, so under TSan it leaves no frame on the fiber's shadow
/// stack (FiberAnnotations.h); what it calls is instrumented.
GPUEMU_NOT_INSTRUMENTED void threadMain(transfer_t From) {
  runThread(From.fctx);
  GPUEMU_SWITCH_FIBER(CurrentBlock->SchedulerFiber);
  jump_fcontext(CurrentBlock->Scheduler, nullptr);
  std::abort();
}

std::string describeWaiters(const BlockState &Block) {
  std::string Text;
  unsigned Listed = 0;
  for (const GPUThread &T : Block.Threads) {
    if (T.Wait == ThreadWait::Exited)
      continue;
    if (Listed++ == 8) {
      Text += ", ...";
      break;
    }
    Text += (Text.empty() ? "" : ", ") + std::string("thread ") +
            std::to_string(T.Index) +
            (T.Wait == ThreadWait::Barrier
                 ? " in barrier " + std::to_string(T.BarrierId)
             : T.Wait == ThreadWait::Rejoin
                 ? std::string(" where its wavefront's paths rejoin")
                 : " in a warp-synchronous operation (mask 0x" +
                       [&] {
                         char Hex[16];
                         snprintf(Hex, sizeof(Hex), "%llx",
                                  (unsigned long long)T.Op.Mask);
                         return std::string(Hex);
                       }() +
                       ")");
  }
  return Text;
}

/// Runs \p T until it waits, yields or exits.
void runTurn(GPUThread &T) {
  CurrentThread = &T;
  T.Spinning = false;
  GPUEMU_SWITCH_FIBER(T.Fiber);
  T.Resume = jump_fcontext(T.Resume, nullptr).fctx;
}

/// Rounds in a row in which, while some lane waits to rejoin its AMD
/// wavefront, every thread that ran only spun: then nothing in the block
/// can change, unless another block or the host writes what the spinning
/// lanes wait for, which this many rounds (each spinning lane looks at
/// memory 256 times a round) give ample time to do.
constexpr uint32_t LockstepDeadlockRounds = 1 << 14;

void fail(BlockState &Block, std::string Message) {
  Block.Failed = true;
  Block.FailureCode = offload::cuda_abi::CUDA_ERROR_LAUNCH_FAILED;
  Block.FailureMessage = std::move(Message);
}

/// What follows a round of \p Block in which a thread ran if \p Ran, and
/// one ended its turn otherwise than spinning if \p Moved: true when
/// another round is due; otherwise the block is done, or deadlocked
/// (recorded as its failure).
bool roundEnds(BlockState &Block, bool Ran, bool Moved) {
  // Rejoins first: a lane released there is on its way, and the activemask
  // of its wavefront's other lanes (a wavefront operation past the branch
  // they skipped, where the GPU runs them together again) waits for it.
  // A lane released from activemask that is on its way into a region still
  // holds that region's rejoin: a rejoin waits while any lane of its
  // wavefront is runnable and not spinning.
  bool Rejoined = Block.RejoinWaiters && releaseRejoinWaiters(Block);
  bool Released = releaseActiveMaskWaiters(Block) || Rejoined;
  if (Block.RejoinWaiters || Rejoined) {
    if (Released || Moved) {
      Block.SpinOnlyRounds = 0;
      return true;
    }
    if (Ran && ++Block.SpinOnlyRounds == LockstepDeadlockRounds) {
      fail(Block, describeLockstepDeadlock(Block));
      return false;
    }
  }
  if (Released || Ran)
    return true;
  if (Block.Live == 0)
    return false;
  fail(Block,
       "deadlock in block " + std::to_string(Block.Id.X) + "," +
           std::to_string(Block.Id.Y) + "," + std::to_string(Block.Id.Z) +
           ": " + std::to_string(Block.Live) +
           " threads wait and none can run (" + describeWaiters(Block) + ")");
  return false;
}

/// Runs a round of \p Block: a turn for each of the \p Count threads
/// \p ThreadAt(0), ThreadAt(1), ... that can run when its turn comes (not
/// when the round starts). The two schedules below differ only in the
/// threads they offer and their order. Returns whether another round is
/// due: false once the block has failed, is done or is deadlocked.
template <typename ThreadAtT>
bool runRound(BlockState &Block, size_t Count, ThreadAtT ThreadAt) {
  bool Ran = false, Moved = false;
  for (size_t I = 0; I < Count; ++I) {
    GPUThread &T = ThreadAt(I);
    if (T.Wait != ThreadWait::None)
      continue;
    runTurn(T);
    Ran = true;
    Moved |= !T.Spinning;
    if (Block.Failed)
      return false;
  }
  return roundEnds(Block, Ran, Moved);
}

/// Runs the threads of \p Block until all have exited or the block fails,
/// each round in index order.
void scheduleBlock(BlockState &Block) {
  auto ThreadAt = [&](size_t I) -> GPUThread & { return Block.Threads[I]; };
  while (runRound(Block, Block.Threads.size(), ThreadAt)) {
  }
}

/// The same, each round in a random order of the threads runnable when it
/// starts (a thread released during the round runs in the next).
void scheduleBlockRandomly(BlockState &Block) {
  auto ThreadAt = [&](size_t I) -> GPUThread & {
    return Block.Threads[Block.Order[I]];
  };
  do {
    Block.Order.clear();
    for (const GPUThread &T : Block.Threads)
      if (T.Wait == ThreadWait::None)
        Block.Order.push_back(T.Index);
    for (size_t I = Block.Order.size(); I > 1; --I)
      std::swap(Block.Order[I - 1], Block.Order[Block.Random.below(I)]);
  } while (runRound(Block, Block.Order.size(), ThreadAt));
}

Dim3 unflatten(uint64_t Linear, const Dim3 &Dims) {
  Dim3 D;
  D.X = uint32_t(Linear % Dims.X);
  D.Y = uint32_t(Linear / Dims.X % Dims.Y);
  D.Z = uint32_t(Linear / (uint64_t(Dims.X) * Dims.Y));
  return D;
}

/// Prepares \p Block as block \p Linear of the grid, with fresh contexts.
void startBlock(BlockState &Block, const LaunchConfig &Config, uint64_t Linear,
                ThreadStacks &Stacks) {
  Block.Id = unflatten(Linear, Config.Grid);
  Block.Live = uint32_t(Block.Threads.size());
  Block.Failed = false;
  for (HardwareBarrier &B : Block.Barriers)
    B = HardwareBarrier();
  std::fill(Block.WarpWaiting.begin(), Block.WarpWaiting.end(), 0);
  std::fill(Block.WarpExited.begin(), Block.WarpExited.end(), 0);
  Block.RejoinWaiters = 0;
  Block.SpinOnlyRounds = 0;
  for (GPUThread &T : Block.Threads) {
    T.Wait = ThreadWait::None;
    T.Regions.clear();
    T.Spinning = false;
    T.WaveOpPending = false;
    // make_fcontext takes the top of the stack (it grows down).
    T.Resume = make_fcontext(static_cast<char *>(Stacks.stack(T.Index)) +
                                 Stacks.size(),
                             Stacks.size(), threadMain);
  }
  if (enabledChecks())
    startBlockChecks(
        Block, Config.StaticSharedBytes + Config.DynamicSharedBytes,
        Stacks.stack(0),
        static_cast<char *>(Stacks.stack(Block.Threads.size() - 1)) +
            Stacks.size());
}

unsigned workerCount(uint64_t Blocks) {
  unsigned Workers = std::thread::hardware_concurrency();
  if (const char *Env = std::getenv("GPUEMU_THREADS"))
    Workers = unsigned(std::strtoul(Env, nullptr, 10));
  if (Workers == 0)
    Workers = 1;
  return unsigned(std::min<uint64_t>(Workers, Blocks));
}

struct GridRun {
  const LaunchConfig &Config;
  const ScheduleSettings &Schedule;
  /// The launch's number in the process, which random schedules mix in.
  uint64_t Launch;
  std::atomic<uint64_t> NextBlock{0};
  std::atomic<bool> Failed{false};
  std::mutex Lock;
  LaunchResult Result;
};

void worker(GridRun &Run, unsigned Index, unsigned Workers) {
  const LaunchConfig &Config = Run.Config;
  uint64_t Threads = Config.Block.count();
  ThreadStacks Stacks(Threads, Config.StackBytes);
  // Team-shared memory is not cleared between blocks, as on a GPU: a block
  // sees what the worker's previous block left. The first block sees a
  // pattern rather than zeros, so code that reads before writing is less
  // likely to pass by accident.
  std::vector<char> Shared(
      Config.StaticSharedBytes + Config.DynamicSharedBytes + 16, char(0xa5));
  auto Block = std::make_unique<BlockState>();
  Block->GridDim = Config.Grid;
  Block->BlockDim = Config.Block;
  Block->WarpSize = Config.WarpSize;
  Block->KernelName = Config.KernelName.c_str();
  Block->Shared = Shared.data();
  Block->DynamicSharedBytes = Config.DynamicSharedBytes;
  Block->Worker = Index;
  Block->Workers = Workers;
  Block->Threads.resize(Threads);
  uint64_t Warps = (Threads + Config.WarpSize - 1) / Config.WarpSize;
  Block->WarpWaiting.resize(Warps);
  Block->WarpExited.resize(Warps);
  for (uint64_t I = 0; I < Threads; ++I) {
    Block->Threads[I].Index = uint32_t(I);
    Block->Threads[I].Id = unflatten(I, Config.Block);
#if GPUEMU_TSAN_FIBERS
    Block->Threads[I].Fiber = Stacks.fiber(I);
#endif
  }
#if GPUEMU_TSAN_FIBERS
  Block->SchedulerFiber = __tsan_get_current_fiber();
#endif
  CurrentBlock = Block.get();
  CurrentLaunch = &Config;
  uint64_t Total = Config.Grid.count();
  for (uint64_t Linear; !Run.Failed && (Linear = Run.NextBlock++) < Total;) {
    startBlock(*Block, Config, Linear, Stacks);
    if (Run.Schedule.Random) {
      Block->Random.start(Run.Schedule.Seed, Run.Launch, Linear);
      scheduleBlockRandomly(*Block);
    } else {
      scheduleBlock(*Block);
    }
    if (Block->Failed) {
      std::lock_guard<std::mutex> Guard(Run.Lock);
      if (!Run.Failed.exchange(true))
        Run.Result = {Block->FailureCode, "kernel '" + Config.KernelName +
                                              "': " + Block->FailureMessage};
    }
  }
  CurrentBlock = nullptr;
  CurrentThread = nullptr;
  CurrentLaunch = nullptr;
}

} // namespace

LaunchResult runGrid(const LaunchConfig &Config) {
  static std::atomic<uint64_t> Launches{0};
  GridRun Run{Config, scheduleSettings(), Launches++};
  if (Run.Schedule.Error)
    return {offload::cuda_abi::CUDA_ERROR_INVALID_VALUE,
            "kernel '" + Config.KernelName + "': " + Run.Schedule.Error};
  uint64_t Blocks = Config.Grid.count();
  if (Blocks == 0 || Config.Block.count() == 0)
    return {};
  unsigned Workers = workerCount(Blocks);
  if (Workers == 1) {
    worker(Run, 0, 1);
    return Run.Result;
  }
  std::vector<std::thread> Pool;
  for (unsigned I = 0; I < Workers; ++I)
    Pool.emplace_back(worker, std::ref(Run), I, Workers);
  for (std::thread &T : Pool)
    T.join();
  return Run.Result;
}

} // namespace gpuemu
