//===- CPULaunch.cpp - The worker pool and __ompx_cpu_launch_kernel -------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The host plugin calls __ompx_cpu_launch_kernel (CPUDeviceLaunch.h) for a
// GPU-style kernel. We pick the grid, hand every device thread its identity
// and call the plugin's Body on it. Device threads are pthreads of a pool
// that lives as long as the image; launches are serialized.
//
//===----------------------------------------------------------------------===//

#include "CPUDevice.h"
#include "CPUDeviceLaunch.h"
#include "DeviceRuntime.h"

#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

using namespace ompx;
using namespace ompx::cpu;

namespace ompx {
namespace cpu {
struct Launch {
  const ompx_cpu_launch_request *Request;
  KernelLaunchEnvironmentTy LaunchEnv;
  uint32_t NumTeams;
  uint32_t NumThreads;
  uint32_t NumGroups;
  Group *Groups;
  /// Device threads still running; the launcher sleeps on it.
  uint32_t Running;
  /// The block of an ompx_bare kernel; BareBlock[0] is 0 in other launches.
  uint32_t BareBlock[3];
  /// Its grid of blocks (teams); all ones for a version 2 request.
  uint32_t BareGrid[3];
};
} // namespace cpu
} // namespace ompx

namespace {

/// Most threads per team and teams per launch we accept.
constexpr uint32_t MaxThreadsPerTeam = 1024;
constexpr uint32_t MaxTeams = 1u << 20;
/// The thread bound Flang and clang give a CPU kernel without a clause.
constexpr uint32_t CompilerDefaultThreadBound = 256;
/// Team scratch memory per thread (for __kmpc_alloc_shared), and minimum.
constexpr size_t ScratchPerThread = 4096;
constexpr size_t MinScratch = 64 * 1024;

struct Worker {
  pthread_t Thread;
  /// Bumped by the launcher for each job; the worker sleeps on it.
  uint32_t JobSerial;
  Launch *Job;
  uint32_t Index;
  bool Stop;
  DeviceThread Self;
};

pthread_mutex_t LaunchMutex = PTHREAD_MUTEX_INITIALIZER;
Worker **Workers = nullptr;
uint32_t NumWorkers = 0;

void futexWait(uint32_t *Word, uint32_t Expected) {
  syscall(SYS_futex, Word, FUTEX_WAIT_PRIVATE, Expected, nullptr, nullptr, 0);
}
void futexWake(uint32_t *Word, int Count) {
  syscall(SYS_futex, Word, FUTEX_WAKE_PRIVATE, Count, nullptr, nullptr, 0);
}

/// A positive integer from the environment, or 0.
uint32_t envCount(const char *Name) {
  const char *Value = getenv(Name);
  if (!Value || !*Value)
    return 0;
  char *End;
  long N = strtol(Value, &End, 10);
  return (*End == 0 && N > 0 && N <= INT_MAX) ? uint32_t(N) : 0;
}

/// OMP_STACKSIZE (bytes, or with a B/K/M/G suffix; K is the default unit),
/// or 0 when unset or unreadable.
size_t envStackSize() {
  const char *Value = getenv("OMP_STACKSIZE");
  if (!Value || !*Value)
    return 0;
  char *End;
  unsigned long long N = strtoull(Value, &End, 10);
  size_t Unit = 1024;
  switch (*End) {
  case 'b':
  case 'B':
    Unit = 1;
    ++End;
    break;
  case 'k':
  case 'K':
    Unit = 1024;
    ++End;
    break;
  case 'm':
  case 'M':
    Unit = 1024 * 1024;
    ++End;
    break;
  case 'g':
  case 'G':
    Unit = 1024 * 1024 * 1024;
    ++End;
    break;
  default:
    break;
  }
  return *End == 0 ? size_t(N) * Unit : 0;
}

/// The kernel environment a bare kernel lacks: it runs as an SPMD team, so
/// `omp barrier` (the fallback of ompx_sync_block) waits for the block.
const KernelEnvironmentTy BareKernelEnvironment = [] {
  KernelEnvironmentTy Env{};
  Env.Configuration.ExecMode = ExecModeSPMD;
  Env.Configuration.MinThreads = -1;
  Env.Configuration.MaxThreads = -1;
  Env.Configuration.MinTeams = -1;
  Env.Configuration.MaxTeams = -1;
  return Env;
}();

/// Gives the thread its 3-D id in a bare kernel's block (x fastest, as a
/// GPU numbers the threads of a block).
void setBareIdentity(DeviceThread &T, const Launch &L) {
  for (int D = 0; D < 3; ++D) {
    T.BareExtent[D] = L.BareBlock[D];
    T.BareGrid[D] = L.BareGrid[D];
  }
  if (!L.BareBlock[0])
    return;
  T.BareId[0] = T.ThreadId % L.BareBlock[0];
  T.BareId[1] = T.ThreadId / L.BareBlock[0] % L.BareBlock[1];
  T.BareId[2] = T.ThreadId / (L.BareBlock[0] * L.BareBlock[1]);
}

/// Runs the kernel once on the calling device thread. A bare kernel was
/// compiled host style and never calls __kmpc_target_init: its team is set
/// up here.
void runBody(Launch &L) {
  if (!L.BareBlock[0]) {
    L.Request->Body(L.Request->Context, &L.LaunchEnv);
    return;
  }
  __kmpc_target_init(const_cast<KernelEnvironmentTy *>(&BareKernelEnvironment),
                     &L.LaunchEnv);
  L.Request->Body(L.Request->Context, &L.LaunchEnv);
  __kmpc_target_deinit();
}

/// Runs this worker's share of the launch: its teams, one after another.
void runJob(Worker &W, Launch &L) {
  uint32_t GroupIndex = W.Index / L.NumThreads;
  DeviceThread &T = W.Self;
  T.MyGroup = &L.Groups[GroupIndex];
  T.MyLaunch = &L;
  T.ThreadId = W.Index % L.NumThreads;
  T.NumThreads = L.NumThreads;
  T.NumTeams = L.NumTeams;
  setBareIdentity(T, L);
  T.StackUsed = 0;
  arch::CurrentDeviceThread = &T;
  for (uint32_t Team = GroupIndex; Team < L.NumTeams; Team += L.NumGroups) {
    T.TeamId = Team;
    // Each team starts outside any region (kernels that skip
    // __kmpc_target_init included: ompx_bare), with the initial ICVs and no
    // loop or taskgroup.
    T.State = ThreadState();
    initThreadExtras(T.Extras);
    runBody(L);
    // The group's state is reused by its next team: nobody may start that
    // team while a thread is still in this one.
    barrierWait(T.MyGroup->Barriers[2], L.NumThreads);
  }
  arch::CurrentDeviceThread = nullptr;
}

void *workerMain(void *Arg) {
  Worker &W = *static_cast<Worker *>(Arg);
  uint32_t Seen = 0;
  for (;;) {
    uint32_t Serial;
    while ((Serial = __atomic_load_n(&W.JobSerial, __ATOMIC_ACQUIRE)) == Seen)
      futexWait(&W.JobSerial, Seen);
    Seen = Serial;
    if (__atomic_load_n(&W.Stop, __ATOMIC_ACQUIRE))
      return nullptr;
    Launch &L = *W.Job;
    runJob(W, L);
    if (__atomic_sub_fetch(&L.Running, 1, __ATOMIC_ACQ_REL) == 0)
      futexWake(&L.Running, 1);
  }
}

/// Grows the pool to \p Count workers. Returns an errno value.
int ensureWorkers(uint32_t Count) {
  if (Count <= NumWorkers)
    return 0;
  Worker **Grown =
      static_cast<Worker **>(realloc(Workers, Count * sizeof(Worker *)));
  if (!Grown)
    return ENOMEM;
  Workers = Grown;
  pthread_attr_t Attr;
  pthread_attr_init(&Attr);
  size_t Stack = envStackSize();
  if (Stack >= size_t(PTHREAD_STACK_MIN))
    pthread_attr_setstacksize(&Attr, Stack);
  int Error = 0;
  while (NumWorkers < Count) {
    Worker *W = static_cast<Worker *>(calloc(1, sizeof(Worker)));
    if (!W) {
      Error = ENOMEM;
      break;
    }
    W->Index = NumWorkers;
    Error = pthread_create(&W->Thread, &Attr, workerMain, W);
    if (Error) {
      free(W);
      break;
    }
    Workers[NumWorkers++] = W;
  }
  pthread_attr_destroy(&Attr);
  return Error;
}

struct Grid {
  uint32_t NumTeams;
  uint32_t NumThreads;
};

/// Chooses teams and threads: an explicit request wins, then the
/// environment, then the machine; the kernel's own bounds always hold.
Grid chooseGrid(const ompx_cpu_launch_request &Request,
                const ConfigurationEnvironmentTy *Config) {
  uint32_t Procs = arch::numProcessors();
  Grid G;
  G.NumThreads = Request.ThreadLimit;
  if (!G.NumThreads)
    G.NumThreads = envCount("OMP_TEAMS_THREAD_LIMIT");
  if (!G.NumThreads) {
    // At least two, so parallel regions are parallel even on one processor.
    G.NumThreads = Procs > 2 ? Procs : 2;
    // The compilers put a num_threads or thread_limit clause into the
    // kernel's bound (Flang passes no thread limit to the launch); a bound
    // below their default is such a clause, and it is honoured exactly.
    if (Config && Config->MaxThreads > 0 &&
        uint32_t(Config->MaxThreads) < CompilerDefaultThreadBound)
      G.NumThreads = uint32_t(Config->MaxThreads);
  }
  if (Config && Config->MaxThreads > 0 &&
      G.NumThreads > uint32_t(Config->MaxThreads))
    G.NumThreads = uint32_t(Config->MaxThreads);
  if (Config && Config->MinThreads > 0 &&
      G.NumThreads < uint32_t(Config->MinThreads) && !Request.ThreadLimit)
    G.NumThreads = uint32_t(Config->MinThreads);
  if (G.NumThreads > MaxThreadsPerTeam)
    G.NumThreads = MaxThreadsPerTeam;

  G.NumTeams = Request.NumTeams;
  bool IsTeamsKernel = !Config || Config->MaxTeams >= 0;
  if (!G.NumTeams && IsTeamsKernel && Config && Config->MaxTeams > 0)
    G.NumTeams = uint32_t(Config->MaxTeams);
  if (!G.NumTeams && IsTeamsKernel)
    G.NumTeams = envCount("OMP_NUM_TEAMS");
  if (!G.NumTeams)
    G.NumTeams =
        IsTeamsKernel && Procs > G.NumThreads ? Procs / G.NumThreads : 1;
  if (G.NumTeams > MaxTeams)
    G.NumTeams = MaxTeams;
  return G;
}

void freeGroups(Group *Groups, uint32_t Count) {
  if (!Groups)
    return;
  for (uint32_t I = 0; I < Count; ++I) {
    free(Groups[I].Scratch);
    free(Groups[I].DynamicShared);
  }
  free(Groups);
}

/// Stops the pool when the image is unloaded, unless a kernel is still
/// running (then the process is exiting from inside it: leave the threads).
__attribute__((destructor)) void stopWorkers() {
  if (pthread_mutex_trylock(&LaunchMutex) != 0)
    return;
  for (uint32_t I = 0; I < NumWorkers; ++I) {
    __atomic_store_n(&Workers[I]->Stop, true, __ATOMIC_RELEASE);
    __atomic_add_fetch(&Workers[I]->JobSerial, 1, __ATOMIC_ACQ_REL);
    futexWake(&Workers[I]->JobSerial, 1);
  }
  for (uint32_t I = 0; I < NumWorkers; ++I) {
    pthread_join(Workers[I]->Thread, nullptr);
    free(Workers[I]);
  }
  free(Workers);
  Workers = nullptr;
  NumWorkers = 0;
  pthread_mutex_unlock(&LaunchMutex);
}

int fail(const ompx_cpu_launch_request *Request, const char *Message,
         int Error = 0) {
  const char *Kernel =
      Request && Request->KernelName ? Request->KernelName : "<unnamed>";
  if (Error)
    fprintf(stderr, "ompdevice: cannot launch kernel '%s': %s (%s)\n", Kernel,
            Message, strerror(Error));
  else
    fprintf(stderr, "ompdevice: cannot launch kernel '%s': %s\n", Kernel,
            Message);
  return 1;
}

const char *modeName(const KernelEnvironmentTy *Env) {
  if (!Env)
    return "unknown";
  switch (Env->Configuration.ExecMode) {
  case ExecModeBare:
    return "bare";
  case ExecModeGeneric:
    return "generic";
  case ExecModeSPMD:
    return "SPMD";
  case ExecModeGenericSPMD:
    return Env->Configuration.UseGenericStateMachine
               ? "generic-SPMD (run as generic)"
               : "generic-SPMD";
  case ExecModeSPMDNoLoop:
    return "SPMD-no-loop";
  default:
    return "unknown";
  }
}

/// Whether \p Request is for an ompx_bare kernel (versions 2 and 3).
bool isBareRequest(const ompx_cpu_launch_request &Request) {
  return Request.Version == OMPX_CPU_LAUNCH_VERSION_BARE ||
         Request.Version == OMPX_CPU_LAUNCH_VERSION_BARE_GRID;
}

/// The request's grid of blocks: BareGrid's (version 3), or block 0 of a
/// grid of one (version 2). Zero when an extent is zero.
uint64_t bareBlocks(const ompx_cpu_launch_request &Request, uint32_t *Out) {
  uint64_t Blocks = 1;
  for (int D = 0; D < 3; ++D) {
    Out[D] = Request.Version == OMPX_CPU_LAUNCH_VERSION_BARE_GRID
                 ? Request.BareGrid[D]
                 : 1;
    Blocks *= Out[D];
  }
  return Blocks;
}

/// Blocks of BareBlock's threads, one team each, over the request's grid
/// (see CPUDeviceLaunch.h). Null, or why not.
const char *chooseBareGrid(const ompx_cpu_launch_request &Request, Grid &G) {
  uint64_t Threads = 1;
  for (uint32_t Extent : Request.BareBlock)
    Threads *= Extent;
  if (Threads == 0)
    return "an ompx_bare block with a zero thread_limit extent";
  if (Threads > MaxThreadsPerTeam)
    return "an ompx_bare block of more than 1024 threads (the product of "
           "the thread_limit extents)";
  uint32_t Extents[3];
  uint64_t Blocks = bareBlocks(Request, Extents);
  if (Blocks == 0)
    return "an ompx_bare grid with a zero num_teams extent";
  if (Blocks > MaxTeams)
    return "an ompx_bare grid of more than 2^20 blocks (the product of the "
           "num_teams extents)";
  G.NumTeams = uint32_t(Blocks);
  G.NumThreads = uint32_t(Threads);
  return nullptr;
}

/// Checks \p Request and chooses its grid. Null, or why it cannot run.
const char *checkRequest(const ompx_cpu_launch_request *Request, Grid &G) {
  if (!Request)
    return "no launch request";
  bool Bare = isBareRequest(*Request);
  if (Request->Version != OMPX_CPU_LAUNCH_VERSION && !Bare)
    return "launch request version does not match the device runtime "
           "(plugin and image from different builds?)";
  if (!Request->Body)
    return "launch request without a kernel body";
  if (arch::isDeviceThread())
    return "launch from inside a device kernel";
  if (Bare)
    return chooseBareGrid(*Request, G);
  const KernelEnvironmentTy *Env =
      static_cast<const KernelEnvironmentTy *>(Request->KernelEnvironment);
  G = chooseGrid(*Request, Env ? &Env->Configuration : nullptr);
  return nullptr;
}

} // namespace

const char *cpu::currentKernelName() {
  auto *T = static_cast<DeviceThread *>(arch::CurrentDeviceThread);
  if (T && T->MyLaunch && T->MyLaunch->Request->KernelName)
    return T->MyLaunch->Request->KernelName;
  return "<none>";
}

extern "C" __attribute__((visibility("default"))) int
__ompx_cpu_launch_kernel(const ompx_cpu_launch_request *Request,
                         ompx_cpu_launch_result *Result) {
  Grid G;
  if (const char *Refused = checkRequest(Request, G))
    return fail(Request, Refused);
  const KernelEnvironmentTy *Env =
      static_cast<const KernelEnvironmentTy *>(Request->KernelEnvironment);
  bool Bare = isBareRequest(*Request);
  uint32_t Procs = arch::numProcessors();
  uint32_t NumGroups = Procs / G.NumThreads;
  if (NumGroups < 1)
    NumGroups = 1;
  if (NumGroups > G.NumTeams)
    NumGroups = G.NumTeams;

  Launch L = {};
  L.Request = Request;
  L.NumTeams = G.NumTeams;
  L.NumThreads = G.NumThreads;
  L.NumGroups = NumGroups;
  for (int D = 0; D < 3 && Bare; ++D)
    L.BareBlock[D] = Request->BareBlock[D];
  if (Bare)
    bareBlocks(*Request, L.BareGrid);
  L.Groups = static_cast<Group *>(calloc(NumGroups, sizeof(Group)));
  if (!L.Groups)
    return fail(Request, "out of memory for team state", ENOMEM);
  size_t Scratch = size_t(G.NumThreads) * ScratchPerThread;
  if (Scratch < MinScratch)
    Scratch = MinScratch;
  for (uint32_t I = 0; I < NumGroups; ++I) {
    Group &Grp = L.Groups[I];
    Grp.Scratch = static_cast<char *>(malloc(Scratch));
    Grp.ScratchSize = Grp.Scratch ? Scratch : 0;
    if (Request->DynCGroupMemBytes) {
      Grp.DynamicShared =
          static_cast<char *>(calloc(1, Request->DynCGroupMemBytes));
      if (!Grp.DynamicShared) {
        freeGroups(L.Groups, NumGroups);
        return fail(Request, "out of memory for dynamic team memory", ENOMEM);
      }
      Grp.DynamicSharedSize = Request->DynCGroupMemBytes;
    }
  }

  if (envCount("LIBOMPTARGET_DEVICE_RTL_DEBUG"))
    fprintf(stderr,
            "ompdevice: launching kernel '%s': %u team(s) of %u thread(s) "
            "on %u group(s), %s mode\n",
            Request->KernelName ? Request->KernelName : "<unnamed>", G.NumTeams,
            G.NumThreads, NumGroups, Bare ? "bare" : modeName(Env));

  pthread_mutex_lock(&LaunchMutex);
  uint32_t Threads = NumGroups * G.NumThreads;
  if (int Error = ensureWorkers(Threads)) {
    pthread_mutex_unlock(&LaunchMutex);
    freeGroups(L.Groups, NumGroups);
    return fail(Request, "cannot start device threads", Error);
  }
  L.Running = Threads;
  for (uint32_t I = 0; I < Threads; ++I) {
    Worker &W = *Workers[I];
    W.Job = &L;
    __atomic_add_fetch(&W.JobSerial, 1, __ATOMIC_ACQ_REL);
    futexWake(&W.JobSerial, 1);
  }
  uint32_t Running;
  while ((Running = __atomic_load_n(&L.Running, __ATOMIC_ACQUIRE)) != 0)
    futexWait(&L.Running, Running);
  pthread_mutex_unlock(&LaunchMutex);

  freeGroups(L.Groups, NumGroups);
  if (Result) {
    Result->NumTeams = G.NumTeams;
    Result->NumThreads = G.NumThreads;
  }
  return 0;
}
