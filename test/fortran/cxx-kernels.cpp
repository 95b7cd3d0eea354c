// The kernels of teams-loops.f90 and generic-nested.f90 written in C++:
// clang compiles them for the CPU device in host style, and they still pass
// with the device runtime linked into the same images.
// REQUIRES: our-libomptarget, our-linker-wrapper, our-cpu-device-runtime
// RUN: %clangxx -fopenmp -fopenmp-targets=%target-cpu %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=mandatory OMP_NUM_THREADS=2 %ours-run %t \
// RUN:   | FileCheck %s
#include <cstdio>
#include <omp.h>

int main() {
  const int N = 10000, M = 37;
  static double X[N];
  double S = 0;
  int Threads = 0;
#pragma omp target teams distribute parallel for map(tofrom : X)
  for (int I = 0; I < N; ++I)
    X[I] = 2.0 * (I + 1);
#pragma omp target teams distribute parallel for reduction(+ : S)            \
    reduction(max : Threads) map(to : X)
  for (int I = 0; I < N; ++I) {
    S += X[I];
    Threads = omp_get_num_threads() > Threads ? omp_get_num_threads() : Threads;
  }
  // CHECK: reduction: 100010000 several-threads: 1
  std::printf("reduction: %.0f several-threads: %d\n", S, Threads > 1);

  static int B[M][M];
  long Sum = 0;
#pragma omp target teams distribute parallel for collapse(2)                 \
    schedule(static, 3) map(tofrom : B)
  for (int J = 0; J < M; ++J)
    for (int I = 0; I < M; ++I)
      B[J][I] += (I + 1) * 100 + (J + 1);
  for (int J = 0; J < M; ++J)
    for (int I = 0; I < M; ++I)
      Sum += B[J][I];
  // CHECK: collapse: 2627111
  std::printf("collapse: %ld\n", Sum);

  int Outer = 0, Inner = 0, Level = 0;
#pragma omp target map(tofrom : Outer, Inner, Level)
  {
#pragma omp parallel
    {
      if (omp_get_thread_num() == 0)
        Outer = omp_get_num_threads();
#pragma omp parallel
      if (omp_get_ancestor_thread_num(1) == 0 && omp_get_thread_num() == 0) {
        Inner = omp_get_num_threads();
        Level = omp_get_level();
      }
    }
  }
  // CHECK: outer>1: 1 level: 2
  std::printf("outer>1: %d level: %d\n", Outer > 1, Level);
}
