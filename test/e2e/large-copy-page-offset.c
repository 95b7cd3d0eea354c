// On the CPU device, a large mapped range's device copy starts 64 bytes
// before the host range's offset in the page, where memcpy between them
// runs fastest both into fresh pages and between cached buffers (see
// plugin::LargeCopyBytes). Small ranges and the data itself are
// unaffected.
// REQUIRES: our-libomptarget
// RUN: %clang -fopenmp -fopenmp-targets=%target-cpu %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=mandatory %ours-run %t | FileCheck %s
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned pageOffset(const void *P) {
  return (unsigned)((uintptr_t)P % 4096);
}

int main(void) {
  int Dev = omp_get_default_device();
  size_t Count = (4u << 20) / sizeof(int);
  // Three offsets in the page: malloc's own, and two shifted ones.
  char *Raw = malloc(Count * sizeof(int) + 4096);
  int Ok = 1;
  for (unsigned Shift = 0; Shift < 3; ++Shift) {
    int *A = (int *)(Raw + Shift * 1000); // within the extra 4096 bytes
    for (size_t I = 0; I < Count; ++I)
      A[I] = (int)I;
#pragma omp target enter data map(to : A[0:Count])
    void *D = omp_get_mapped_ptr(A, Dev);
    int Before = D && D != (void *)A &&
                 (pageOffset(A) + 4096 - pageOffset(D)) % 4096 == 64;
    printf("shift %u: host offset %u, device copy %s\n", Shift, pageOffset(A),
           Before ? "64 bytes before it" : "elsewhere");
    Ok &= Before;
#pragma omp target teams distribute parallel for map(present, tofrom : A[0:Count])
    for (size_t I = 0; I < Count; ++I)
      A[I] += 1;
#pragma omp target exit data map(from : A[0:Count])
    for (size_t I = 0; I < Count; ++I)
      if (A[I] != (int)I + 1) {
        printf("A[%zu] = %d\n", I, A[I]);
        return 1;
      }
  }
  // A small range keeps whatever the plugin returns (64-byte aligned).
  int Small[4] = {1, 2, 3, 4};
#pragma omp target enter data map(to : Small)
  void *DSmall = omp_get_mapped_ptr(Small, Dev);
  printf("small: %s\n", DSmall && (uintptr_t)DSmall % 64 == 0
                            ? "64-byte aligned" : "misaligned");
#pragma omp target exit data map(delete : Small)
  free(Raw);
  printf("%s\n", Ok ? "ok" : "FAILED");
  return !Ok;
}
// CHECK: shift 0: host offset {{[0-9]+}}, device copy 64 bytes before it
// CHECK: shift 1: host offset {{[0-9]+}}, device copy 64 bytes before it
// CHECK: shift 2: host offset {{[0-9]+}}, device copy 64 bytes before it
// CHECK: small: 64-byte aligned
// CHECK: ok
