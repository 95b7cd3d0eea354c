// An SPMD kernel over many blocks: c = a + b.
#include <stdio.h>

int main(void) {
  enum { N = 100000 };
  static double A[N], B[N], C[N];
  for (int I = 0; I < N; I++) {
    A[I] = I;
    B[I] = 2.0 * I;
  }
#pragma omp target teams distribute parallel for map(to : A, B) map(from : C)
  for (int I = 0; I < N; I++)
    C[I] = A[I] + B[I];
  int Bad = 0;
  for (int I = 0; I < N; I++)
    Bad += C[I] != 3.0 * I;
  printf("vector-add: %d wrong\n", Bad);
  return Bad != 0;
}
