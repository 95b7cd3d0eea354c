// Host program for scale-llvm-dialect.mlir: doubles an array on the device.
#include <omp.h>
#include <stdio.h>

void scale(int *p, int n);

int main(void) {
  int v[100];
  for (int i = 0; i < 100; ++i)
    v[i] = i;
  scale(v, 100);
  int bad = 0;
  for (int i = 0; i < 100; ++i)
    bad += v[i] != 2 * i;
  printf("devices=%d bad=%d v[99]=%d\n", omp_get_num_devices(), bad, v[99]);
  return bad != 0;
}
