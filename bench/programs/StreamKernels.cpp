//===- StreamKernels.cpp - Triad and dot on the CPU device (C++) ----------===//
//
// `target teams distribute parallel for` triad (a = b + q*c) and dot
// (sum of a*b) over N doubles, mapped once; the best of several timed
// launches after a warm-up, as GB/s of the arrays' bytes (triad: 3 arrays,
// dot: 2). StreamKernels.f90 is the same in Fortran, so the two languages'
// kernels can be compared on one runtime.
//
// Usage: StreamKernels [elements (default 2^25)] [timed launches (default 10)]
//
//===----------------------------------------------------------------------===//

#include "BenchCommon.h"

#include <algorithm>
#include <vector>

int main(int Argc, char **Argv) {
  const long N = bench::argOr(Argc, Argv, 1, 1L << 25);
  const long Launches = bench::argOr(Argc, Argv, 2, 10);
  std::vector<double> VA(N, 0.0), VB(N, 1.0), VC(N, 2.0);
  double *A = VA.data(), *B = VB.data(), *C = VC.data();
  const double Q = 3.0;
  double BestTriad = 1e30, BestDot = 1e30, Sum = 0.0;
#pragma omp target enter data map(to : A[0 : N], B[0 : N], C[0 : N])
  for (long L = 0; L <= Launches; ++L) {
    auto Start = bench::Clock::now();
#pragma omp target teams distribute parallel for
    for (long I = 0; I < N; ++I)
      A[I] = B[I] + Q * C[I];
    double Triad = bench::secondsSince(Start);
    Sum = 0.0;
    Start = bench::Clock::now();
#pragma omp target teams distribute parallel for reduction(+ : Sum)
    for (long I = 0; I < N; ++I)
      Sum += A[I] * B[I];
    double Dot = bench::secondsSince(Start);
    if (L > 0) { // the first launch of each is the warm-up
      BestTriad = std::min(BestTriad, Triad);
      BestDot = std::min(BestDot, Dot);
    }
  }
#pragma omp target exit data map(from : A[0 : N]) map(release : B[0 : N], C[0 : N])
  if (Sum != 7.0 * N || A[N - 1] != 7.0) {
    std::fprintf(stderr, "error: wrong results (dot %g, a(n) %g)\n", Sum,
                 A[N - 1]);
    return 1;
  }
  bench::printResult("triad_gbps", 3.0 * 8 * N / BestTriad / 1e9);
  bench::printResult("dot_gbps", 2.0 * 8 * N / BestDot / 1e9);
  bench::printLoadedRuntime();
  return 0;
}
