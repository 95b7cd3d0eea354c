#include <stdio.h>

#ifndef FACTOR
#define FACTOR 2
#endif

int main(void) {
  int Values[8];
#pragma omp target map(from : Values)
  for (int I = 0; I < 8; ++I)
    Values[I] = I * FACTOR;
  printf("Values[7]=%d\n", Values[7]);
  return 0;
}
