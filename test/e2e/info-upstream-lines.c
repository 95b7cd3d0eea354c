// LIBOMPTARGET_INFO=-1 prints the lines upstream's runtime prints, checked
// on both runtimes with the same patterns: locations without debug
// information as "unknown:0:0", the "(update suppressed)" searches of a
// launch's arguments, of `target update` and of an attachment, "Name=" on
// every existing mapping, the table of every device after each construct
// and at exit, the plugin's prefix on launches, and copies named by the
// entry they copy within (a member's copy by its struct). Ours also names the
// image's triple when it loads it.
// REQUIRES: our-libomptarget
// RUN: %clang -fopenmp -fopenmp-targets=%target-cpu %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=mandatory LIBOMPTARGET_INFO=-1 %ours-run %t 2>&1 \
// RUN:   | FileCheck %s --check-prefixes=CHECK,OURS
// RUN: env OMP_TARGET_OFFLOAD=mandatory LIBOMPTARGET_INFO=-1 %upstream-run %t \
// RUN:   2>&1 | FileCheck %s
// RUN: %clang -g -fopenmp -fopenmp-targets=%target-cpu %s -o %t-g
// RUN: env OMP_TARGET_OFFLOAD=mandatory LIBOMPTARGET_INFO=-1 %ours-run %t-g \
// RUN:   2>&1 | FileCheck %s --check-prefix=DEBUG
// RUN: env OMP_TARGET_OFFLOAD=mandatory LIBOMPTARGET_INFO=-1 %upstream-run \
// RUN:   %t-g 2>&1 | FileCheck %s --check-prefix=DEBUG
// clang-format off
#include <stdio.h>
#include <stdlib.h>

struct Holder {
  double *p;
};

struct Pair {
  double x[4];
  int n;
};

int main(void) {
  int a[64];
  double *buffer = malloc(32 * sizeof(double));
  struct Holder h = {buffer};
  struct Pair q = {{1, 2, 3, 4}, 4};
  for (int i = 0; i < 64; ++i)
    a[i] = i;
  for (int i = 0; i < 32; ++i)
    buffer[i] = i;

  // OURS: omptarget device 0 info: Loaded device image 0 (x86_64-pc-linux-gnu) with {{[0-9]+}} entries
  // CHECK: omptarget device 0 info: Entering OpenMP data region with being_mapper at unknown:0:0 with 1 arguments:
  // CHECK: omptarget device 0 info: OpenMP Host-Device pointer mappings after block at unknown:0:0:
  // CHECK-NEXT: omptarget device 0 info: Host Ptr           Target Ptr         Size (B) DynRefCount HoldRefCount Declaration
  // CHECK-NEXT: omptarget device 0 info: 0x{{[0-9a-f]+}} 0x{{[0-9a-f]+}} 256      1           0            unknown at unknown:0:0
  // CHECK-NEXT: omptarget device 1 info: OpenMP Host-Device pointer mappings table empty
  // CHECK-NEXT: omptarget device 2 info: OpenMP Host-Device pointer mappings table empty
  // CHECK-NEXT: omptarget device 3 info: OpenMP Host-Device pointer mappings table empty
  // DEBUG: Entering OpenMP data region with being_mapper at info-upstream-lines.c:[[@LINE+1]]:{{[0-9]+}} with 1 arguments:
#pragma omp target enter data map(to : a)

  // CHECK: omptarget device 0 info: Entering OpenMP kernel at unknown:0:0 with 1 arguments:
  // CHECK: omptarget device 0 info: Mapping exists with HstPtrBegin=0x[[A:[0-9a-f]+]], TgtPtrBegin=0x{{[0-9a-f]+}}, Size=256, DynRefCount=2 (incremented), HoldRefCount=0, Name=unknown
  // CHECK-NEXT: omptarget device 0 info: Mapping exists with HstPtrBegin=0x[[A]], TgtPtrBegin=0x{{[0-9a-f]+}}, Size=256, DynRefCount=2 (update suppressed), HoldRefCount=0{{$}}
  // CHECK-NEXT: "PluginInterface" device 0 info: Launching kernel __omp_offloading_{{.*}}_main_l[[@LINE+4]] with
  // CHECK-NEXT: omptarget device 0 info: Mapping exists with HstPtrBegin=0x[[A]], TgtPtrBegin=0x{{[0-9a-f]+}}, Size=256, DynRefCount=1 (decremented), HoldRefCount=0
  // DEBUG: Mapping exists with {{.*}}, Size=256, DynRefCount=2 (incremented), HoldRefCount=0, Name=a
  // DEBUG: OpenMP Host-Device pointer mappings after block at info-upstream-lines.c:[[@LINE+1]]:{{[0-9]+}}:
#pragma omp target map(tofrom : a)
  for (int i = 0; i < 64; ++i)
    a[i] += 1;

  // An attachment searches for the pointee (as a zero-length section) and
  // for the pointer.
  // CHECK: omptarget device 0 info: Entering OpenMP kernel at unknown:0:0 with 3 arguments:
  // CHECK: omptarget device 0 info: Mapping exists with HstPtrBegin=0x{{[0-9a-f]+}}, TgtPtrBegin=0x{{[0-9a-f]+}}, Size=0, DynRefCount=1 (update suppressed), HoldRefCount=0{{$}}
  // CHECK-NEXT: omptarget device 0 info: Mapping exists with HstPtrBegin=0x{{[0-9a-f]+}}, TgtPtrBegin=0x{{[0-9a-f]+}}, Size=8, DynRefCount=1 (update suppressed), HoldRefCount=0{{$}}
  // CHECK: "PluginInterface" device 0 info: Launching kernel __omp_offloading_{{.*}}_main_l[[@LINE+1]] with
#pragma omp target map(tofrom : h.p[0:32])
  for (int i = 0; i < 32; ++i)
    h.p[i] += 1;

  // A member copied within its struct's entry is named by the struct.
  // DEBUG: Entering OpenMP data region with being_mapper at info-upstream-lines.c:[[@LINE+2]]:{{[0-9]+}} with 3 arguments:
  // DEBUG: Copying data from host to device, HstPtr=0x{{[0-9a-f]+}}, TgtPtr=0x{{[0-9a-f]+}}, Size=32, Name=q{{$}}
#pragma omp target data map(tofrom : q, q.x[0:4])
  {
  }

  // CHECK: omptarget device 0 info: Updating data within the OpenMP data region with update_mapper at unknown:0:0 with 1 arguments:
  // CHECK-NEXT: omptarget device 0 info: from(unknown)[256]
  // CHECK-NEXT: omptarget device 0 info: Mapping exists with HstPtrBegin=0x[[A]], TgtPtrBegin=0x{{[0-9a-f]+}}, Size=256, DynRefCount=1 (update suppressed), HoldRefCount=0{{$}}
#pragma omp target update from(a)

  // CHECK: omptarget device 0 info: Removing map entry with HstPtrBegin=0x[[A]], TgtPtrBegin=0x{{[0-9a-f]+}}, Size=256, Name=unknown
  // CHECK-NEXT: omptarget device 0 info: OpenMP Host-Device pointer mappings table empty
  // CHECK-NEXT: omptarget device 1 info: OpenMP Host-Device pointer mappings table empty
  // CHECK-NEXT: omptarget device 2 info: OpenMP Host-Device pointer mappings table empty
  // CHECK-NEXT: omptarget device 3 info: OpenMP Host-Device pointer mappings table empty
#pragma omp target exit data map(release : a)

  // At exit every device's table, the last device first.
  // CHECK-NEXT: omptarget device 3 info: OpenMP Host-Device pointer mappings table empty
  // CHECK-NEXT: omptarget device 2 info: OpenMP Host-Device pointer mappings table empty
  // CHECK-NEXT: omptarget device 1 info: OpenMP Host-Device pointer mappings table empty
  // CHECK-NEXT: omptarget device 0 info: OpenMP Host-Device pointer mappings table empty
  // CHECK-NOT: info:
  // The result goes to the exit code only: a line on stdout lands among the
  // exit-time INFO lines wherever the C library flushes it.
  int wrong = a[63] != 64 || buffer[31] != 32;
  free(buffer);
  return wrong;
}
