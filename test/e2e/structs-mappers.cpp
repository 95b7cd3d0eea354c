// Struct members (MEMBER_OF), pointers inside mapped structs (attach and
// ptr_and_obj), and declare mapper.
// REQUIRES: our-libomptarget
// RUN: %clangxx -fopenmp -fopenmp-targets=%target-cpu %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=mandatory %ours-run %t | FileCheck %s
#include <cstdio>
#include <omp.h>

struct Vec {
  int n;
  double *data;
};
#pragma omp declare mapper(Vec v) map(v, v.data [0:v.n])

// Like Vec, without a mapper.
struct Span {
  int n;
  double *data;
};

struct Pair {
  int first;
  int pad[100];
  int second;
};

int main() {
  double storage[8];
  for (int i = 0; i < 8; ++i)
    storage[i] = i;

  // Struct plus the array its pointer member points to.
  Span a{8, storage};
#pragma omp target map(to : a) map(tofrom : a.data [0:a.n])
  for (int i = 0; i < a.n; ++i)
    a.data[i] *= 2;
  // CHECK: attach data[1]=2 data[7]=14 pointer-kept=1
  std::printf("attach data[1]=%g data[7]=%g pointer-kept=%d\n", storage[1],
              storage[7], a.data == storage);

  // Two members of a struct: only they travel.
  Pair p;
  p.first = 1;
  p.second = 2;
  p.pad[50] = 7;
#pragma omp target map(tofrom : p.first, p.second)
  {
    p.first += 10;
    p.second += 20;
  }
  // CHECK: members first=11 second=22 pad=7
  std::printf("members first=%d second=%d pad=%d\n", p.first, p.second,
              p.pad[50]);

  // The mapper maps the struct and its array together.
  double other[4] = {1, 2, 3, 4};
  Vec m{4, other};
#pragma omp target map(tofrom : m)
  for (int i = 0; i < m.n; ++i)
    m.data[i] += 100;
  // CHECK: mapper other[0]=101 other[3]=104
  std::printf("mapper other[0]=%g other[3]=%g\n", other[0], other[3]);

  // A pointer variable and its pointee mapped by enter data stay attached
  // for later regions.
  double *ptr = storage;
#pragma omp target enter data map(to : ptr, ptr [0:8])
#pragma omp target
  ptr[0] = 42;
#pragma omp target exit data map(from : ptr [0:8]) map(release : ptr)
  // CHECK: enter-data attach storage[0]=42
  std::printf("enter-data attach storage[0]=%g\n", storage[0]);
  return 0;
}
