// Host addresses of `declare target indirect` functions, called inside
// target regions through an array, a struct member and a parameter, run the
// device copies; a pointer to a function that is not `indirect` is left as it
// is (on the CPU device the host copy then runs).
// RUN: %clangxx -fopenmp -fopenmp-targets=%target-cpu %s -o %t
// RUN: %ours-run %t | FileCheck %s
// Images linked by our wrapper also run on Debian's runtime, which builds
// the same table.
// RUN: %upstream-run %t | FileCheck %s
// REQUIRES: our-libomptarget, our-linker-wrapper, our-cpu-device-runtime, indirect-plugin

#include <omp.h>
#include <stdio.h>

// Each function reports where it ran: 1000 * on-initial-device + its value.
#pragma omp declare target indirect
int addOne(int X) { return 1000 * omp_is_initial_device() + X + 1; }
int timesTwo(int X) { return 1000 * omp_is_initial_device() + 2 * X; }
int square(int X) { return 1000 * omp_is_initial_device() + X * X; }
#pragma omp end declare target

#pragma omp declare target
int notIndirect(int X) { return 1000 * omp_is_initial_device() + X - 1; }
#pragma omp end declare target

typedef int (*Op)(int);
struct Holder {
  int Bias;
  Op Fn;
};

int main() {
  Op Table[3] = {addOne, timesTwo, square};
  int Results[3] = {0, 0, 0};
#pragma omp target map(to : Table) map(from : Results)
  for (int I = 0; I < 3; ++I)
    Results[I] = Table[I](5);
  // CHECK: array: 6 10 25
  printf("array: %d %d %d\n", Results[0], Results[1], Results[2]);

  Holder H = {7, square};
  int Member = 0;
#pragma omp target map(to : H) map(from : Member)
  Member = H.Fn(H.Bias);
  // CHECK: member: 49
  printf("member: %d\n", Member);

  Op Plain = notIndirect;
  int Unchanged = 0, Initial = 0;
#pragma omp target map(from : Unchanged, Initial)
  {
    Initial = omp_is_initial_device();
    Unchanged = Plain(5);
  }
  // The target region itself ran on the device; the pointer reached the
  // host copy unchanged.
  // CHECK: plain: region on device 0, result 1004
  printf("plain: region on device %d, result %d\n", Initial, Unchanged);
  return 0;
}
