// use_device_addr and use_device_ptr on array sections of data mapped
// earlier, and use_device_addr of a reference to a mapped array: clang passes the section's base (the pointer's value) with size
// zero, and the region adds the offset to the device address it gets back,
// so the lookup must find the mapping through its extended range, as
// upstream's runtime does. Checked on both runtimes.
// REQUIRES: our-libomptarget
// RUN: %clangxx -fopenmp -fopenmp-targets=%target-cpu %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=mandatory %ours-run %t | FileCheck %s
// RUN: env OMP_TARGET_OFFLOAD=mandatory %upstream-run %t | FileCheck %s
#include <cstdio>
#include <omp.h>

int Storage[10];
int *P = &Storage[0];
int Table[4][4];

/// A reference to an array: clang maps it ptr_and_obj from the slot that
/// holds the reference, and the base given back must be the device copy of
/// the array, not of the slot.
struct Holder {
  int (&Ref)[4][4] = Table;
  int check() {
#pragma omp target enter data map(to : Ref)
    void *Mapped = omp_get_mapped_ptr(&Ref, omp_get_default_device());
    int Same;
#pragma omp target data map(Ref[0][2]) use_device_addr(Ref)
    Same = Mapped == &Ref;
#pragma omp target exit data map(release : Ref)
    return Mapped && Mapped != &Table && Same;
  }
};

int main() {
#pragma omp target enter data map(to : P[3 : 4])
  int Device = omp_get_default_device();
  int *Mapped = static_cast<int *>(omp_get_mapped_ptr(&P[3], Device));
  // CHECK: mapped elsewhere: 1
  std::printf("mapped elsewhere: %d\n", Mapped && Mapped != &P[3]);
  // CHECK: in section: 1
#pragma omp target data use_device_addr(P[3 : 4])
  std::printf("in section: %d\n", &P[3] == Mapped);
  // Before the section, at or after its base: the same translation.
  // CHECK: before section: 1
#pragma omp target data use_device_addr(P[2])
  std::printf("before section: %d\n", &P[3] == Mapped);
  // CHECK: use_device_ptr: 1
#pragma omp target data use_device_ptr(P)
  std::printf("use_device_ptr: %d\n", P + 3 == Mapped);
#pragma omp target exit data map(release : P[3 : 4])
  // CHECK: reference member: 1
  std::printf("reference member: %d\n", Holder().check());
  return 0;
}
