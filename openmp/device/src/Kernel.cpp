//===- Kernel.cpp - Kernel start and end, generic-mode state machine -----===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Every thread of every team calls the kernel, and the kernel first calls
// __kmpc_target_init. In SPMD mode all threads then run the user code. In
// generic mode only the main thread does; workers wait inside
// __kmpc_target_init for parallel regions the main thread hands them
// (Parallel.cpp) until __kmpc_target_deinit releases them, and the threads
// that share the main thread's warp on an architecture with lockstep warps
// leave at once (GenericLayout in State.h says who is who).
//
//===----------------------------------------------------------------------===//

#include "Debug.h"
#include "Interface.h"
#include "Parallel.h"
#include "State.h"

using namespace ompx;

namespace {

/// Whether every thread runs the kernel's user code. "Generic-SPMD" (both
/// mode bits) means two different things: a generic kernel that the
/// optimizer (OpenMPOpt) made safe to run on every thread, which then no
/// longer needs the state machine; and what Flang emits for `teams
/// distribute` around a `parallel`, which still asks for the state machine
/// and whose team-level code (privatized variables, stores after the inner
/// region) is correct only when one thread per team runs it.
/// (The compilers always pass the kernel's environment, a constant. No test
/// of it for null here: on AMD GPUs the optimizer cannot fold a global's
/// address compared with a converted null pointer, and the test kept every
/// SPMD kernel's worker loop, with its indirect region call, alive.)
bool isSPMDMode(const KernelEnvironmentTy *Env) {
  if (!(Env->Configuration.ExecMode & ExecModeSPMD))
    return false;
  return Env->Configuration.ExecMode != ExecModeGenericSPMD ||
         !Env->Configuration.UseGenericStateMachine;
}

/// The worker side of the generic-mode state machine: wait for a region,
/// run it when selected, report back, until the kernel is done.
void runWorkerLoop(TeamState &Team, uint32_t Participants) {
  GenericWork &Work = arch::genericWork();
  uint32_t Tid = arch::threadIdInBlock();
  for (;;) {
    // Wait for the main thread to publish work (or the end of the kernel).
    arch::barrier(arch::BlockBarrier, Participants);
    if (atomic::load(&Team.KernelDone))
      return;
    // Region members are threads 0..WorkTeamSize-1, numbered by their id.
    if (Tid < Team.WorkTeamSize)
      runRegionAsMember(Work.Fn, Work.Args, uint64_t(uintptr_t(Work.Args[-1])),
                        Tid);
    // Tell the main thread this region is finished.
    arch::barrier(arch::BlockBarrier, Participants);
  }
}

} // namespace

extern "C" OMPX_HOT int32_t __kmpc_target_init(
    KernelEnvironmentTy *KernelEnv, KernelLaunchEnvironmentTy *LaunchEnv) {
  TeamState &Team = arch::teamState();
  uint32_t Tid = arch::threadIdInBlock();
  uint32_t BlockSize = arch::numThreadsInBlock();
  OMPX_ASSERT(KernelEnv, "__kmpc_target_init without a kernel environment");
  bool SPMD = isSPMDMode(KernelEnv);
  OMPX_ASSERT(Tid < BlockSize && arch::blockId() < arch::numBlocks(),
              "thread or block id outside the launch's grid");

  arch::initThreadState();
  if (Tid == 0) {
    arch::initTeam();
    Team.LaunchEnv = LaunchEnv;
    Team.IsSPMD = SPMD;
    Team.WorkTeamSize = 0;
    Team.KernelDone = 0;
    Team.WorkSerial = 0;
    // Only a generic kernel names its GenericWork (the constant kernel
    // environment folds the test), so an SPMD kernel has none.
    if (!SPMD) {
      GenericWork &Work = arch::genericWork();
      Work.Fn = nullptr;
      Work.Wrapper = nullptr;
      Work.Args = nullptr;
    }
  }
  // Nobody looks at the team state before thread 0 has set it up.
  arch::barrier(arch::BlockBarrier, BlockSize);

  if (SPMD)
    return -1;
  GenericLayout Layout = genericLayout(BlockSize, arch::warpSize());
  GenericRole Role = genericRole(Layout, Tid);
  if (Role == GenericRole::Main)
    return -1;
  // Idle threads return a thread id, which ends the kernel for them (the
  // compiler's code runs user code only on -1). A kernel the compiler gave
  // its own ("custom") state machine lets the workers through to run it;
  // an idle thread that enters it is sent away by __kmpc_kernel_parallel.
  if (Role == GenericRole::Idle ||
      !KernelEnv->Configuration.UseGenericStateMachine)
    return int32_t(Tid);
  runWorkerLoop(Team, Layout.StateMachineThreads);
  return int32_t(Tid);
}

extern "C" OMPX_HOT void __kmpc_target_deinit() {
  TeamState &Team = arch::teamState();
  OMPX_ASSERT(arch::threadState().Level == 0,
              "__kmpc_target_deinit inside a parallel region");
  if (isSPMDMode()) {
    arch::endThreadExtras();
    return;
  }
  GenericLayout Layout = teamLayout();
  if (arch::threadIdInBlock() != Layout.MainThreadId)
    return;
  arch::endThreadExtras();
  // The main thread of a generic kernel releases the waiting workers, if
  // any are left (Arch.h, barrierArrive).
  atomic::store(&Team.KernelDone, uint8_t(1));
  arch::barrierArrive(arch::BlockBarrier, Layout.StateMachineThreads);
}

// The team's mode as __kmpc_target_init stored it. Never inlined on GPUs,
// so that a call OpenMPOpt could not fold (in a region reached through a
// hidden pointer, Parallel.h) is still a call when the last step of the
// device compile or link (the offload DirectRegionCalls transform) has
// inlined the region into its kernel: that step folds it to the kernel's
// mode and inlines the calls it leaves. OpenMPOpt takes noinline off the
// runtime entry points it knows, __kmpc_is_spmd_exec_mode among them, hence
// a function of its own.
#if defined(__NVPTX__) || defined(__AMDGPU__)
#define OMPX_MODE_QUERY_ATTRS __attribute__((noinline))
#else
#define OMPX_MODE_QUERY_ATTRS
#endif
extern "C" OMPX_MODE_QUERY_ATTRS int8_t __ompx_team_is_spmd() {
  return arch::teamState().IsSPMD;
}
#undef OMPX_MODE_QUERY_ATTRS

extern "C" int8_t __kmpc_is_spmd_exec_mode() { return __ompx_team_is_spmd(); }

extern "C" int8_t __kmpc_is_generic_main_thread(int32_t Tid) {
  return !isSPMDMode() && uint32_t(Tid) == teamLayout().MainThreadId;
}

extern "C" uint32_t __kmpc_get_hardware_thread_id_in_block() {
  return arch::threadIdInBlock();
}
extern "C" uint32_t __kmpc_get_hardware_num_threads_in_block() {
  return arch::numThreadsInBlock();
}
extern "C" uint32_t __kmpc_get_hardware_num_blocks() {
  return arch::numBlocks();
}
