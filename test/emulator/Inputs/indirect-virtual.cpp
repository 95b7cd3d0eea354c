// `declare target indirect` functions called through host function pointers
// and virtual calls on device, in SPMD and generic kernels: the device
// runtime's host-to-device address table and the vtables of the device image.
#include <omp.h>
#include <stdio.h>

#pragma omp declare target indirect
int twice(int X) { return 2 * X + 1000 * omp_is_initial_device(); }
int square(int X) { return X * X + 1000 * omp_is_initial_device(); }

struct Shape {
  int Size = 3;
  virtual int area() { return 1000 * omp_is_initial_device(); }
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
  // Host addresses of the functions; each thread calls one of them.
  int (*Table[2])(int) = {twice, square};
  int Out[256] = {0};
#pragma omp target teams distribute parallel for num_teams(4) thread_limit(64) \
    map(to : Table) map(from : Out)
  for (int I = 0; I < 256; ++I)
    Out[I] = Table[I % 2](I);
  int Wrong = 0;
  for (int I = 0; I < 256; ++I)
    Wrong += Out[I] != (I % 2 ? I * I : 2 * I);
  printf("function pointers: %d wrong\n", Wrong);

  // Objects mapped from the host (host vtable pointers), and objects built
  // on the device, called from every thread of a generic-mode team.
  Square Sq;
  Triangle Tri;
  int Sum = 0, Local = 0;
#pragma omp target teams num_teams(1) map(to : Sq, Tri) map(tofrom : Sum, Local)
  {
    Shape *Mapped[2] = {&Sq, &Tri};
#pragma omp parallel num_threads(32) reduction(+ : Sum)
    {
      Shape *S = Mapped[omp_get_thread_num() % 2];
      Sum += S->area() * 100 + S->sides();
    }
    Triangle T;
    Shape *D = &T;
    Local = D->sides();
  }
  printf("virtual calls: %d, device object: %d\n", Sum, Local);
  return 0;
}
