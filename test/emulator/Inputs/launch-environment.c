// Kernels without and, with -DWITH_REDUCTION, with a teams reduction. The
// GPU plugins give a kernel a launch environment (16 bytes copied to the
// device ahead of it) only for a teams reduction, the one place the device
// runtime reads it; no map here is 16 bytes.
#include <stdio.h>

int main(void) {
  int A[1000];
  for (int I = 0; I < 1000; ++I)
    A[I] = I;
#ifdef WITH_REDUCTION
  long Sum = 0;
#pragma omp target teams distribute parallel for reduction(+ : Sum) map(to : A)
  for (int I = 0; I < 1000; ++I)
    Sum += A[I];
  printf("sum=%ld\n", Sum);
#else
  int Ran = 0;
#pragma omp target map(tofrom : Ran)
  Ran = 1;
#pragma omp target teams distribute parallel for map(tofrom : A)
  for (int I = 0; I < 1000; ++I)
    A[I] *= 2;
  printf("ran=%d A[999]=%d\n", Ran, A[999]);
#endif
  return 0;
}
