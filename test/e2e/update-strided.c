// `target update` of non-contiguous sections: strided one-dimensional
// sections and rectangular and strided blocks of a two-dimensional array.
// REQUIRES: our-libomptarget
// RUN: %clang -fopenmp -fopenmp-targets=%target-cpu %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=mandatory %ours-run %t | FileCheck %s
#include <stdio.h>

int main(void) {
  int a[10], m[4][5];
  for (int i = 0; i < 10; ++i)
    a[i] = i;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 5; ++j)
      m[i][j] = 10 * i + j;
#pragma omp target enter data map(alloc : a, m)
#pragma omp target map(alloc : a, m)
  {
    for (int i = 0; i < 10; ++i)
      a[i] = -1;
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 5; ++j)
        m[i][j] = -1;
  }
#pragma omp target update to(a[0 : 4 : 3])
#pragma omp target update to(m[1 : 2][1 : 3])
#pragma omp target update to(m[0 : 2 : 2][0 : 2 : 3])
#pragma omp target exit data map(from : a, m)
  // CHECK: a: 0 -1 -1 3 -1 -1 6 -1 -1 9
  printf("a:");
  for (int i = 0; i < 10; ++i)
    printf(" %d", a[i]);
  // CHECK-NEXT: m0: 0 -1 -1 3 -1
  // CHECK-NEXT: m1: -1 11 12 13 -1
  // CHECK-NEXT: m2: 20 21 22 23 -1
  // CHECK-NEXT: m3: -1 -1 -1 -1 -1
  for (int i = 0; i < 4; ++i) {
    printf("\nm%d:", i);
    for (int j = 0; j < 5; ++j)
      printf(" %d", m[i][j]);
  }
  printf("\n");

  // Back the other way: from a strided section.
#pragma omp target enter data map(to : a)
#pragma omp target map(alloc : a)
  for (int i = 0; i < 10; ++i)
    a[i] = 100 + i;
#pragma omp target update from(a[0 : 5 : 2])
#pragma omp target exit data map(delete : a)
  // CHECK: from: 100 -1 102 3 104 -1 106 -1 108 9
  printf("from:");
  for (int i = 0; i < 10; ++i)
    printf(" %d", a[i]);
  printf("\n");
  return 0;
}
