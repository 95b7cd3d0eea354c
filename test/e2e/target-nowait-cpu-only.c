// With only CPU devices, `target nowait` tasks are ordinary libomp tasks: a
// time-step loop of nowait kernels chained by `depend`, with a taskwait per
// step, runs every kernel on the launching thread (no hand-off to a device
// initial thread, which would compete for the cores with the host thread
// spinning in taskwait), and each kernel still sees the device's initial
// thread and gets a parallel team of its own. A user's
// LIBOMP_USE_HIDDEN_HELPER_TASK=1 brings libomp's hidden helpers back, an
// active team: then every kernel runs on its hidden helper thread in a team
// of one (its `parallel` serialized, as on upstream's runtime), or with
// LIBOMPTARGET_HOST_NESTED_LAUNCH=device-thread is handed off; the answers
// are the device's either way.
// REQUIRES: our-libomptarget
// RUN: %clang -fopenmp -fopenmp-targets=%target-cpu %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=mandatory OMP_NUM_THREADS=2 LIBOMPTARGET_DEBUG=1 %ours-run %t 2>&1 \
// RUN:   | FileCheck %s --check-prefixes=ORDINARY --implicit-check-not="device initial thread"
// RUN: env OMP_TARGET_OFFLOAD=mandatory OMP_NUM_THREADS=2 LIBOMPTARGET_DEBUG=1 LIBOMP_USE_HIDDEN_HELPER_TASK=1 %ours-run %t 2>&1 \
// RUN:   | FileCheck %s --check-prefixes=HELPERS --implicit-check-not="device initial thread"
// RUN: env OMP_TARGET_OFFLOAD=mandatory OMP_NUM_THREADS=2 LIBOMPTARGET_DEBUG=1 LIBOMP_USE_HIDDEN_HELPER_TASK=1 LIBOMPTARGET_HOST_NESTED_LAUNCH=device-thread %ours-run %t 2>&1 \
// RUN:   | FileCheck %s --check-prefixes=HANDOFF --implicit-check-not="the launching thread"
#include <omp.h>
#include <stdio.h>

enum { Steps = 3, N = 1024 };

int main(void) {
  static double A[N], B[N];
  int Wrong = 0, InnerMin = 99, InnerMax = 0;
#pragma omp target enter data map(to : A, B)
  for (int Step = 0; Step < Steps; ++Step) {
#pragma omp target teams distribute parallel for nowait depend(out : A[0])
    for (int I = 0; I < N; ++I)
      A[I] += 1.0;
#pragma omp target nowait depend(in : A[0]) depend(out : B[0])                 \
    map(tofrom : Wrong, InnerMin, InnerMax)
    {
      // The device's initial thread, whichever host thread launched.
      if (omp_get_thread_num() != 0 || omp_get_num_threads() != 1 ||
          omp_get_level() != 0)
        Wrong += 1;
      int Inner = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
      Inner = omp_get_num_threads();
      InnerMin = Inner < InnerMin ? Inner : InnerMin;
      InnerMax = Inner > InnerMax ? Inner : InnerMax;
      for (int I = 0; I < N; ++I)
        B[I] = 2.0 * A[I];
    }
#pragma omp taskwait
  }
#pragma omp target exit data map(from : A, B)
  fprintf(stderr, "=== B[7] = %g, wrong answers %d, inner teams of %d to %d\n",
          B[7], Wrong, InnerMin, InnerMax);
  return Wrong != 0 || B[7] != 2.0 * Steps;
}
// ORDINARY: nowait target tasks run as ordinary tasks (only CPU devices; LIBOMP_NUM_HIDDEN_HELPER_THREADS=0)
// HELPERS: nowait target tasks run as the LIBOMP_*_HIDDEN_HELPER_* variables say
// ORDINARY-COUNT-6: host plugin: kernel {{.*}} runs on the launching thread (host level 0, active level 0)
// HELPERS-COUNT-6: host plugin: kernel {{.*}} runs on the launching thread in a team of one (host level 1, active level 1)
// HANDOFF-COUNT-6: host plugin: kernel {{.*}} runs on a device initial thread (host level 1, active level 1)
// ORDINARY: === B[7] = 6, wrong answers 0, inner teams of 2 to 2
// HELPERS: === B[7] = 6, wrong answers 0, inner teams of 1 to 1
// HANDOFF: === B[7] = 6, wrong answers 0, inner teams of 2 to 2
