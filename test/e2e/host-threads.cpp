// Many host threads map, run and unmap on the same devices at once; each
// sees only its own data.
// REQUIRES: our-libomptarget
// RUN: %clangxx -fopenmp -fopenmp-targets=%target-cpu %s -o %t -pthread
// RUN: env OMP_TARGET_OFFLOAD=mandatory %ours-run %t | FileCheck %s
#include <cstdio>
#include <omp.h>
#include <thread>
#include <vector>

int main() {
  constexpr int Threads = 16, Rounds = 50, N = 256;
  std::vector<int> Failures(Threads, 0);
  std::vector<std::thread> Pool;
  for (int t = 0; t < Threads; ++t)
    Pool.emplace_back([t, &Failures] {
      std::vector<int> data(N);
      int *p = data.data();
      int dev = t % 2;
      for (int r = 0; r < Rounds; ++r) {
        for (int i = 0; i < N; ++i)
          p[i] = t * 1000 + i;
#pragma omp target enter data map(to : p [0:N]) device(dev)
#pragma omp target map(tofrom : p [0:N]) device(dev)
        for (int i = 0; i < N; ++i)
          p[i] += r;
#pragma omp target exit data map(from : p [0:N]) device(dev)
        for (int i = 0; i < N; ++i)
          if (p[i] != t * 1000 + i + r)
            ++Failures[t];
      }
    });
  for (auto &T : Pool)
    T.join();
  // All threads share one array: reference counting decides which thread
  // copies it in and out, and no increment may be lost in between.
  static int Shared[Threads];
  Pool.clear();
  for (int t = 0; t < Threads; ++t)
    Pool.emplace_back([t] {
      int me = t; // a local, not a lambda capture, for the region
      for (int r = 0; r < Rounds; ++r) {
#pragma omp target data map(tofrom : Shared)
        {
#pragma omp target map(tofrom : Shared)
          Shared[me] += 1;
        }
      }
    });
  for (auto &T : Pool)
    T.join();
  int total = 0;
  for (int f : Failures)
    total += f;
  for (int t = 0; t < Threads; ++t)
    total += Shared[t] != Rounds;
  // CHECK: threads=16 failures=0
  std::printf("threads=%d failures=%d\n", Threads, total);
  return total != 0;
}
