// Members of one struct mapped by different constructs keep the struct's
// layout on the device: a region that maps one member and writes others
// through the struct reaches the device copies an enclosing construct made
// of them. (Upstream's runtime gives each construct its own allocation; on
// its CPU device the second program below passes only when freed memory
// happens to hold the right values, so this is checked on ours alone.)
// Also: device allocations of the shared storage are freed once.
// REQUIRES: our-libomptarget
// RUN: %clang -fopenmp -fopenmp-targets=%target-cpu %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=mandatory LIBOMPTARGET_ALLOCATION_REPORT=1 \
// RUN:   %ours-run %t 2>&1 | FileCheck %s
#include <omp.h>
#include <stdio.h>

struct Record {
  int A, B, C, D, I, J;
};

struct Wide {
  double Lead[64];
  int X, Y;
};

int main(void) {
  struct Record T = {10, 0, 0, 0, 20, 30};
  // Members I and J first, then a region mapping A and writing all three.
#pragma omp target data map(from : T.I, T.J)
  {
#pragma omp target map(from : T.A)
    {
      T.A = 11;
      T.I = 21;
      T.J = 31;
    }
  }
  // CHECK: A=11 I=21 J=31
  printf("A=%d I=%d J=%d\n", T.A, T.I, T.J);

  // The same with enter/exit data, and the late member mapped tofrom.
  struct Record U = {1, 2, 3, 4, 5, 6};
#pragma omp target enter data map(to : U.C, U.D)
#pragma omp target map(tofrom : U.B)
  {
    U.B += U.C + U.D; // 2 + 3 + 4
    U.C = 40;
  }
#pragma omp target exit data map(from : U.C, U.D)
  // CHECK: B=9 C=40 D=4
  printf("B=%d C=%d D=%d\n", U.B, U.C, U.D);

  // A struct whose members lie far from its start.
  static struct Wide W;
  W.X = 1;
  W.Y = 2;
#pragma omp target data map(tofrom : W.X, W.Y)
  {
#pragma omp target map(tofrom : W.Lead[0 : 1])
    {
      W.Lead[0] = W.X + W.Y;
      W.Y = 7;
    }
  }
  // CHECK: Lead0=3 Y=7
  printf("Lead0=%g Y=%d\n", W.Lead[0], W.Y);
  fflush(stdout); // before the runtime's report at exit
  return 0;
}
// One allocation per struct, each freed once.
// CHECK: 0 device allocations outstanding at exit (3 made)
