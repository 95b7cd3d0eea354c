// Host program for target-teams-host-eval.mlir (Fortran's vadd(a, b, n)).
#include <stdio.h>

void vadd_(int *a, int *b, int *n);

int main(void) {
  int a[1000], b[1000];
  int n = 1000;
  for (int i = 0; i < n; ++i) {
    a[i] = i;
    b[i] = 1;
  }
  vadd_(a, b, &n);
  int bad = 0;
  for (int i = 0; i < n; ++i)
    bad += b[i] != i + 1;
  printf("vadd: bad=%d b[999]=%d\n", bad, b[999]);
  return bad != 0;
}
