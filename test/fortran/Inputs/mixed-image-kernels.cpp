// The C++ half of mixed-image.f90: clang compiles this target region for
// the CPU device in host style (libomp's __kmpc_fork_teams/fork_call), and
// it ends up in the same device image as Flang's GPU-style kernels.
#include <omp.h>

extern "C" void cxx_fill(int *Data, int N, int *Threads) {
  int MaxThreads = 0;
#pragma omp target teams distribute parallel for map(tofrom                    \
                                                     : Data [0:N])             \
    reduction(max                                                              \
              : MaxThreads)
  for (int I = 0; I < N; ++I) {
    Data[I] += I;
    int T = omp_get_num_threads();
    MaxThreads = T > MaxThreads ? T : MaxThreads;
  }
  *Threads = MaxThreads;
}
