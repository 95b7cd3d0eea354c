// A `requires unified_shared_memory` program for the fake-driver tests: the
// region uses a malloc'ed array through its host pointer. Run on the fake
// CUDA device (which executes no kernel) the array comes back as it went
// (a[10] = 10); maps are zero-copy, so nothing is present on the device,
// and the device reads host memory (accessible).
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#pragma omp requires unified_shared_memory

int main(void) {
  int n = 1000;
  int *a = malloc(n * sizeof(int));
  for (int i = 0; i < n; ++i)
    a[i] = i;
#pragma omp target teams distribute parallel for map(tofrom : a[0 : n])
  for (int i = 0; i < n; ++i)
    a[i] += 1;
  int dev = omp_get_default_device();
  printf("usm-region a[10]=%d present=%d accessible=%d\n", a[10],
         omp_target_is_present(a, dev),
         omp_target_is_accessible(a, n * sizeof(int), dev));
  free(a);
  return 0;
}
