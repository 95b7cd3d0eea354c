// Generic-mode kernels whose parallel regions have reductions, the shapes of
// the GPU kit's device_malloc (a team's block filled by one `parallel for`
// and checked by a second one with a reduction) and reductions (a `parallel
// for` reduction nested in a `teams distribute` reduction). Link-time
// OpenMPOpt writes its own state machine into them, which takes the workers
// to be the threads below the kernel's compiled block size (thread_limit, 128
// by default) less one warp.
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static int perTeamBlock(int Teams) {
  const int Words = 4096;
  int Bad = 0, Runs = 0;
#pragma omp target teams num_teams(Teams) map(tofrom : Bad, Runs)
  {
    long long *P = (long long *)malloc(Words * sizeof(long long));
    int TeamBad = 0;
    if (P) {
#pragma omp parallel for
      for (int W = 0; W < Words; ++W)
        P[W] = (long long)omp_get_team_num() << 32 | W;
#pragma omp parallel for reduction(+ : TeamBad)
      for (int W = 0; W < Words; ++W)
        TeamBad += P[Words - 1 - W] !=
                   ((long long)omp_get_team_num() << 32 | (Words - 1 - W));
      free(P);
    } else {
      TeamBad = 1;
    }
#pragma omp atomic update
    Bad += TeamBad;
#pragma omp atomic update
    Runs += 1;
  }
  if (Bad == 0 && Runs >= 1 && Runs <= Teams)
    return 0;
  printf("per-team block: %d bad words, %d team runs\n", Bad, Runs);
  return 1;
}

static long long expectedSum(int Blocks, int BlockSize) {
  long long Sum = 0;
  for (int B = 0; B < Blocks; ++B)
    for (int J = 0; J < BlockSize; ++J)
      Sum += (long long)(B * BlockSize + J) % 7 + B;
  return Sum;
}

static int nested(int Blocks, int BlockSize) {
  long long Sum = 0;
#pragma omp target teams distribute reduction(+ : Sum) map(tofrom : Sum)
  for (int B = 0; B < Blocks; ++B) {
#pragma omp parallel for reduction(+ : Sum)
    for (int J = 0; J < BlockSize; ++J)
      Sum += (long long)(B * BlockSize + J) % 7 + B;
  }
  if (Sum == expectedSum(Blocks, BlockSize))
    return 0;
  printf("nested: %lld, expected %lld\n", Sum, expectedSum(Blocks, BlockSize));
  return 1;
}

static int nestedLimited(int Blocks, int BlockSize) {
  long long Sum = 0;
#pragma omp target teams distribute reduction(+ : Sum) map(tofrom : Sum)      \
    thread_limit(64) num_teams(4)
  for (int B = 0; B < Blocks; ++B) {
#pragma omp parallel for reduction(+ : Sum)
    for (int J = 0; J < BlockSize; ++J)
      Sum += (long long)(B * BlockSize + J) % 7 + B;
  }
  if (Sum == expectedSum(Blocks, BlockSize))
    return 0;
  printf("nested, thread_limit(64): %lld, expected %lld\n", Sum,
         expectedSum(Blocks, BlockSize));
  return 1;
}

int main() {
  int Wrong = perTeamBlock(4) + nested(9, 1023) + nestedLimited(8, 1000);
  printf("state-machine reductions: %d wrong\n", Wrong);
  return Wrong != 0;
}
