// The kernel arguments of a target region are found with the mapping
// table's lock released while a firstprivate item is copied. When the table
// changes in that window (here: a tool's callback for the private copy's
// allocation re-associates `a` with another device buffer, as another host
// thread could), the arguments after it come from the table as it is then,
// not from entries found before the window.
// REQUIRES: our-libomptarget
// RUN: %clang -shared -fPIC %S/Inputs/ompt-alloc-hook-tool.c -o %t.tool.so
// RUN: %clang -fopenmp -fopenmp-targets=%target-cpu -Wl,--export-dynamic %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=mandatory OMP_TOOL_LIBRARIES=%t.tool.so %ours-run %t | FileCheck %s
// CHECK: hook ran: 1
// CHECK-NEXT: first buffer 0, second buffer 7, host 0
#include <omp.h>
#include <stdio.h>

struct Big {
  char bytes[4099];
};

size_t hook_bytes = sizeof(struct Big);
static int a[4], b[4];
static int *first, *second;
static int hook_ran;

// Run by the tool inside the region's argument setup: `a` moves to the
// second buffer; `b` takes the table slot `a`'s old entry had.
void alloc_hook(void) {
  int dev = omp_get_default_device();
  hook_ran += omp_target_disassociate_ptr(a, dev) == 0 &&
              omp_target_associate_ptr(b, first, sizeof(b), 0, dev) == 0 &&
              omp_target_associate_ptr(a, second, sizeof(a), 0, dev) == 0;
}

int main(void) {
  int dev = omp_get_default_device(), host = omp_get_initial_device();
  int zeros[4] = {0};
  first = omp_target_alloc(sizeof(a), dev);
  second = omp_target_alloc(sizeof(a), dev);
  omp_target_memcpy(first, zeros, sizeof(zeros), 0, 0, dev, host);
  omp_target_memcpy(second, zeros, sizeof(zeros), 0, 0, dev, host);
  omp_target_associate_ptr(a, first, sizeof(a), 0, dev);
  struct Big big = {{7}};
  // big is captured first, so its private copy is made before a's argument
  // is found.
#pragma omp target firstprivate(big) map(tofrom : a)
  {
    int seven = big.bytes[0];
    a[0] = seven;
  }
  int in_first[4], in_second[4];
  omp_target_memcpy(in_first, first, sizeof(in_first), 0, 0, host, dev);
  omp_target_memcpy(in_second, second, sizeof(in_second), 0, 0, host, dev);
  printf("hook ran: %d\n", hook_ran);
  printf("first buffer %d, second buffer %d, host %d\n", in_first[0],
         in_second[0], a[0]);
  return 0;
}
