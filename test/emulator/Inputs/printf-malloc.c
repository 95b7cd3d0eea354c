// Device printf (vprintf's argument buffer) and the device heap.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int Sum = 0;
#pragma omp target map(tofrom : Sum)
  {
    int *P = (int *)malloc(100 * sizeof(int));
    for (int I = 0; I < 100; I++)
      P[I] = I;
    for (int I = 0; I < 100; I++)
      Sum += P[I];
    free(P);
    printf("device: %d %s %.3f %ld %c %x\n", Sum, "text", 2.5, 1234567890123L,
           'z', 255u);
  }
  printf("host: %d\n", Sum);
  return Sum != 4950;
}
