// The C shim compiles and runs a host OpenMP program (no offload).
// RUN: %clang -fopenmp %s -o %t
// RUN: env OMP_NUM_THREADS=4 %run %t | FileCheck %s
#include <omp.h>
#include <stdio.h>

int main(void) {
  int threads = 0;
  long sum = 0;
#pragma omp parallel reduction(+ : sum)
  {
#pragma omp single
    threads = omp_get_num_threads();
#pragma omp for
    for (int i = 1; i <= 1000; ++i)
      sum += i;
  }
  // CHECK: threads=4 sum=500500
  printf("threads=%d sum=%ld\n", threads, sum);
  return 0;
}
