// `#pragma omp requires unified_shared_memory`: the device uses host memory
// directly, so maps do not copy and host pointers work in regions. Storage
// that has no device copy is not "present" and has no mapped pointer, as
// upstream's runtime answers (only `close` maps and omp_target_associate_ptr
// give device copies, see unified-memory-close.c).
// REQUIRES: our-libomptarget
// RUN: %clang -fopenmp -fopenmp-targets=%target-cpu %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=mandatory %ours-run %t | FileCheck %s
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#pragma omp requires unified_shared_memory

int main(void) {
  int n = 100;
  int *data = malloc(n * sizeof(int));
  for (int i = 0; i < n; ++i)
    data[i] = i;
  // No map at all: the pointer is the host's.
#pragma omp target
  for (int i = 0; i < n; ++i)
    data[i] *= 2;
  int x = 1;
#pragma omp target map(to : x)
  x = 5; // with unified memory a `to` map still shares the host copy
  // CHECK: data[99]=198 x=5 present=0 mapped=null accessible=1
  printf("data[99]=%d x=%d present=%d mapped=%s accessible=%d\n", data[99],
         x, omp_target_is_present(data, 0),
         omp_get_mapped_ptr(data, 0) ? "set" : "null",
         omp_target_is_accessible(data, n * sizeof(int), 0));
  free(data);
  return 0;
}
