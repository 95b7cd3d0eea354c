//===- bench.h - Rows and timing for the GPU check kit's benchmarks -------===//
//
// Every benchmark prints one line per figure:
//   ROW name=<row> value=<number> unit=<us|ms|GB/s|%>
// (run.sh --bench takes the medians over repetitions and builds). A figure
// that cannot be measured with this build prints
//   ROW name=<row> value=nan unit=<unit> note=<why>
// A wrong result prints `BENCH-FAIL <why>` and makes the program exit 1:
// a fast wrong answer is no benchmark.
//
// The same source is built by our toolchain, upstream clang and GCC, so only
// standard OpenMP is used; the LLVM-only pinned allocator is a weak symbol.
//
// GPU_CHECK_SMALL=1 (run.sh --cpu) shrinks every size so that the CPU device
// runs the whole set in seconds; GPU_CHECK_EMULATED=1 as well (run.sh --bench
// --emulate) takes an eighth of that, since there the programs only have to
// run and an emulated launch costs about a millisecond.
//
//===----------------------------------------------------------------------===//
#ifndef GPU_CHECK_BENCH_H
#define GPU_CHECK_BENCH_H

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <omp.h>
#include <vector>

namespace bench {

inline bool small() { return std::getenv("GPU_CHECK_SMALL") != nullptr; }

inline bool emulated() {
  return small() && std::getenv("GPU_CHECK_EMULATED") != nullptr;
}

/// Big on a GPU, small on the CPU device, an eighth of small (at least 1)
/// on the GPU emulator.
inline int64_t size(int64_t Big, int64_t Small) {
  if (emulated())
    return std::max<int64_t>(1, Small / 8);
  return small() ? Small : Big;
}

inline void row(const char *Name, double Value, const char *Unit) {
  std::printf("ROW name=%s value=%.6g unit=%s\n", Name, Value, Unit);
  std::fflush(stdout);
}

inline void missing(const char *Name, const char *Unit, const char *Why) {
  std::printf("ROW name=%s value=nan unit=%s note=%s\n", Name, Unit, Why);
  std::fflush(stdout);
}

inline int Failures = 0;

inline void expect(bool Ok, const char *What) {
  if (!Ok && Failures++ == 0)
    std::printf("BENCH-FAIL %s\n", What);
}

inline int finish() { return Failures ? 1 : 0; }

inline double median(std::vector<double> V) {
  std::sort(V.begin(), V.end());
  size_t N = V.size();
  return N % 2 ? V[N / 2] : 0.5 * (V[N / 2 - 1] + V[N / 2]);
}

/// Median seconds of Reps calls of F after one warm-up call.
template <typename Fn> double timeMedian(int Reps, Fn F) {
  F();
  std::vector<double> T;
  for (int R = 0; R < Reps; ++R) {
    double Start = omp_get_wtime();
    F();
    T.push_back(omp_get_wtime() - Start);
  }
  return median(T);
}

/// Device-to-device copy bandwidth (bytes read + written per second) of
/// Bytes with omp_target_memcpy: the reference the kernels are a share of.
inline double copyBandwidth(size_t Bytes) {
  int Dev = omp_get_default_device();
  void *A = omp_target_alloc(Bytes, Dev), *B = omp_target_alloc(Bytes, Dev);
  expect(A && B, "omp_target_alloc for the device copy failed");
  if (!A || !B)
    return NAN;
  double T = timeMedian(5, [&] {
    expect(omp_target_memcpy(B, A, Bytes, 0, 0, Dev, Dev) == 0,
           "omp_target_memcpy device to device failed");
  });
  omp_target_free(A, Dev);
  omp_target_free(B, Dev);
  return 2.0 * double(Bytes) / T;
}

} // namespace bench

#endif // GPU_CHECK_BENCH_H
