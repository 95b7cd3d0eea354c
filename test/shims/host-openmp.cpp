// The C++ shim compiles and runs a host OpenMP program (no offload).
// RUN: %clangxx -fopenmp %s -o %t
// RUN: env OMP_NUM_THREADS=3 %run %t | FileCheck %s
#include <cstdio>
#include <omp.h>
#include <vector>

int main() {
  std::vector<double> v(4096, 0.5);
  double sum = 0;
  int threads = 0;
#pragma omp parallel for reduction(+ : sum) reduction(max : threads)
  for (size_t i = 0; i < v.size(); ++i) {
    sum += v[i];
    threads = omp_get_num_threads();
  }
  // CHECK: threads=3 sum=2048
  std::printf("threads=%d sum=%g\n", threads, sum);
}
