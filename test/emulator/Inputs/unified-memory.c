// A `requires unified_shared_memory` program on the emulator: the regions
// read and write a malloc'ed array and a stack variable through their host
// addresses (nothing is present on the device, every map is zero-copy), and
// omp_target_is_accessible says the device reads host memory.
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#pragma omp requires unified_shared_memory

int main(void) {
  int N = 100000, Dev = omp_get_default_device();
  long *A = malloc(N * sizeof(long));
  for (int I = 0; I < N; ++I)
    A[I] = I;
  long Sum = 0;
  int Present = -1;
#pragma omp target teams distribute parallel for reduction(+ : Sum)
  for (int I = 0; I < N; ++I) {
    A[I] *= 3;
    Sum += A[I];
  }
#pragma omp target map(from : Present)
  Present = omp_is_initial_device();
  int Wrong = Present != 0;
  for (int I = 0; I < N; ++I)
    Wrong += A[I] != 3L * I;
  printf("unified memory: sum %ld (expected %ld), %d wrong, present %d, "
         "accessible %d\n",
         Sum, 3L * N * (N - 1) / 2, Wrong, omp_target_is_present(A, Dev),
         omp_target_is_accessible(A, N * sizeof(long), Dev));
  free(A);
  return Wrong != 0 || Sum != 3L * N * (N - 1) / 2;
}
