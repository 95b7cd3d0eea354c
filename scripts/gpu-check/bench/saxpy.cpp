// saxpy over 2^28 doubles on omp_target_alloc'ed memory, as GB/s and as a
// share of the device-to-device copy bandwidth measured in the same run
// (saxpy moves 3 x 8 bytes per element: reads x and y, writes y).
#include "bench.h"

int main() {
  const int64_t N = bench::size(int64_t(1) << 28, int64_t(1) << 20);
  const size_t Bytes = size_t(N) * sizeof(double);
  const int Dev = omp_get_default_device();
  double *X = static_cast<double *>(omp_target_alloc(Bytes, Dev));
  double *Y = static_cast<double *>(omp_target_alloc(Bytes, Dev));
  bench::expect(X && Y, "omp_target_alloc of x and y failed");
  if (!X || !Y)
    return bench::finish();
#pragma omp target teams distribute parallel for is_device_ptr(X, Y)
  for (int64_t I = 0; I < N; ++I) {
    X[I] = double(I % 1024);
    Y[I] = 1.0;
  }
  const double A = 0.5;
  const int Reps = bench::small() ? 3 : 10;
  double T = bench::timeMedian(Reps, [&] {
#pragma omp target teams distribute parallel for is_device_ptr(X, Y)
    for (int64_t I = 0; I < N; ++I)
      Y[I] = A * X[I] + Y[I];
  });
  double Last = 0;
#pragma omp target is_device_ptr(Y) map(from : Last)
  Last = Y[N - 1];
  // One warm-up and Reps timed runs: y = 1 + (Reps + 1) * a * x.
  bench::expect(Last == 1.0 + (Reps + 1) * A * double((N - 1) % 1024),
                "saxpy result is wrong");
  omp_target_free(X, Dev);
  omp_target_free(Y, Dev);
  double GBs = 3.0 * double(Bytes) / T * 1e-9;
  double Copy = bench::copyBandwidth(Bytes) * 1e-9;
  bench::row("d2d_copy", Copy, "GB/s");
  bench::row("saxpy_f64", GBs, "GB/s");
  bench::row("saxpy_f64_share_of_copy", 100.0 * GBs / Copy, "%");
  return bench::finish();
}
