// OpenMP 5.2 map semantics on the CPU device: reference counts, to/from at
// the right moments, always, delete, release, alloc, firstprivate and
// literals, and that device memory really is separate from the host's.
// REQUIRES: our-libomptarget
// RUN: %clang -fopenmp -fopenmp-targets=%target-cpu %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=mandatory %ours-run %t | FileCheck %s
#include <omp.h>
#include <stdio.h>

int main(void) {
  int x = 1;
  int errors = 0;

  // tofrom: copied in and out.
#pragma omp target map(tofrom : x)
  x += 1;
  // CHECK: tofrom x=2
  printf("tofrom x=%d\n", x);

  // The device copy is separate: a host write while mapped is not seen
  // until an update, and from-copy happens only when the count drops to 0.
#pragma omp target enter data map(to : x)
  x = 100;
#pragma omp target map(tofrom : x)
  x += 10; // device copy: 2 + 10; no copy back (count 2 -> 1)
  // CHECK: nested host x=100
  printf("nested host x=%d\n", x);
#pragma omp target update from(x)
  // CHECK: after update x=12
  printf("after update x=%d\n", x);
  x = 50;
#pragma omp target map(always, to : x)
  x += 1; // always: host 50 goes in
#pragma omp target exit data map(from : x)
  // CHECK: always then exit x=51
  printf("always then exit x=%d\n", x);
  errors += omp_target_is_present(&x, 0);

  // Two enters need two exits (dynamic reference count), unless delete.
  int y = 5;
#pragma omp target enter data map(to : y)
#pragma omp target enter data map(to : y)
#pragma omp target exit data map(release : y)
  int presentAfterOneRelease = omp_target_is_present(&y, 0);
#pragma omp target exit data map(delete : y)
  int presentAfterDelete = omp_target_is_present(&y, 0);
  // CHECK: refcount present=1 deleted=0
  printf("refcount present=%d deleted=%d\n", presentAfterOneRelease,
         presentAfterDelete);

  // alloc does not copy; from at the end brings the device value back.
  int z = 7;
#pragma omp target data map(alloc : z)
  {
#pragma omp target map(from : z)
    z = 70;
    // CHECK: inside data z=7
    printf("inside data z=%d\n", z);
  }
  // The enclosing data region held a reference, so the inner map(from) did
  // not copy back, and alloc never copies.
  // CHECK: after data z=7
  printf("after data z=%d\n", z);

  // firstprivate and literal scalars: the device gets copies.
  int fp = 3;
  double d = 2.5;
  int out = 0;
#pragma omp target firstprivate(fp) map(from : out)
  {
    fp *= 2;
    out = fp + (int)(d * 2);
  }
  // CHECK: firstprivate fp=3 out=11
  printf("firstprivate fp=%d out=%d\n", fp, out);

  // Arrays and sections: only the mapped section travels.
  int a[16];
  for (int i = 0; i < 16; ++i)
    a[i] = i;
#pragma omp target map(tofrom : a [4:8])
  for (int i = 4; i < 12; ++i)
    a[i] *= 10;
  // CHECK: section a[3]=3 a[4]=40 a[11]=110 a[12]=12
  printf("section a[3]=%d a[4]=%d a[11]=%d a[12]=%d\n", a[3], a[4], a[11],
         a[12]);

  // ompx_hold keeps the data mapped through a release.
  int h = 1;
#pragma omp target data map(ompx_hold, tofrom : h)
  {
#pragma omp target exit data map(release : h)
    errors += !omp_target_is_present(&h, 0);
  }
  errors += omp_target_is_present(&h, 0);

  // CHECK: errors=0
  printf("errors=%d\n", errors);
  return errors;
}
