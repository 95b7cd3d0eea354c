// 10,000 small kernels back to back (1,000 with GPU_CHECK_SMALL, 125 on the
// GPU emulator) (launch throughput): each touches 256 elements already on
// the device, so the time is launch overhead.
#include "bench.h"

int main() {
  const int Kernels = int(bench::size(10000, 1000)), N = 256;
  std::vector<int> V(N, 0);
  int *P = V.data();
  std::vector<double> T;
#pragma omp target data map(tofrom : P[0 : N])
  {
    for (int R = 0; R < (bench::small() ? 2 : 5); ++R) {
      double Start = omp_get_wtime();
      for (int K = 0; K < Kernels; ++K) {
#pragma omp target teams distribute parallel for
        for (int I = 0; I < N; ++I)
          P[I] += 1;
      }
      T.push_back(omp_get_wtime() - Start);
    }
  }
  bench::expect(V[N - 1] == Kernels * int(T.size()), "the kernels miscounted");
  double Total = bench::median(T);
  bench::row("small_kernels_total", Total * 1e3, "ms");
  bench::row("small_kernel_each", Total / Kernels * 1e6, "us");
  return bench::finish();
}
