// One target region over a mapped array, for the fault-injection tests: run
// on a device the fake drivers never execute, the array comes back as it
// went (a[10] = 10); run on the host, the region adds 1 (a[10] = 11).
#include <stdio.h>

int main(void) {
  int a[1000];
  for (int i = 0; i < 1000; ++i)
    a[i] = i;
#pragma omp target teams distribute parallel for map(tofrom : a)
  for (int i = 0; i < 1000; ++i)
    a[i] += 1;
  printf("fault-region a[10]=%d\n", a[10]);
  return 0;
}
