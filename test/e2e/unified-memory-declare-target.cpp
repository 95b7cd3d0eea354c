// Under `requires unified_shared_memory`, clang reaches `declare target`
// variables on the device through reference pointers
// (<variable>_decl_tgt_ref_ptr) that must hold the host addresses: used
// directly in a region, mapped explicitly (a ptr_and_obj map through the
// reference pointer) and through a member function of a struct object.
// REQUIRES: our-libomptarget
// RUN: %clangxx -fopenmp -fopenmp-targets=%target-cpu %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=mandatory %ours-run %t | FileCheck %s
// RUN: env OMP_TARGET_OFFLOAD=mandatory %upstream-run %t | FileCheck %s
#include <cstdio>
#pragma omp requires unified_shared_memory

struct Accumulator {
  int Count;
  double Values[4];
  void add(double V) { Values[Count++ % 4] += V; }
};

#pragma omp declare target
Accumulator Global = {0, {1, 2, 3, 4}};
int Counter = 5;
#pragma omp end declare target

int main() {
  int Seen = 0;
  // No map of the globals: the device reads them through the pointers.
#pragma omp target map(tofrom : Seen)
  {
    Global.add(10);
    Counter += 1;
    Seen = Global.Count + Counter;
  }
  // CHECK: direct: Count=1 Values[0]=11 Counter=6 Seen=7
  std::printf("direct: Count=%d Values[0]=%g Counter=%d Seen=%d\n",
              Global.Count, Global.Values[0], Counter, Seen);

  // Mapped explicitly: no copy, the host object is the device's.
#pragma omp target map(tofrom : Global, Counter)
  {
    Global.add(20);
    Counter *= 2;
  }
  // CHECK: mapped: Count=2 Values[1]=22 Counter=12
  std::printf("mapped: Count=%d Values[1]=%g Counter=%d\n", Global.Count,
              Global.Values[1], Counter);

  // The host changes the object between regions: the device sees it.
  Global.Values[2] = 100;
  double Read = 0;
#pragma omp target map(from : Read)
  Read = Global.Values[2];
  // CHECK: host change seen: 100
  std::printf("host change seen: %g\n", Read);
  return 0;
}
