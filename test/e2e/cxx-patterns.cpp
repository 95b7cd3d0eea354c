// C++ mapping patterns compared with Debian's runtime: lambda captures by
// reference, `this` members, nested struct pointers, a declare mapper over
// an array section of structs, use_device_ptr/use_device_addr, partial
// target update, zero-length sections and host fallbacks.
// REQUIRES: our-libomptarget
// RUN: %clangxx -fopenmp -fopenmp-targets=%target-cpu %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=mandatory %ours-run %t | FileCheck %s
// RUN: env OMP_TARGET_OFFLOAD=mandatory %upstream-run %t | FileCheck %s
#include <cstdio>
#include <omp.h>

struct Inner {
  int n;
  int *p;
};
struct Outer {
  int tag;
  Inner in;
};
struct Elem {
  int n;
  double *d;
};
#pragma omp declare mapper(Elem e) map(e, e.d[0 : e.n])

class Holder {
public:
  int n = 6;
  int *data;
  Holder() {
    data = new int[n];
    for (int i = 0; i < n; ++i)
      data[i] = i;
  }
  ~Holder() { delete[] data; }
  void bump() {
#pragma omp target map(tofrom : data[0 : n])
    for (int i = 0; i < n; ++i)
      data[i] += 10;
  }
};

int main() {
  int x = 5;
  double arr[8] = {0};
  auto f = [&](int i) { arr[i] = x * i; };
#pragma omp target map(to : x) map(tofrom : arr) map(to : f)
  for (int i = 0; i < 8; ++i)
    f(i);
  // CHECK: lambda arr[7]=35
  std::printf("lambda arr[7]=%g\n", arr[7]);

  int buf[5] = {1, 2, 3, 4, 5};
  Outer o{7, {5, buf}};
#pragma omp target map(tofrom : o, o.in.p[0 : o.in.n])
  {
    o.tag += 1;
    for (int i = 0; i < o.in.n; ++i)
      o.in.p[i] *= 2;
  }
  // CHECK: nested tag=8 buf[4]=10
  std::printf("nested tag=%d buf[4]=%d\n", o.tag, buf[4]);

  Holder h;
  h.bump();
  // CHECK: this data[5]=15
  std::printf("this data[5]=%d\n", h.data[5]);

  double s0[2] = {1, 2}, s1[3] = {3, 4, 5};
  Elem es[2] = {{2, s0}, {3, s1}};
#pragma omp target map(tofrom : es[0 : 2])
  for (int k = 0; k < 2; ++k)
    for (int i = 0; i < es[k].n; ++i)
      es[k].d[i] += 100;
  // CHECK: mapper-array s0[1]=102 s1[2]=105
  std::printf("mapper-array s0[1]=%g s1[2]=%g\n", s0[1], s1[2]);

  int a[10];
  for (int i = 0; i < 10; ++i)
    a[i] = i;
#pragma omp target enter data map(to : a)
  for (int i = 0; i < 10; ++i)
    a[i] = -i;
#pragma omp target update to(a[2 : 3])
#pragma omp target map(tofrom : a[0 : 0])
  for (int i = 0; i < 10; ++i)
    a[i] += 100;
#pragma omp target exit data map(from : a)
  // CHECK: partial-update a[1]=101 a[2]=98 a[4]=96 a[5]=105
  std::printf("partial-update a[1]=%d a[2]=%d a[4]=%d a[5]=%d\n", a[1], a[2],
              a[4], a[5]);

  int *p = new int[4]{1, 1, 1, 1};
  int *devPtr = nullptr, *devAddr = nullptr;
#pragma omp target enter data map(to : p[0 : 4])
#pragma omp target data use_device_ptr(p)
  devPtr = p;
#pragma omp target data use_device_addr(p[0 : 4])
  devAddr = &p[0];
#pragma omp target map(p[0 : 0])
  p[3] = 9;
#pragma omp target exit data map(from : p[0 : 4])
  // CHECK: zero-length p[3]=9 device-ptr=1 same=1
  std::printf("zero-length p[3]=%d device-ptr=%d same=%d\n", p[3],
              devPtr != p && devPtr != nullptr, devPtr == devAddr);
  delete[] p;

  int hostRun = -1, ifRun = -1;
#pragma omp target device(omp_get_initial_device()) map(from : hostRun)
  hostRun = omp_is_initial_device();
#pragma omp target if (0) map(from : ifRun)
  ifRun = omp_is_initial_device();
  // CHECK: initial-device host=1 if0=1
  std::printf("initial-device host=%d if0=%d\n", hostRun, ifRun);
}
