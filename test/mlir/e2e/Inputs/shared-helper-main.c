// Host program for shared-helper.mlir: the same MLIR helper, called by host
// code and by a target region.
#include <omp.h>
#include <stdio.h>

int on_host(int x);
void on_device(int x, int *out);

int main(void) {
  int host = on_host(5);
  int device = 0;
  on_device(6, &device);
  printf("devices=%d host=%d device=%d\n", omp_get_num_devices(), host,
         device);
  return host != 26 || device != 38;
}
