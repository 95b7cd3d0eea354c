// A generic-mode kernel (a target region with serial code and a parallel
// region inside): the device runtime's state machine and
// __kmpc_alloc_shared are used, and reached only through the runtime.
#include <cstdio>

int main() {
  int Sum = 0;
  int Threads = 0;
#pragma omp target map(tofrom : Sum, Threads)
  {
    for (int I = 0; I < 10; ++I)
      Sum += I;
#pragma omp parallel
    {
#pragma omp atomic
      Threads += 1;
    }
  }
  std::printf("sum=%d threads>0=%d\n", Sum, Threads > 0);
  return Sum == 45 ? 0 : 1;
}
