// Under `requires unified_shared_memory`, a map with the `close` modifier
// gives the data a device copy, as without unified shared memory: the
// region works on the copy, the host sees its writes only through `from`
// and `target update`, and the copy is present until unmapped. Maps
// without `close` keep using host memory. omp_target_associate_ptr and
// omp_target_disassociate_ptr work as without unified shared memory. The
// same on both runtimes.
// REQUIRES: our-libomptarget
// RUN: %clang -fopenmp -fopenmp-targets=%target-cpu %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=mandatory %ours-run %t 2>&1 | FileCheck %s
// RUN: env OMP_TARGET_OFFLOAD=mandatory %upstream-run %t 2>&1 | FileCheck %s
// CHECK-NOT: omptarget
// CHECK: close to: host a[0]=1 device saw 1 wrote 2, other host b[0]=3
// CHECK-NEXT: close enter: present=1 separate=1
// CHECK-NEXT: close update: host a[1]=7 after update from
// CHECK-NEXT: close exit: host a[0]=8 present=0
// CHECK-NEXT: associate: rc=0 present=1 mapped=buffer
// CHECK-NEXT: associated region: host x=10 buffer=11
// CHECK-NEXT: disassociate: rc=0 present=0
// CHECK-NEXT: done
#include <omp.h>
#include <stdio.h>

#pragma omp requires unified_shared_memory

int main(void) {
  int dev = omp_get_default_device(), host = omp_get_initial_device();
  int a[4] = {1, 1, 1, 1}, b[4] = {2, 2, 2, 2};
  int saw = 0;

  // `close, to`: the region writes the device copy of a; b (no close) is
  // the host's.
#pragma omp target map(close, to : a) map(tofrom : b, saw)
  {
    saw = a[0];
    a[0] = 2;
    b[0] = 3;
  }
  printf("close to: host a[0]=%d device saw %d wrote 2, other host b[0]=%d\n",
         a[0], saw, b[0]);

#pragma omp target enter data map(close, to : a)
  printf("close enter: present=%d separate=%d\n", omp_target_is_present(a, dev),
         omp_get_mapped_ptr(a, dev) != NULL &&
             omp_get_mapped_ptr(a, dev) != (void *)a);
#pragma omp target
  a[1] = 7;
  int before = a[1];
#pragma omp target update from(a)
  printf("close update: host a[1]=%d after update from\n",
         before == 1 ? a[1] : -1);
#pragma omp target
  a[0] = 8;
#pragma omp target exit data map(close, from : a)
  printf("close exit: host a[0]=%d present=%d\n", a[0],
         omp_target_is_present(a, dev));

  // A buffer associated with x is x's device copy under unified shared
  // memory too.
  int x = 10;
  int *buffer = omp_target_alloc(sizeof(int), dev);
  int rc = omp_target_associate_ptr(&x, buffer, sizeof(int), 0, dev);
  printf("associate: rc=%d present=%d mapped=%s\n", rc,
         omp_target_is_present(&x, dev),
         omp_get_mapped_ptr(&x, dev) == buffer ? "buffer" : "other");
#pragma omp target map(always, to : x)
  x += 1;
  int in_buffer = 0;
  omp_target_memcpy(&in_buffer, buffer, sizeof(int), 0, 0, host, dev);
  printf("associated region: host x=%d buffer=%d\n", x, in_buffer);
  rc = omp_target_disassociate_ptr(&x, dev);
  printf("disassociate: rc=%d present=%d\n", rc,
         omp_target_is_present(&x, dev));
  omp_target_free(buffer, dev);
  printf("done\n");
  return 0;
}
