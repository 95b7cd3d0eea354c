// Main translation unit of multi-tu.test: a declare-target global and an
// SPMD kernel here, a generic-mode kernel in tu_lib.cpp.
#include <cstdio>

#pragma omp declare target
int Scale = 3;
#pragma omp end declare target

int sumFromLibrary(int N);

int main() {
  int Sum = 0;
#pragma omp target teams distribute parallel for reduction(+ : Sum)
  for (int I = 0; I < 100; ++I)
    Sum += I * Scale;
  std::printf("main=%d lib=%d\n", Sum, sumFromLibrary(10));
  return 0;
}
