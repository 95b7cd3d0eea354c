// Where the CPU device runs a host-style kernel: on the launching thread
// whenever libomp already answers for the device's initial thread there
// (outside parallel regions, and inside inactive ones: `if(0)`, a team of
// one, where only omp_get_level() counts the host's region). From inside an
// active parallel region (a host team, or libomp's hidden helper team,
// which runs `nowait` target tasks when a GPU is among the devices) libomp
// would answer for the host team: the kernel runs on the launching thread
// inside a team of one of its own, with the level queries answered from
// where it started, as long as libomp serializes the kernel's own parallel
// regions (max-active-levels 1, the default). Otherwise, or with
// LIBOMPTARGET_HOST_NESTED_LAUNCH=device-thread, a device initial thread
// runs it. LIBOMPTARGET_DEBUG prints one line per launch saying which;
// every launch also checks what the region sees.
// REQUIRES: our-libomptarget
// RUN: %clang -fopenmp -fopenmp-targets=%target-cpu %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=mandatory OMP_NUM_THREADS=2 LIBOMPTARGET_DEBUG=1 %ours-run %t 2>&1 \
// RUN:   | FileCheck %s --check-prefixes=CHECK,INPLACE --implicit-check-not="device initial thread"
// RUN: env OMP_TARGET_OFFLOAD=mandatory OMP_NUM_THREADS=2 LIBOMPTARGET_DEBUG=1 LIBOMPTARGET_HOST_NESTED_LAUNCH=device-thread %ours-run %t 2>&1 \
// RUN:   | FileCheck %s --check-prefixes=CHECK,THREAD --implicit-check-not="team of one"
// RUN: env OMP_TARGET_OFFLOAD=mandatory OMP_NUM_THREADS=2 LIBOMPTARGET_DEBUG=1 OMP_MAX_ACTIVE_LEVELS=2 %ours-run %t 2>&1 \
// RUN:   | FileCheck %s --check-prefixes=CHECK,THREAD --implicit-check-not="team of one"
// RUN: env OMP_TARGET_OFFLOAD=mandatory OMP_NUM_THREADS=2 LIBOMPTARGET_HOST_NESTED_LAUNCH=bogus %ours-run %t 2>&1 \
// RUN:   | FileCheck %s --check-prefixes=BOGUS
#include <omp.h>
#include <stdio.h>

struct Seen {
  int Thread, Threads, Level, ActiveLevel, InParallel, InnerThreads;
  int Ancestor0, TeamSize0, InnerLevel, InnerAncestorMatches, SingleRan;
};

static struct Seen fromDevice(void) {
  struct Seen S = {-1, -1, -1, -1, -1, 0, -1, -1, -1, -1, 0};
#pragma omp target map(tofrom : S)
  {
    S.Thread = omp_get_thread_num();
    S.Threads = omp_get_num_threads();
    S.Level = omp_get_level();
    S.ActiveLevel = omp_get_active_level();
    S.InParallel = omp_in_parallel();
    S.Ancestor0 = omp_get_ancestor_thread_num(0);
    S.TeamSize0 = omp_get_team_size(0);
    // Binds to the region's own team of one: every launch runs it, even
    // when two host threads launch at once.
#pragma omp single
    S.SingleRan = 1;
#pragma omp barrier
#pragma omp parallel num_threads(2)
    {
#pragma omp single
      {
        S.InnerThreads = omp_get_num_threads();
        S.InnerLevel = omp_get_level();
        S.InnerAncestorMatches =
            omp_get_ancestor_thread_num(omp_get_level()) ==
                omp_get_thread_num() &&
            omp_get_team_size(omp_get_level()) == omp_get_num_threads();
      }
    }
  }
  return S;
}

// Markers and results go to stderr, in order with the runtime's lines.
static void report(const char *Where, struct Seen S) {
  fprintf(stderr,
          "=== %s: device thread %d of %d, level %d, active level %d, in "
          "parallel %d, ancestor(0) %d, team size(0) %d, single %d, inner "
          "team %d at level %d, inner ancestor ok %d\n",
          Where, S.Thread, S.Threads, S.Level, S.ActiveLevel, S.InParallel,
          S.Ancestor0, S.TeamSize0, S.SingleRan, S.InnerThreads, S.InnerLevel,
          S.InnerAncestorMatches);
}

int main(void) {
  struct Seen S = fromDevice();
  report("main thread", S);
  // CHECK: host plugin: kernel {{.*}} runs on the launching thread (host level 0, active level 0)
  // CHECK: === main thread: device thread 0 of 1, level 0, active level 0, in parallel 0, ancestor(0) 0, team size(0) 1, single 1, inner team [[T:[12]]] at level 1, inner ancestor ok 1

#pragma omp parallel if (0)
  S = fromDevice();
  report("parallel if(0)", S);
  // An inactive region: thread 0 of 1 and not in parallel are already the
  // device's answers, and the kernel's `parallel` is active (only the level
  // counts the host's inactive region).
  // CHECK: host plugin: kernel {{.*}} runs on the launching thread (host level 1, active level 0)
  // CHECK: === parallel if(0): device thread 0 of 1, level 1, active level 0, in parallel 0, ancestor(0) 0, team size(0) 1, single 1, inner team [[T]] at level 2, inner ancestor ok 1

#pragma omp parallel num_threads(1)
  S = fromDevice();
  report("num_threads(1)", S);
  // CHECK: host plugin: kernel {{.*}} runs on the launching thread (host level 1, active level 0)
  // CHECK: === num_threads(1): device thread 0 of 1, level 1, active level 0, in parallel 0, ancestor(0) 0, team size(0) 1, single 1, inner team [[T]] at level 2, inner ancestor ok 1

  struct Seen Team[2];
#pragma omp parallel num_threads(2)
  Team[omp_get_thread_num()] = fromDevice();
  report("host thread 0", Team[0]);
  report("host thread 1", Team[1]);
  // In place, the kernel's `parallel` is nested in the host's active one
  // and serialized, as on upstream's runtime; a device initial thread gives
  // it a team of its own (also when OMP_MAX_ACTIVE_LEVELS would let it
  // have one in place, whose other threads would answer for the host).
  // INPLACE-COUNT-2: host plugin: kernel {{.*}} runs on the launching thread in a team of one (host level 1, active level 1)
  // THREAD-COUNT-2: host plugin: kernel {{.*}} runs on a device initial thread (host level 1, active level 1)
  // INPLACE: === host thread 0: device thread 0 of 1, level 0, active level 0, in parallel 0, ancestor(0) 0, team size(0) 1, single 1, inner team 1 at level 1, inner ancestor ok 1
  // INPLACE: === host thread 1: device thread 0 of 1, level 0, active level 0, in parallel 0, ancestor(0) 0, team size(0) 1, single 1, inner team 1 at level 1, inner ancestor ok 1
  // THREAD: === host thread 0: device thread 0 of 1, level 0, active level 0, in parallel 0, ancestor(0) 0, team size(0) 1, single 1, inner team [[T]] at level 1, inner ancestor ok 1
  // THREAD: === host thread 1: device thread 0 of 1, level 0, active level 0, in parallel 0, ancestor(0) 0, team size(0) 1, single 1, inner team [[T]] at level 1, inner ancestor ok 1

  // After an in-place kernel the host team's thread answers for the host
  // again.
  int HostThread[2] = {-1, -1}, HostLevel[2] = {-1, -1};
#pragma omp parallel num_threads(2)
  {
    fromDevice();
    HostThread[omp_get_thread_num()] = omp_get_thread_num();
    HostLevel[omp_get_thread_num()] = omp_get_level();
  }
  fprintf(stderr, "=== host team after kernels: threads %d %d, levels %d %d\n",
          HostThread[0], HostThread[1], HostLevel[0], HostLevel[1]);
  // CHECK: === host team after kernels: threads 0 1, levels 1 1

  // A target task is an ordinary task when every device is the CPU device
  // (libomp's hidden helpers are off: target-nowait-cpu-only.c), so outside
  // any parallel region it runs at once on the launching thread.
  int Thread = -1, Threads = -1, Level = -1;
#pragma omp target nowait map(from : Thread, Threads, Level) depend(out : Thread)
  {
    Thread = omp_get_thread_num();
    Threads = omp_get_num_threads();
    Level = omp_get_level();
  }
#pragma omp taskwait
  fprintf(stderr, "=== target task: device thread %d of %d, level %d\n",
          Thread, Threads, Level);
  // CHECK: host plugin: kernel {{.*}} runs on the launching thread (host level 0, active level 0)
  // CHECK: === target task: device thread 0 of 1, level 0
  // CHECK-NOT: host plugin: kernel
  return 0;
}
// BOGUS: omptarget warning: ignoring LIBOMPTARGET_HOST_NESTED_LAUNCH='bogus' (expected 'in-place' or 'device-thread')
// BOGUS: === host thread 1: device thread 0 of 1, level 0, active level 0, in parallel 0, ancestor(0) 0, team size(0) 1, single 1, inner team 1 at level 1
