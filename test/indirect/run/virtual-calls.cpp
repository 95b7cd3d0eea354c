// Virtual calls on objects mapped from the host (whose vtable pointers are
// host addresses) run the device copies of `declare target indirect`
// classes' member functions; objects built on the device work too.
// RUN: %clangxx -fopenmp -fopenmp-targets=%target-cpu -Wno-openmp-mapping %s -o %t
// RUN: %ours-run %t | FileCheck %s
// Images linked by our wrapper also run on Debian's runtime, which builds
// the same table.
// RUN: %upstream-run %t | FileCheck %s
// REQUIRES: our-libomptarget, our-linker-wrapper, our-cpu-device-runtime, indirect-plugin

#include <omp.h>
#include <stdio.h>

#pragma omp declare target indirect
struct Shape {
  int Size = 3;
  virtual int area() { return 1000 * omp_is_initial_device() + 0; }
  virtual int sides() { return 1000 * omp_is_initial_device() + 1; }
  virtual ~Shape() {}
};
struct Square : Shape {
  int area() override { return 1000 * omp_is_initial_device() + Size * Size; }
  int sides() override { return 1000 * omp_is_initial_device() + 4; }
};
struct Triangle : Shape {
  int sides() override { return 1000 * omp_is_initial_device() + 3; }
};
#pragma omp end declare target

int main() {
  Square Sq;
  Triangle Tri;
  int SqArea = 0, SqSides = 0, TriArea = 0, TriSides = 0;
#pragma omp target map(to                                                      \
                       : Sq, Tri) map(from                                     \
                                      : SqArea, SqSides, TriArea, TriSides)
  {
    Shape *A = &Sq, *B = &Tri;
    SqArea = A->area();
    SqSides = A->sides();
    TriArea = B->area();
    TriSides = B->sides();
  }
  // CHECK: mapped: 9 4 0 3
  printf("mapped: %d %d %d %d\n", SqArea, SqSides, TriArea, TriSides);

  // A pointer to member function, virtual and not.
  int (Shape::*Virtual)() = &Shape::sides;
  int (Square::*Direct)() = &Square::area;
  int ViaMember = 0, ViaDirect = 0;
#pragma omp target map(to : Sq) map(from : ViaMember, ViaDirect)
  {
    Shape *A = &Sq;
    ViaMember = (A->*Virtual)();
    ViaDirect = (Sq.*Direct)();
  }
  // CHECK: member pointers: 4 9
  printf("member pointers: %d %d\n", ViaMember, ViaDirect);

  int Local = 0;
#pragma omp target map(from : Local)
  {
    Triangle T;
    Shape *S = &T;
    Local = S->sides();
  }
  // CHECK: device object: 3
  printf("device object: %d\n", Local);
  return 0;
}
