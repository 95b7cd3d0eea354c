// Host program for parallel-loop.mlir.
#include <stdio.h>

void fill(int *p, int n, int *threads);

int main(void) {
  int v[1000];
  int threads = 0;
  fill(v, 1000, &threads);
  int bad = 0;
  for (int i = 0; i < 1000; ++i)
    bad += v[i] != i * i;
  printf("fill: bad=%d threads>1: %s\n", bad, threads > 1 ? "yes" : "no");
  return bad != 0;
}
