// Where the CPU device runs a host-style kernel: on the launching thread
// whenever libomp already answers for the device's initial thread there
// (outside parallel regions, and inside inactive ones: `if(0)`, a team of
// one), and on a device initial thread only from inside an active parallel
// region (a host team, or libomp's hidden helper team, which runs `nowait`
// target tasks when a GPU is among the devices). LIBOMPTARGET_DEBUG prints
// one line per launch saying which; every launch also checks what the
// region sees.
// REQUIRES: our-libomptarget
// RUN: %clang -fopenmp -fopenmp-targets=%target-cpu %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=mandatory OMP_NUM_THREADS=2 LIBOMPTARGET_DEBUG=1 %ours-run %t 2>&1 | FileCheck %s
#include <omp.h>
#include <stdio.h>

struct Seen {
  int Thread, Threads, Level, InParallel, InnerThreads;
};

static struct Seen fromDevice(void) {
  struct Seen S = {-1, -1, -1, -1, 0};
#pragma omp target map(from : S)
  {
    S.Thread = omp_get_thread_num();
    S.Threads = omp_get_num_threads();
    S.Level = omp_get_level();
    S.InParallel = omp_in_parallel();
#pragma omp parallel num_threads(2)
    {
#pragma omp single
      S.InnerThreads = omp_get_num_threads();
    }
  }
  return S;
}

// Markers and results go to stderr, in order with the runtime's lines.
static void report(const char *Where, struct Seen S) {
  fprintf(stderr,
          "=== %s: device thread %d of %d, level %d, in parallel %d, inner "
          "team %d\n",
          Where, S.Thread, S.Threads, S.Level, S.InParallel, S.InnerThreads);
}

int main(void) {
  struct Seen S = fromDevice();
  report("main thread", S);
  // CHECK: host plugin: kernel {{.*}} runs on the launching thread (host level 0, active level 0)
  // CHECK: === main thread: device thread 0 of 1, level 0, in parallel 0, inner team [[T:[12]]]

#pragma omp parallel if (0)
  S = fromDevice();
  report("parallel if(0)", S);
  // An inactive region: thread 0 of 1 and not in parallel are already the
  // device's answers, and the kernel's `parallel` is active (only the level
  // counts the host's inactive region).
  // CHECK: host plugin: kernel {{.*}} runs on the launching thread (host level 1, active level 0)
  // CHECK: === parallel if(0): device thread 0 of 1, level 1, in parallel 0, inner team [[T]]

#pragma omp parallel num_threads(1)
  S = fromDevice();
  report("team of one", S);
  // CHECK: host plugin: kernel {{.*}} runs on the launching thread (host level 1, active level 0)
  // CHECK: === team of one: device thread 0 of 1, level 1, in parallel 0, inner team [[T]]

  struct Seen Team[2];
#pragma omp parallel num_threads(2)
  Team[omp_get_thread_num()] = fromDevice();
  report("host thread 0", Team[0]);
  report("host thread 1", Team[1]);
  // CHECK: host plugin: kernel {{.*}} runs on a device initial thread (host level 1, active level 1)
  // CHECK: host plugin: kernel {{.*}} runs on a device initial thread (host level 1, active level 1)
  // CHECK: === host thread 0: device thread 0 of 1, level 0, in parallel 0, inner team [[T]]
  // CHECK: === host thread 1: device thread 0 of 1, level 0, in parallel 0, inner team [[T]]

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
