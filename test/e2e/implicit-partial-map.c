// A variable a region uses implicitly (mapped whole, tofrom, by default)
// while an enclosing construct mapped only part of it: the region uses that
// mapping and counts a reference on it, instead of failing as an explicit
// extension does; omp_target_is_present asks about the first byte of the
// storage, so the unmapped part of an array or struct is not present.
// Checked on both runtimes: this is upstream's behaviour.
// REQUIRES: our-libomptarget
// RUN: %clang -fopenmp -fopenmp-targets=%target-cpu %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=mandatory %ours-run %t 2>&1 | FileCheck %s
// RUN: env OMP_TARGET_OFFLOAD=mandatory %upstream-run %t 2>&1 | FileCheck %s
#include <omp.h>
#include <stdio.h>

struct Pair {
  int A;
  int C;
};


int main(void) {
  int Dev = omp_get_default_device();
  int Arr[100];
  for (int I = 0; I < 100; ++I)
    Arr[I] = -1;
#pragma omp target data map(alloc : Arr[50 : 2])
  {
    // CHECK: section 1 base 0 before 0
    printf("section %d base %d before %d\n", omp_target_is_present(&Arr[50], Dev),
           omp_target_is_present(&Arr[0], Dev),
           omp_target_is_present(&Arr[49], Dev));
#pragma omp target
    {
      Arr[50] = 5;
      Arr[51] = 6;
    }
#pragma omp target update from(Arr[50 : 2])
    // CHECK: device wrote 5 6
    printf("device wrote %d %d\n", Arr[50], Arr[51]);
  }
  // The region's reference was released with it.
  // CHECK: after 0
  printf("after %d\n", omp_target_is_present(&Arr[50], Dev));

  struct Pair S = {0, 0};
#pragma omp target data map(from : S.C)
  {
    // CHECK: member A present 0
    printf("member A present %d\n", omp_target_is_present(&S.A, Dev));
#pragma omp target
    S.C = 7;
  }
  // CHECK: S.C 7
  printf("S.C %d\n", S.C);
  return 0;
}
