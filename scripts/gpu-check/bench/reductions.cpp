// reduction(+) over 2^28 doubles and reduction(min) over 2^28 ints, as GB/s
// read and as a share of the device-to-device copy bandwidth of the same
// bytes (a reduction only reads, so 100 % would be reading at the speed a
// copy reads and writes).
#include "bench.h"

#include <climits>

int main() {
  const int64_t N = bench::size(int64_t(1) << 28, int64_t(1) << 20);
  const int Dev = omp_get_default_device();
  double *D = static_cast<double *>(omp_target_alloc(N * sizeof(double), Dev));
  int *K = static_cast<int *>(omp_target_alloc(N * sizeof(int), Dev));
  bench::expect(D && K, "omp_target_alloc failed");
  if (!D || !K)
    return bench::finish();
  // Exact in double whatever the order: small integers.
#pragma omp target teams distribute parallel for is_device_ptr(D, K)
  for (int64_t I = 0; I < N; ++I) {
    D[I] = double(I % 4);
    K[I] = I == N / 3 ? -5 : int((I * 7919) % 1000003);
  }
  const int Reps = bench::small() ? 3 : 10;
  double Sum = 0;
  double TSum = bench::timeMedian(Reps, [&] {
    Sum = 0;
#pragma omp target teams distribute parallel for is_device_ptr(D)              \
    reduction(+ : Sum) map(tofrom : Sum)
    for (int64_t I = 0; I < N; ++I)
      Sum += D[I];
  });
  int Min = INT_MAX;
  double TMin = bench::timeMedian(Reps, [&] {
    Min = INT_MAX;
#pragma omp target teams distribute parallel for is_device_ptr(K)              \
    reduction(min : Min) map(tofrom : Min)
    for (int64_t I = 0; I < N; ++I)
      Min = K[I] < Min ? K[I] : Min;
  });
  omp_target_free(D, Dev);
  omp_target_free(K, Dev);
  bench::expect(Sum == 1.5 * double(N), "reduction(+) result is wrong");
  bench::expect(Min == -5, "reduction(min) result is wrong");
  double SumGBs = N * sizeof(double) / TSum * 1e-9;
  double MinGBs = N * sizeof(int) / TMin * 1e-9;
  double CopyD = bench::copyBandwidth(N * sizeof(double)) * 1e-9;
  double CopyI = bench::copyBandwidth(N * sizeof(int)) * 1e-9;
  bench::row("reduce_sum_f64", SumGBs, "GB/s");
  bench::row("reduce_sum_f64_share_of_copy", 100.0 * SumGBs / CopyD, "%");
  bench::row("reduce_min_i32", MinGBs, "GB/s");
  bench::row("reduce_min_i32_share_of_copy", 100.0 * MinGBs / CopyI, "%");
  return bench::finish();
}
