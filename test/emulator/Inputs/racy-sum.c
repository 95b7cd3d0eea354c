// A team of 128 threads adds to a shared sum without a reduction: a data
// race. On a GPU the threads run side by side and updates are lost, a
// different number each run. The emulator's default schedule runs them one
// at a time and gets the exact sum; its random schedule loses updates too.
#include <stdio.h>

int main(void) {
  long Sum = 0;
#pragma omp target teams num_teams(1) thread_limit(128) map(tofrom : Sum)
#pragma omp parallel for num_threads(128)
  for (int I = 0; I < 100000; ++I)
    Sum += I;
  printf("sum %ld%s\n", Sum, Sum == 4999950000L ? " (exact)" : "");
  return 0;
}
