// A target region launched from inside a host `parallel` region starts on
// the device's initial thread, whichever host thread launched it: thread 0
// of 1 at level 0, and a `parallel` inside it is a team of its own at
// level 1. (Upstream's runtime answers with the host team there, 1 of 2 on
// the second host thread; this is checked on ours.) Launches from outside
// parallel regions, and from plain threads, are unchanged.
// REQUIRES: our-libomptarget
// RUN: %clang -fopenmp -fopenmp-targets=%target-cpu %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=mandatory OMP_NUM_THREADS=2 %ours-run %t | FileCheck %s
#include <omp.h>
#include <stdio.h>

struct Seen {
  int Thread, Threads, Level, InParallel, InnerLevelOne, InnerThreads;
};

static struct Seen fromDevice(void) {
  struct Seen S = {-1, -1, -1, -1, 0, 0};
#pragma omp target map(from : S)
  {
    S.Thread = omp_get_thread_num();
    S.Threads = omp_get_num_threads();
    S.Level = omp_get_level();
    S.InParallel = omp_in_parallel();
    S.InnerLevelOne = 0;
    S.InnerThreads = 0;
#pragma omp parallel num_threads(2)
    {
#pragma omp atomic
      S.InnerLevelOne += omp_get_level() == 1;
#pragma omp single
      S.InnerThreads = omp_get_num_threads();
    }
  }
  return S;
}

static void print(const char *Where, struct Seen S) {
  printf("%s: device thread %d of %d, level %d, in parallel %d, inner team "
         "%d at level 1 (%d)\n",
         Where, S.Thread, S.Threads, S.Level, S.InParallel, S.InnerThreads,
         S.InnerLevelOne);
}

int main(void) {
  struct Seen Outside = fromDevice();
  // CHECK: outside: device thread 0 of 1, level 0, in parallel 0, inner team [[T:[12]]] at level 1 ([[T]])
  print("outside", Outside);

  struct Seen Inside[2];
#pragma omp parallel num_threads(2)
  {
    struct Seen S = fromDevice();
    Inside[omp_get_thread_num()] = S;
  }
  // CHECK: host thread 0: device thread 0 of 1, level 0, in parallel 0, inner team [[T0:[12]]] at level 1 ([[T0]])
  // CHECK: host thread 1: device thread 0 of 1, level 0, in parallel 0, inner team [[T1:[12]]] at level 1 ([[T1]])
  print("host thread 0", Inside[0]);
  print("host thread 1", Inside[1]);

  // Many launches from a host team in a row reuse the initial threads.
  int Sum = 0;
#pragma omp parallel num_threads(2) reduction(+ : Sum)
  for (int I = 0; I < 200; ++I) {
    int Thread = -1;
#pragma omp target map(from : Thread)
    Thread = omp_get_thread_num();
    Sum += Thread;
  }
  // CHECK: 400 launches from a host team, device thread numbers sum to 0
  printf("400 launches from a host team, device thread numbers sum to %d\n",
         Sum);
  return 0;
}
