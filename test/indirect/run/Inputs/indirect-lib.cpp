// Part of several-units.cpp and shared-library.cpp: `declare target
// indirect` functions of another translation unit or library, and a function
// of that unit that calls a pointer in a target region.
#include <omp.h>

#pragma omp declare target indirect
int libTriple(int X) { return 1000 * omp_is_initial_device() + 3 * X; }
int libNegate(int X) { return 1000 * omp_is_initial_device() - X; }
#pragma omp end declare target

int (*libPointer(int Which))(int) { return Which ? libNegate : libTriple; }

int libApply(int (*Fn)(int), int X) {
  int R = 0;
#pragma omp target map(from : R)
  R = Fn(X);
  return R;
}
