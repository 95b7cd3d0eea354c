// Kernel translation unit A: a declare-target global and a kernel using it.
#include <omp.h>
int Bias = 5;
#pragma omp declare target(Bias)

// Adds Bias to every element on the device; returns whether it ran there.
int addBias(int *Data, int N) {
  int OnHost = -1;
#pragma omp target teams distribute parallel for map(tofrom : Data [0:N])
  for (int I = 0; I < N; ++I)
    Data[I] += Bias;
#pragma omp target map(from : OnHost)
  OnHost = omp_is_initial_device();
  return OnHost;
}
