// Host program for frontend-attributes.mlir: calls Fortran's scale(a, n)
// (a(i) = 2 * a(i)), compiled to MLIR by flang.
#include <stdio.h>

void scale_(int *a, int *n);

int main(void) {
  int v[10];
  int n = 10;
  for (int i = 0; i < 10; ++i)
    v[i] = i;
  scale_(v, &n);
  printf("v[1]=%d v[9]=%d\n", v[1], v[9]);
  return 0;
}
