// Generic-mode kernels: the runtime's state machine runs a nested parallel
// region with critical, single, barrier and master on the workers, with a
// local of the serial part globalised into shared memory; and every team of
// a league starts its own parallel region.
#include <omp.h>
#include <stdio.h>

int main() {
  int Count = 0, Singles = 0, Threads = 0;
#pragma omp target map(tofrom : Count, Singles, Threads)
  {
    int Local = 5; // shared with the region: globalised
#pragma omp parallel num_threads(64) shared(Local)
    {
#pragma omp critical
      Count += Local;
#pragma omp single
      Singles++;
#pragma omp barrier
#pragma omp master
      Threads = omp_get_num_threads();
    }
  }
  printf("generic: count=%d singles=%d threads=%d\n", Count, Singles, Threads);

  int PerTeam[8] = {0};
#pragma omp target teams num_teams(8) map(tofrom : PerTeam)
  {
    int Team = omp_get_team_num();
#pragma omp parallel num_threads(32)
    {
#pragma omp atomic
      PerTeam[Team] += 1;
    }
  }
  int Good = 0;
  for (int T = 0; T < 8; T++)
    Good += PerTeam[T] == 32;
  printf("teams with 32 threads: %d of 8\n", Good);
  return !(Count == 5 * Threads && Singles == 1 && Threads == 64 && Good == 8);
}
