// Faults in target regions: 1 traps, 3 deadlocks (half the threads of a
// region wait at a barrier the other half never reaches).
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
  int What = argc > 1 ? atoi(argv[1]) : 0;
  int X = 1;
#pragma omp target map(tofrom : X)
  {
    if (What == 1)
      __builtin_trap();
  }
  if (What == 3) {
#pragma omp target parallel num_threads(64)
    {
      if (omp_get_thread_num() < 32) {
#pragma omp barrier
      }
    }
  }
  printf("faults: %d survived\n", What);
  return 0;
}
