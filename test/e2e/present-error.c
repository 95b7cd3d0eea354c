// A `present` map of memory that is not mapped fails with a message naming
// the address, the size, the variable and its source location, and the
// program stops as upstream's does.
// REQUIRES: our-libomptarget
// RUN: %clang -g -fopenmp -fopenmp-targets=%target-cpu %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=mandatory not --crash %ours-run %t 2>&1 | FileCheck %s
// clang-format off
#include <stdio.h>

int main(void) {
  int arr[10] = {0};
  printf("before\n");
  fflush(stdout);
  // CHECK: before
  // The lines upstream's runtime prints, with the variable and the construct
  // named on the first one.
  // CHECK: omptarget message: device mapping required by 'present' map type modifier does not exist for host address 0x{{[0-9a-f]+}} (40 bytes), for 'arr' (declared at {{.*}}present-error.c:11:7) at {{.*}}present-error.c:[[@LINE+5]]
  // CHECK-NEXT: omptarget error: Call to getTargetPointer returned null pointer ('present' map type modifier).
  // CHECK-NEXT: omptarget error: Call to targetDataBegin failed, abort target.
  // CHECK-NEXT: omptarget error: Failed to process data before launching the kernel.
  // CHECK-NEXT: {{.*}}present-error.c:[[@LINE+1]]:1: omptarget fatal error 1: failure of target construct while offloading is mandatory
#pragma omp target map(present, tofrom : arr)
  arr[0] = 1;
  printf("after %d\n", arr[0]);
  // CHECK-NOT: after
  return 0;
}
