// A team-shared array of SHARED_BYTES bytes in a kernel. The index comes
// from the host, so that the optimiser keeps the array whole.
#include <omp.h>
#include <stdio.h>

#ifndef SHARED_BYTES
#define SHARED_BYTES 1024
#endif

int main(int Argc, char **Argv) {
  int Last = SHARED_BYTES - Argc, First = 0;
#pragma omp target teams num_teams(2) thread_limit(64) map(tofrom : First)
  {
    static char Team[SHARED_BYTES] __attribute__((loader_uninitialized));
#pragma omp allocate(Team) allocator(omp_pteam_mem_alloc)
    for (int I = 0; I <= Last; ++I)
      Team[I] = (char)(I % 7);
    if (omp_get_team_num() == 0)
      First = Team[Last];
  }
  printf("shared-limits: %d (expected %d)\n", First, Last % 7);
  return 0;
}
