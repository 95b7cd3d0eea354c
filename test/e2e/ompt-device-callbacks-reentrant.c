// OMPT: a tool may call the OpenMP device API (omp_get_num_devices,
// omp_target_alloc, omp_target_memcpy, omp_target_free) from its
// device_initialize and device_load callbacks. The runtime tells tools
// about these events once it has released the device's image lock, so the
// calls do not deadlock, and the program's constructs still follow them.
// Several host threads start on the device at once: the one announcing
// the events runs the tool's calls while the others wait for it.
// REQUIRES: our-libomptarget
// RUN: %clang -shared -fPIC %S/Inputs/ompt-reentrant-tool.c -o %t.tool.so
// RUN: %clang -fopenmp -fopenmp-targets=%target-cpu %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=mandatory OMP_TOOL_LIBRARIES=%t.tool.so %ours-run %t | FileCheck %s
// RUN: env OMP_TARGET_OFFLOAD=mandatory OMP_TOOL_LIBRARIES=%t.tool.so OMPT_TEST_LOAD_ONLY=1 %ours-run %t | FileCheck %s --check-prefix=LOAD
// clang-format off
// A tool that watches devices gets device_initialize for every device at
// start-up; its use of the device there loads the program's image, so each
// device_load comes (and is printed, the tool printing after its calls)
// inside that device's device_initialize.
// CHECK: device_load: dev 0 num_devices>0=1 alloc=set round_trip=42
// CHECK-NEXT: device_initialize: dev 0 num_devices>0=1 alloc=set round_trip=42
// CHECK-NEXT: device_load: dev 1 num_devices>0=1 alloc=set round_trip=42
// CHECK-NEXT: device_initialize: dev 1 num_devices>0=1 alloc=set round_trip=42
// CHECK: result: sum 4 total 10
// CHECK-NOT: device_
// Without device_initialize, device 0 starts when the four threads first
// use it: one announces device_load, the others wait for it.
// LOAD: device_load: dev 0 num_devices>0=1 alloc=set round_trip=42
// LOAD-NEXT: result: sum 4 total 10
// LOAD-NOT: device_
// clang-format on
#include <stdio.h>

int main(void) {
  // sum is updated and read atomically rather than by a reduction: this
  // test replaces the OMPT tool, so under ThreadSanitizer Archer is not
  // there to tell TSan that libomp's join orders the reduction's writes.
  int sum = 0;
#pragma omp parallel num_threads(4)
  {
    int x = 0;
#pragma omp target map(from : x)
    x = 1;
#pragma omp atomic update
    sum += x;
  }
  int total = 0;
#pragma omp target map(from : total)
  total = 10;
  int summed;
#pragma omp atomic read
  summed = sum;
  printf("result: sum %d total %d\n", summed, total);
  return 0;
}
