// target nowait with depend clauses: tasks run asynchronously through
// libomp's target tasks and respect their dependences.
// REQUIRES: our-libomptarget
// RUN: %clang -fopenmp -fopenmp-targets=%target-cpu %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=mandatory %ours-run %t | FileCheck %s
#include <omp.h>
#include <stdio.h>

#define N 1000

int main(void) {
  static int a[N], b[N];
  int sum = 0;
  for (int i = 0; i < N; ++i)
    a[i] = i;
#pragma omp parallel num_threads(2)
#pragma omp single
  {
#pragma omp target enter data map(to                                           \
                                  : a) map(alloc                               \
                                           : b) nowait                         \
depend(out                                                                     \
       : a, b)
#pragma omp target nowait depend(inout : a)
    for (int i = 0; i < N; ++i)
      a[i] *= 2;
#pragma omp target nowait depend(in : a) depend(out : b)
    for (int i = 0; i < N; ++i)
      b[i] = a[i] + 1;
#pragma omp target exit data map(from                                          \
                                 : b) map(delete                               \
                                          : a) nowait                          \
depend(inout                                                                   \
       : b)
#pragma omp task depend(in : b) shared(sum)
    for (int i = 0; i < N; ++i)
      sum += b[i];
#pragma omp taskwait
  }
  // sum of (2i + 1) for i < 1000 = 1000*999 + 1000
  // CHECK: sum=1000000 a-present=0
  printf("sum=%d a-present=%d\n", sum, omp_target_is_present(a, 0));
  return sum != 1000000;
}
