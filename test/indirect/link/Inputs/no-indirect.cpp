// A program without `declare target indirect` functions.
#include <stdio.h>

int main() {
  int R = 0;
#pragma omp target map(from : R)
  R = 42;
  printf("%d\n", R);
  return 0;
}
