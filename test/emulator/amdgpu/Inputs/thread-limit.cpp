// Kernels compiled for at most 64 work-items (thread_limit(64): their
// amdgpu-flat-work-group-size is "1,64"): a generic-mode `teams distribute`
// reduction with a nested `parallel for` reduction, and an SPMD `parallel
// for` that counts its team's threads. The plugin must launch no more
// work-items than the code object's .max_flat_workgroup_size (a generic
// kernel otherwise asks for thread_limit plus a wavefront for its main
// thread); link-time OpenMPOpt's state machine assumes the bound.
#include <omp.h>
#include <stdio.h>

static long long expectedSum(int Blocks, int BlockSize) {
  long long Sum = 0;
  for (int B = 0; B < Blocks; ++B)
    for (int J = 0; J < BlockSize; ++J)
      Sum += (long long)(B * BlockSize + J) % 7 + B;
  return Sum;
}

int main() {
  const int Blocks = 8, BlockSize = 1000;
  long long Sum = 0;
#pragma omp target teams distribute reduction(+ : Sum) map(tofrom : Sum)      \
    thread_limit(64) num_teams(4)
  for (int B = 0; B < Blocks; ++B) {
#pragma omp parallel for reduction(+ : Sum)
    for (int J = 0; J < BlockSize; ++J)
      Sum += (long long)(B * BlockSize + J) % 7 + B;
  }
  printf("generic, thread_limit(64): %lld, expected %lld\n", Sum,
         expectedSum(Blocks, BlockSize));

  int MaxThreads = 0;
#pragma omp target teams distribute parallel for thread_limit(64)             \
    num_teams(2) reduction(max : MaxThreads) map(tofrom : MaxThreads)
  for (int I = 0; I < 1024; ++I)
    MaxThreads = MaxThreads > omp_get_num_threads() ? MaxThreads
                                                    : omp_get_num_threads();
  printf("spmd, thread_limit(64): at most %d threads\n", MaxThreads);
  return 0;
}
