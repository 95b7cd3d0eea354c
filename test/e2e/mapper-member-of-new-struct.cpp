// A member whose type has a declare mapper, inside a struct that the
// construct maps for the first time: the mapper's components arrive as a
// list of their own, and their `to` members must still be copied, because
// the storage holding them was allocated by this construct.
// REQUIRES: our-libomptarget
// RUN: %clangxx -fopenmp -fopenmp-targets=%target-cpu %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=mandatory %ours-run %t | FileCheck %s
// RUN: env OMP_TARGET_OFFLOAD=mandatory %upstream-run %t | FileCheck %s
#include <cstdio>

struct Inner {
  int Id;
  double *Out;
};
#pragma omp declare mapper(Inner I) map(to : I.Id) map(from : I.Out[0 : 2])

struct Middle {
  int Tag;
  double *Out;
  Inner Nested;
};
#pragma omp declare mapper(Middle M) map(to : M.Tag, M.Nested)             \
    map(from : M.Out[0 : 2])

struct Outer {
  int Before;
  Middle Member; // mapped through its default mapper, implicitly
  int After;
};

int main() {
  double A[2] = {0, 0}, B[2] = {0, 0};
  Outer O = {1, {22, A, {77, B}}, 3};
  Outer *P = &O;
  int Tag = -1, Id = -1;
#pragma omp target map(tofrom : P[0]) map(from : Tag, Id)
  {
    Tag = P->Member.Tag;
    Id = P->Member.Nested.Id;
    P->Before = 10;
  }
  // CHECK: Tag=22 Id=77 Before=10
  std::printf("Tag=%d Id=%d Before=%d\n", Tag, Id, O.Before);
  return 0;
}
