// Maps without `requires unified_shared_memory`, for the OMPX_APU_MAPS
// tests: whether the array got a device copy (present) and what address the
// region sees. Run on the fake CUDA device, which executes no kernel.
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 1000;
  int *a = malloc(n * sizeof(int));
  for (int i = 0; i < n; ++i)
    a[i] = i;
  int dev = omp_get_default_device();
#pragma omp target enter data map(to : a[0 : n])
  void *mapped = omp_get_mapped_ptr(a, dev);
  printf("apu-maps present=%d device-copy=%s\n", omp_target_is_present(a, dev),
         mapped && mapped != (void *)a ? "yes" : "no");
#pragma omp target teams distribute parallel for map(tofrom : a[0 : n])
  for (int i = 0; i < n; ++i)
    a[i] += 1;
#pragma omp target exit data map(release : a[0 : n])
  free(a);
  return 0;
}
