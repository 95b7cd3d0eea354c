// Indirect functions defined in one translation unit are called through
// their host addresses in target regions of another, and the other way
// round.
// RUN: %clangxx -fopenmp -fopenmp-targets=%target-cpu -c %s -o %t.main.o
// RUN: %clangxx -fopenmp -fopenmp-targets=%target-cpu -c %S/Inputs/indirect-lib.cpp -o %t.lib.o
// RUN: %clangxx -fopenmp -fopenmp-targets=%target-cpu %t.main.o %t.lib.o -o %t
// RUN: %ours-run %t | FileCheck %s
// Images linked by our wrapper also run on Debian's runtime, which builds
// the same table.
// RUN: %upstream-run %t | FileCheck %s
// REQUIRES: our-libomptarget, our-linker-wrapper, our-cpu-device-runtime, indirect-plugin

#include <omp.h>
#include <stdio.h>

int (*libPointer(int Which))(int);
int libApply(int (*Fn)(int), int X);

#pragma omp declare target indirect
int mainSquare(int X) { return 1000 * omp_is_initial_device() + X * X; }
#pragma omp end declare target

int main() {
  int (*Triple)(int) = libPointer(0), (*Negate)(int) = libPointer(1);
  int A = 0, B = 0;
#pragma omp target map(from : A, B)
  {
    A = Triple(4);
    B = Negate(4);
  }
  // CHECK: other unit's functions here: 12 -4
  printf("other unit's functions here: %d %d\n", A, B);
  // CHECK: this unit's function there: 49
  printf("this unit's function there: %d\n", libApply(mainSquare, 7));
  return 0;
}
