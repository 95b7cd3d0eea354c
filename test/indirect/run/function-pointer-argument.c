// A host pointer to a `declare target indirect` function, passed to a
// target region, arrives as the device function: the runtime maps each
// indirect function at its host address, as upstream's runtime does, and
// says so with LIBOMPTARGET_INFO's data-transfer lines (the 8-byte read of
// the device function's address). Built for x86_64-unknown-linux-gnu, the
// spelling upstream's tests use: the wrapper finds the CPU device runtime
// installed for x86_64-pc-linux-gnu. Checked on both runtimes.
// RUN: %clang -fopenmp -fopenmp-version=51 -fopenmp-targets=x86_64-unknown-linux-gnu %s -o %t
// RUN: env LIBOMPTARGET_INFO=32 %ours-run %t 2>&1 | FileCheck %s
// RUN: env LIBOMPTARGET_INFO=32 %upstream-run %t 2>&1 | FileCheck %s
// REQUIRES: our-libomptarget, our-linker-wrapper, our-cpu-device-runtime

#include <stdio.h>

int square(int X) { return X * X; }
#pragma omp declare target indirect to(square)

typedef int (*Function)(int);

int main(void) {
  Function OnDevice = 0;
#pragma omp target map(from : OnDevice)
  OnDevice = &square;

  Function FromHost = &square, Passed = 0;
  int Result = 0;
#pragma omp target map(from : Passed, Result)
  {
    Passed = FromHost;
    Result = FromHost(7);
  }
  // CHECK: Copying data from device to host, {{.*}} Size=8
  // CHECK: host pointer became the device function: 1, result 49
  printf("host pointer became the device function: %d, result %d\n",
         Passed == OnDevice && Passed != &square, Result);
  return 0;
}
