// A team-local array of KB KiB in team-shared memory
// (omp_pteam_mem_alloc), filled by a parallel loop and summed by each of
// four teams. Beside the device runtime's own team-shared memory it must
// fit what the GPU allows a block (48 KiB of static shared memory on sm_90,
// 64 KiB of LDS on gfx90a), as it does with upstream's runtime.
#include <omp.h>
#include <cstdio>
#ifndef KB
#define KB 16
#endif
int main() {
  const int N = KB * 1024 / sizeof(int);
  long sums[4] = {0};
#pragma omp target teams num_teams(4) thread_limit(64) map(tofrom: sums)
  {
    int buf[N];
#pragma omp allocate(buf) allocator(omp_pteam_mem_alloc)
#pragma omp parallel for
    for (int i = 0; i < N; ++i) buf[i] = i + omp_get_team_num();
    long s = 0;
    for (int i = 0; i < N; ++i) s += buf[i];
    sums[omp_get_team_num()] = s;
  }
  long n = N;
  for (int t = 0; t < 4; ++t)
    if (sums[t] != n * (n - 1) / 2 + n * t) { printf("FAIL team %d %ld\n", t, sums[t]); return 1; }
  printf("PASS %d KiB\n", KB);
}
