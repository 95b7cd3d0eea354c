// Mapping a range that extends an existing mapping is the error OpenMP
// requires, reported with both ranges.
// REQUIRES: our-libomptarget
// RUN: %clang -g -fopenmp -fopenmp-targets=%target-cpu %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=mandatory not --crash %ours-run %t 2>&1 | FileCheck %s
// clang-format off
#include <stdio.h>

int main(void) {
  int a[100];
#pragma omp target enter data map(to : a[0 : 50])
  printf("mapped first half\n");
  fflush(stdout);
  // CHECK: mapped first half
  // CHECK: omptarget message: explicit extension not allowed: host address specified is 0x{{[0-9a-f]+}} (200 bytes), but device allocation maps to host at 0x{{[0-9a-f]+}} (200 bytes), for 'a[25:50]' (declared at {{.*}}overlap-error.c:10:7) at {{.*}}overlap-error.c:[[@LINE+3]]
  // CHECK-NEXT: omptarget error: Call to getTargetPointer returned null pointer (device failure or illegal mapping).
  // CHECK-NEXT: {{.*}}overlap-error.c:[[@LINE+1]]:1: omptarget fatal error 1: failure of target construct while offloading is mandatory
#pragma omp target enter data map(to : a[25 : 50])
  printf("not reached\n");
  // CHECK-NOT: not reached
  return 0;
}
