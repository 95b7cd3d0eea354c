//===- LaunchPatterns.cpp - Time-step loops of small kernels ---------------===//
//
// Usage: LaunchPatterns <pattern> [steps] [KiB per array]
// The launch patterns of time-stepping codes: every step runs four small
// `target teams distribute parallel for` kernels over 1 MiB arrays that stay
// mapped for the whole loop. The patterns differ in who launches:
//   main      the initial thread, one kernel after the other;
//   nowait    the same kernels as `nowait` target tasks chained by `depend`,
//             with a `taskwait` per step (they run on libomp's hidden
//             helper threads or other task threads);
//   single    one thread of a host `parallel` region (`single`);
//   threads2  two threads of a host `parallel` region, each stepping its
//             own arrays.
// Prints the time per step in microseconds; the final arrays are checked
// against the same recurrence computed on the host.
//
//===----------------------------------------------------------------------===//

#include "BenchCommon.h"

#include <omp.h>

#include <cmath>
#include <cstring>
#include <vector>

namespace {

/// Elements of each array (1 MiB of doubles unless the command line says).
long Elements = (1 << 20) / sizeof(double);

/// The four arrays one launcher steps.
struct Fields {
  std::vector<double> A, B, C, D;
  explicit Fields(int Seed)
      : A(Elements), B(Elements), C(Elements), D(Elements) {
    for (long I = 0; I < Elements; ++I)
      A[I] = (I % 97) * 0.01 + Seed;
  }
};

/// What the four kernels of a step compute, for one element (the host's
/// reference).
void stepElement(double &A, double &B, double &C, double &D) {
  B = A * 0.5 + 1.0;
  C = B + A;
  D = C - B;
  A = D * 0.999 + 0.001;
}

/// One step from the launching thread, the kernels in order.
void stepSync(double *A, double *B, double *C, double *D) {
#pragma omp target teams distribute parallel for
  for (long I = 0; I < Elements; ++I)
    B[I] = A[I] * 0.5 + 1.0;
#pragma omp target teams distribute parallel for
  for (long I = 0; I < Elements; ++I)
    C[I] = B[I] + A[I];
#pragma omp target teams distribute parallel for
  for (long I = 0; I < Elements; ++I)
    D[I] = C[I] - B[I];
#pragma omp target teams distribute parallel for
  for (long I = 0; I < Elements; ++I)
    A[I] = D[I] * 0.999 + 0.001;
}

/// One step as target tasks: each kernel depends on the one before.
void stepNowait(double *A, double *B, double *C, double *D) {
#pragma omp target teams distribute parallel for nowait depend(out : B[0])
  for (long I = 0; I < Elements; ++I)
    B[I] = A[I] * 0.5 + 1.0;
#pragma omp target teams distribute parallel for nowait depend(in : B[0])      \
    depend(out : C[0])
  for (long I = 0; I < Elements; ++I)
    C[I] = B[I] + A[I];
#pragma omp target teams distribute parallel for nowait depend(in : C[0])      \
    depend(out : D[0])
  for (long I = 0; I < Elements; ++I)
    D[I] = C[I] - B[I];
#pragma omp target teams distribute parallel for nowait depend(in : D[0])      \
    depend(out : A[0])
  for (long I = 0; I < Elements; ++I)
    A[I] = D[I] * 0.999 + 0.001;
#pragma omp taskwait
}

/// Runs \p Steps steps on \p F with its arrays mapped for the whole loop.
void run(Fields &F, long Steps, bool Nowait) {
  double *A = F.A.data(), *B = F.B.data(), *C = F.C.data(), *D = F.D.data();
#pragma omp target data map(tofrom : A[0 : Elements])                         \
    map(alloc : B[0 : Elements], C[0 : Elements], D[0 : Elements])
  for (long S = 0; S < Steps; ++S) {
    if (Nowait)
      stepNowait(A, B, C, D);
    else
      stepSync(A, B, C, D);
  }
}

/// Whether \p F holds what \p Steps steps from seed \p Seed give.
bool check(const Fields &F, int Seed, long Steps) {
  Fields Expected(Seed);
  for (long I = 0; I < Elements; ++I) {
    double &A = Expected.A[I];
    double B, C, D;
    for (long S = 0; S < Steps; ++S)
      stepElement(A, B, C, D);
    if (std::fabs(A - F.A[I]) > 1e-9 * (1 + std::fabs(A)))
      return false;
  }
  return true;
}

} // namespace

int main(int Argc, char **Argv) {
  if (Argc < 2)
    bench::fail("usage: LaunchPatterns main|nowait|single|threads2 [steps]");
  const char *Pattern = Argv[1];
  long Steps = bench::argOr(Argc, Argv, 2, 1000);
  Elements = bench::argOr(Argc, Argv, 3, 1024) * 1024 / sizeof(double);
  bool Nowait = !std::strcmp(Pattern, "nowait");
  int Launchers = !std::strcmp(Pattern, "threads2") ? 2 : 1;
  bool InParallel = Launchers == 2 || !std::strcmp(Pattern, "single");
  if (!Nowait && !InParallel && std::strcmp(Pattern, "main"))
    bench::fail("unknown pattern (main, nowait, single, threads2)");

  int OnDevice = 0;
#pragma omp target map(from : OnDevice)
  OnDevice = !omp_is_initial_device();
  if (!OnDevice)
    bench::fail("the target region ran on the host (no offload device)");

  std::vector<Fields> All;
  for (int L = 0; L < Launchers; ++L)
    All.emplace_back(L + 1);
  // A few untimed steps load the image and start the threads.
  std::vector<Fields> Warm(All);
  auto Start = bench::Clock::now();
  for (int Round = 0; Round < 2; ++Round) {
    std::vector<Fields> &Work = Round ? All : Warm;
    long N = Round ? Steps : 10;
    if (Round)
      Start = bench::Clock::now();
    if (!InParallel) {
      run(Work[0], N, Nowait);
      continue;
    }
#pragma omp parallel num_threads(2)
    {
      if (Launchers == 2) {
        run(Work[omp_get_thread_num()], N, false);
      } else {
#pragma omp single
        run(Work[0], N, false);
      }
    }
  }
  double Seconds = bench::secondsSince(Start);

  for (int L = 0; L < Launchers; ++L)
    if (!check(All[L], L + 1, Steps))
      bench::fail("wrong result");
  bench::printLoadedRuntime();
  bench::printResult("step_us", Seconds / Steps * 1e6);
  return 0;
}
