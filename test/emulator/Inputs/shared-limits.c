// Team-shared arrays of SHARED_BYTES bytes in one kernel, or (TWO_KERNELS)
// in each of two: a GPU's link counts each kernel's own, so two kernels of
// 30 KiB each fit where one of 60 KiB does not. The indices come from the
// host, so that the optimiser keeps the arrays whole.
#include <omp.h>
#include <stdio.h>

#ifndef SHARED_BYTES
#define SHARED_BYTES 1024
#endif

int main(int Argc, char **Argv) {
  int Last = SHARED_BYTES - Argc, First = 0, Second = 0;
#pragma omp target teams num_teams(2) thread_limit(64) map(tofrom : First)
  {
    static char Team[SHARED_BYTES] __attribute__((loader_uninitialized));
#pragma omp allocate(Team) allocator(omp_pteam_mem_alloc)
    for (int I = 0; I <= Last; ++I)
      Team[I] = (char)(I % 7);
    if (omp_get_team_num() == 0)
      First = Team[Last];
  }
#ifdef TWO_KERNELS
#pragma omp target teams num_teams(2) thread_limit(64) map(tofrom : Second)
  {
    static char Other[SHARED_BYTES] __attribute__((loader_uninitialized));
#pragma omp allocate(Other) allocator(omp_pteam_mem_alloc)
    for (int I = 0; I <= Last; ++I)
      Other[I] = (char)(I % 5);
    if (omp_get_team_num() == 0)
      Second = Other[Last];
  }
#endif
  printf("shared-limits: %d %d (expected %d %d)\n", First, Second, Last % 7,
#ifdef TWO_KERNELS
         Last % 5);
#else
         0);
#endif
  return 0;
}
