// Library code shipped as a self-registering relocatable object.
#include <omp.h>
int Scale = 3;
#pragma omp declare target(Scale)

extern "C" int fooSum(int N) {
  int Sum = 0, OnHost = -1;
#pragma omp target map(tofrom : Sum, OnHost)
  {
    for (int I = 0; I < N; ++I)
      Sum += I * Scale;
    OnHost = omp_is_initial_device();
  }
  return OnHost == 0 ? Sum : -Sum;
}
