// fprintf, puts and fputs in target regions go to the host through the
// host-service channel (printf itself keeps the driver's vprintf on NVIDIA
// GPUs). Each call's output is one piece, and all of it is out before the
// kernel's completion returns.
#include <omp.h>
#include <stdio.h>

int main(void) {
  int Lengths[8] = {0};
#pragma omp target teams num_teams(2) thread_limit(4) map(tofrom : Lengths)
#pragma omp parallel
  {
    int Id = omp_get_team_num() * 4 + omp_get_thread_num();
    Lengths[Id] = fprintf(stdout, "thread %d of team %d: %s %5.2f %lld|%*d\n",
                          omp_get_thread_num(), omp_get_team_num(), "value",
                          Id * 0.5, 1LL << 40, 3, Id);
    if (Id == 0) {
      fprintf(stderr, "to stderr %s\n", (const char *)0);
      puts("puts adds a newline");
      fputs("fputs does not\n", stdout);
    }
  }
  printf("host: lengths");
  for (int I = 0; I < 8; ++I)
    printf(" %d", Lengths[I]);
  printf("\n");
  return 0;
}
