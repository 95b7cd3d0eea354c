// Latency of an empty `target` region (no maps): the fixed cost of every
// offloaded construct in the runtime and the plugin.
#include "bench.h"

int main() {
  const int N = int(bench::size(20000, 2000));
  int OnHost = 1;
#pragma omp target map(from : OnHost)
  OnHost = omp_is_initial_device();
  bench::expect(!OnHost || omp_get_num_devices() == 0,
                "target region ran on the host");
  std::vector<double> T;
  for (int Batch = 0; Batch < 5; ++Batch) {
    double Start = omp_get_wtime();
    for (int I = 0; I < N; ++I) {
#pragma omp target
      {
      }
    }
    T.push_back((omp_get_wtime() - Start) / N);
  }
  bench::row("empty_target", bench::median(T) * 1e6, "us");
  return bench::finish();
}
