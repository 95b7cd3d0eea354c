//===- CPUDeviceLaunch.h - Host plugin <-> CPU device runtime contract ---===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// How the host plugin (offload/plugins/host) launches a GPU-style kernel on
// the CPU device.
//
// Flang (and clang for GPUs) compile a target region as a GPU kernel: every
// thread of every team calls the kernel function, which starts with
// __kmpc_target_init and is described by a `<kernel>_kernel_environment`
// global. On the CPU device those threads are CPU threads managed by our CPU
// device runtime (openmp/device/arch/cpu), which is linked into the device
// image. The plugin cannot create them itself: only the runtime knows how it
// maps teams and threads onto its worker pool. So the plugin looks up
// OMPX_CPU_LAUNCH_SYMBOL in the image and hands it a request; the runtime
// chooses the grid, sets up each thread's identity, and calls Body once on
// every device thread. Body performs the actual call of the kernel function
// with its arguments (the plugin does that with libffi, since the arity is
// only known at run time).
//
// Plain C so both sides, and any future plugin, can include it.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_INCLUDE_CPUDEVICELAUNCH_H
#define OFFLOAD_INCLUDE_CPUDEVICELAUNCH_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Name of the launch entry point the CPU device runtime exports from every
/// device image it is linked into.
#define OMPX_CPU_LAUNCH_SYMBOL "__ompx_cpu_launch_kernel"

/// Version of the request layout; bumped on any change.
#define OMPX_CPU_LAUNCH_VERSION 1u
/// Version 2 appends BareBlock: a request for an `ompx_bare` kernel. Plugins
/// send it only for such kernels, so images linked with a runtime that
/// knows version 1 alone keep running every other kernel.
#define OMPX_CPU_LAUNCH_VERSION_BARE 2u
/// Version 3 appends BareGrid: an `ompx_bare` kernel run on the whole grid
/// of its num_teams(x,y,z) clause (version 2 ran block 0 of a grid of one).
#define OMPX_CPU_LAUNCH_VERSION_BARE_GRID 3u

/// Clang compiles `target teams ompx_bare num_teams(N) thread_limit(M)`
/// for a CPU triple exactly as `target teams num_teams(N) thread_limit(M)`,
/// so the kernel itself cannot tell the plugin it is bare. The CPU
/// device's <ompx.h> (openmp/device/arch/cpu/wrappers/ompx.h) makes the
/// kernel-language functions of device code call runtime functions whose
/// names start with OMPX_CPU_KERNEL_LANGUAGE_PREFIX, and the compile-time
/// pass (llvm/lib/Transforms/BareKernelMarker.cpp) gives every kernel whose
/// teams region calls one (not inside a parallel region) a constant
/// `<kernel>` OMPX_CPU_BARE_KERNEL_SUFFIX global, which the host plugin
/// looks up to launch the kernel bare (its grid of blocks, as below).
#define OMPX_CPU_KERNEL_LANGUAGE_PREFIX "__ompx_cpu_kernel_"
#define OMPX_CPU_BARE_KERNEL_SUFFIX "_ompx_bare"

/// Called by the runtime on every device thread. \p LaunchEnvironment is the
/// kernel's first argument (the `dyn_ptr` of the GPU kernel ABI, a
/// KernelLaunchEnvironmentTy owned by the runtime for this launch).
typedef void (*ompx_cpu_kernel_body_t)(void *Context, void *LaunchEnvironment);

struct ompx_cpu_launch_request {
  /// OMPX_CPU_LAUNCH_VERSION.
  uint32_t Version;
  /// Requested number of teams; 0 lets the runtime choose (kernel
  /// environment, OMP_NUM_TEAMS, the machine).
  uint32_t NumTeams;
  /// Requested threads per team; 0 lets the runtime choose (kernel
  /// environment, OMP_TEAMS_THREAD_LIMIT, the machine).
  uint32_t ThreadLimit;
  uint32_t Reserved;
  /// Bytes of dynamic team-shared memory (ompx_dyn_cgroup_mem).
  uint64_t DynCGroupMemBytes;
  /// The image's `<kernel>_kernel_environment` object
  /// (KernelEnvironmentTy of OMPKinds.def / the device runtime).
  const void *KernelEnvironment;
  /// The kernel's name, for diagnostics.
  const char *KernelName;
  ompx_cpu_kernel_body_t Body;
  void *Context;
  /// Versions 2 and 3: the thread_limit(x,y,z) of an `ompx_bare` kernel
  /// that clang compiled host style (C/C++ for a CPU triple). The CPU
  /// device's <ompx.h> asks the runtime (__ompx_cpu_kernel_*) for a
  /// thread's id and block extent in dimension D, and for the block's id and
  /// the grid's extent. The runtime runs blocks of x*y*z threads with those
  /// ids, and Body's kernel, which forks its teams with __kmpc_fork_teams,
  /// runs the region once on each thread. NumTeams and ThreadLimit are
  /// ignored.
  uint32_t BareBlock[3];
  /// Version 3 only: the num_teams(x,y,z) of the kernel; every block of the
  /// grid runs, each as a team (version 2: block 0 of a grid of one, as
  /// clang's own <ompx.h> host fallbacks report).
  uint32_t BareGrid[3];
};

/// Filled in by the runtime: what the launch actually used.
struct ompx_cpu_launch_result {
  uint32_t NumTeams;
  uint32_t NumThreads;
};

/// Runs the kernel to completion. Returns 0 on success; otherwise non-zero,
/// with a message naming the kernel already printed to stderr.
typedef int (*ompx_cpu_launch_fn_t)(const struct ompx_cpu_launch_request *,
                                    struct ompx_cpu_launch_result *);

/// Host-style kernels launched from inside an active host parallel region
/// ask the host's libomp who they are, which would answer for the host
/// team. The runtime runs them on the calling thread inside a team of one
/// and answers the level queries relative to it
/// (openmp/device/arch/cpu/CPUInPlace.cpp). Images linked with a runtime
/// that predates it lack the symbol.
#define OMPX_CPU_RUN_IN_PLACE_SYMBOL "__ompx_cpu_run_in_place"

typedef void (*ompx_cpu_in_place_body_t)(void *Context);

/// Runs Body(Context) on the calling thread as the device's initial thread
/// and returns 0. Returns non-zero without running it when the host's
/// libomp lacks an entry point this needs, or when libomp would not
/// serialize the kernel's parallel regions (the calling thread's active
/// level is below max-active-levels): their other threads would answer for
/// the host's levels.
typedef int (*ompx_cpu_run_in_place_fn_t)(ompx_cpu_in_place_body_t Body,
                                          void *Context);

#ifdef __cplusplus
}
#endif

#endif // OFFLOAD_INCLUDE_CPUDEVICELAUNCH_H
