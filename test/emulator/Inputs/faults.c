// Faults in target regions: 1 traps; 3 has half the threads of a region
// wait at a barrier the other half never reaches, which completes where
// every whole-block barrier is the block's one hardware barrier (the other
// half arrives at the region's closing barrier); 4 deadlocks: half of a
// 32-thread region in a 64-thread team waits at the region's own counted
// barrier, which only the region's threads can complete.
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
  if (What == 4) {
#pragma omp target teams num_teams(1) thread_limit(64) map(tofrom : X)
    {
      // A serial part: generic mode, the team's 64 threads wait for the
      // main thread's regions.
      X = omp_get_team_num() + 1;
#pragma omp parallel num_threads(32)
      {
        if (omp_get_thread_num() < 16) {
#pragma omp barrier
        }
      }
    }
  }
  printf("faults: %d survived\n", What);
  return 0;
}
