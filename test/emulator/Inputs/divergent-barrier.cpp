// A barrier that only some threads of a team reach, as code ported from
// CUDA has it: threads 125..127 of a 128-thread team skip the branch with
// the barrier. OpenMP leaves this undefined; on a GPU it completes when
// every whole-block barrier is the block's one hardware barrier (the
// skipping threads' arrival at the region's closing barrier completes the
// round), which is how upstream's device runtime and ours build it.
#include <cstdio>
#include <omp.h>

int main() {
  constexpr int N = 128, Active = 125;
  int Out[N];
  for (int I = 0; I < N; ++I)
    Out[I] = -1;
  // SPMD: the region is the whole kernel.
#pragma omp target parallel num_threads(N) map(tofrom : Out[0 : N])
  {
    int Tid = omp_get_thread_num();
    if (Tid < Active) {
      Out[Tid] = Tid;
#pragma omp barrier
      // Each thread reads its neighbour's write from before the barrier.
      Out[Tid] += 1000 * (Out[(Tid + 1) % Active] >= 0);
    }
  }
  int Right = 0;
  for (int I = 0; I < Active; ++I)
    Right += Out[I] == I + 1000;
  for (int I = Active; I < N; ++I)
    Right += Out[I] == -1;
  std::printf("spmd divergent barrier: %d of %d right\n", Right, N);

  // Generic mode: the team's main thread forks the region.
  for (int I = 0; I < N; ++I)
    Out[I] = -1;
#pragma omp target teams num_teams(1) thread_limit(N) map(tofrom : Out[0 : N])
  {
    int Size = 0;
#pragma omp parallel num_threads(N) shared(Size)
    {
      int Tid = omp_get_thread_num();
      if (Tid == 0)
        Size = omp_get_num_threads();
      if (Tid < Active) {
        Out[Tid] = Tid;
#pragma omp barrier
        Out[Tid] += 1000 * (Out[(Tid + 1) % Active] >= 0);
      }
    }
    Out[N - 1] = Size;
  }
  Right = 0;
  for (int I = 0; I < Active; ++I)
    Right += Out[I] == I + 1000;
  std::printf("generic divergent barrier: %d of %d right, team of %d\n",
              Right, Active, Out[N - 1]);
  return 0;
}
