// A kernel that faults inside a `target nowait` region: the failure
// surfaces when its task's work is polled, named with the construct.
#include <stdio.h>

int main(void) {
  int X = 1;
#pragma omp target nowait map(tofrom : X)
  {
    if (X == 1)
      __builtin_trap();
  }
#pragma omp taskwait
  printf("not reached: %d\n", X);
  return 0;
}
