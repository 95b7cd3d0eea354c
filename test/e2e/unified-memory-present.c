// Under `requires unified_shared_memory` every host variable is present:
// a `present` map of a variable no construct mapped succeeds on the CPU
// device, on both runtimes. The attach of a declare-target pointer to its
// pointee is reported as the 8-byte copy it is (LIBOMPTARGET_INFO=32).
// REQUIRES: our-libomptarget
// RUN: %clang -fopenmp -fopenmp-targets=%target-cpu %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=mandatory %ours-run %t 2>&1 | FileCheck %s
// RUN: env OMP_TARGET_OFFLOAD=mandatory %upstream-run %t 2>&1 | FileCheck %s
// RUN: %clang -fopenmp -fopenmp-targets=%target-cpu %s -DNO_USM -o %t.plain
// RUN: env LIBOMPTARGET_INFO=32 %ours-run %t.plain 2>&1 | FileCheck %s --check-prefix=ATTACH
// RUN: env LIBOMPTARGET_INFO=32 %upstream-run %t.plain 2>&1 | FileCheck %s --check-prefix=ATTACH
#include <stdio.h>
#include <stdlib.h>

#ifndef NO_USM
#pragma omp requires unified_shared_memory
#endif

int *Shared;
#pragma omp declare target(Shared)

int main(void) {
#ifndef NO_USM
  int I = 1;
  // CHECK-NOT: omptarget
#pragma omp target map(present, tofrom : I)
  I += 1;
  // CHECK: present without a map: 2
  printf("present without a map: %d\n", I);
#else
  Shared = malloc(sizeof(int));
  *Shared = 20;
#pragma omp target map(Shared[ : 1])
  *Shared += 1;
  // ATTACH: Copying data from host to device, {{.*}} Size=4,
  // ATTACH-NEXT: Copying data from host to device, {{.*}} Size=8, Name=Shared
  // ATTACH: pointee 21
  printf("pointee %d\n", *Shared);
  free(Shared);
#endif
  return 0;
}
