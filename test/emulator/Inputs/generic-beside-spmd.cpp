// A generic-mode teams kernel whose parallel region must run on every
// thread, in the same image as a kernel that OpenMPOpt turns into SPMD mode.
// The other kernel need not even run. The region reads a local of the
// serial part.
#include <omp.h>
#include <stdio.h>

int main(int argc, char **argv) {
  int OnHost = 1;
#ifndef ALONE
  if (argc > 5) {
#pragma omp target map(from : OnHost)
    OnHost = omp_is_initial_device();
  }
#endif
  const int N = argc > 1 ? 8 : 7, T = argc > 1 ? 64 : 63;
  int Hits = 0;
#pragma omp target teams num_teams(N) thread_limit(T) map(tofrom : Hits)
  {
    const int Team = omp_get_team_num(); // shared with the region
#pragma omp parallel
    {
      if (Team < N) {
#pragma omp atomic update
        Hits += 1;
      }
    }
  }
  printf("hits=%d of %d\n", Hits, N * T);
  return Hits != N * T;
}
