//===- OverlapChains.cpp - Independent nowait chains against their sum ----===//
//
// Usage: OverlapChains [chains] [KiB per chain] [rounds] [work per element]
//                      [serial|nowait]
// Each chain is {copy in, kernel, copy out} on its own array: `target enter
// data map(to)`, a `target teams distribute parallel for` and `target exit
// data map(from)`. A round runs the chains once one after the other
// (blocking constructs: their serial sum), and once as `nowait` constructs
// chained by `depend` within each chain, the chains independent of each
// other, with one `taskwait` at the end. On a device whose copies and
// kernels go on streams the chains overlap, and the nowait time falls
// below the serial one; a device that runs one thing at a time stays near
// 1. Prints the medians over the rounds (after an untimed one) and their
// ratio; every round's arrays are checked against the host's answer. With
// a fifth argument only that form runs, every round, and only its median
// is printed: so that a profiler (perf stat) sees one form's cost alone.
//
//===----------------------------------------------------------------------===//

#include "BenchCommon.h"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace {

long Elements = 0; // per chain
long Work = 16;    // recurrence steps per element in the kernel

double initial(long Chain, long I) { return (I % 89) * 0.01 + Chain; }

/// What the kernel leaves in one element.
double expected(double X) {
  for (long S = 0; S < Work; ++S)
    X = X * 0.999 + 0.5;
  return X;
}

void fill(std::vector<std::vector<double>> &Arrays) {
  for (size_t C = 0; C < Arrays.size(); ++C)
    for (long I = 0; I < Elements; ++I)
      Arrays[C][I] = initial(C, I);
}

void chainSync(double *X) {
  long N = Elements, W = Work;
#pragma omp target enter data map(to : X [0:N])
#pragma omp target teams distribute parallel for map(present, alloc : X [0:N])
  for (long I = 0; I < N; ++I) {
    double V = X[I];
    for (long S = 0; S < W; ++S)
      V = V * 0.999 + 0.5;
    X[I] = V;
  }
#pragma omp target exit data map(from : X [0:N])
}

void chainNowait(double *X) {
  long N = Elements, W = Work;
#pragma omp target enter data map(to : X [0:N]) nowait depend(out : X[0])
#pragma omp target teams distribute parallel for map(present, alloc            \
                                                     : X [0:N]) nowait         \
depend(inout                                                                   \
       : X[0])
  for (long I = 0; I < N; ++I) {
    double V = X[I];
    for (long S = 0; S < W; ++S)
      V = V * 0.999 + 0.5;
    X[I] = V;
  }
#pragma omp target exit data map(from : X [0:N]) nowait depend(inout : X[0])
}

/// Seconds to run every chain over \p Arrays, checked.
double runChains(std::vector<std::vector<double>> &Arrays, bool Nowait) {
  fill(Arrays);
  auto Start = bench::Clock::now();
  if (Nowait) {
    for (std::vector<double> &A : Arrays)
      chainNowait(A.data());
#pragma omp taskwait
  } else {
    for (std::vector<double> &A : Arrays)
      chainSync(A.data());
  }
  double Seconds = bench::secondsSince(Start);
  for (size_t C = 0; C < Arrays.size(); ++C)
    for (long I = 0; I < Elements; I += 97) {
      double Want = expected(initial(C, I));
      if (std::fabs(Arrays[C][I] - Want) > 1e-9 * (1 + std::fabs(Want)))
        bench::fail(Nowait ? "nowait chains" : "serial chains");
    }
  return Seconds;
}

double median(std::vector<double> V) {
  std::sort(V.begin(), V.end());
  size_t N = V.size();
  return N % 2 ? V[N / 2] : (V[N / 2 - 1] + V[N / 2]) / 2;
}

} // namespace

int main(int Argc, char **Argv) {
  long Chains = bench::argOr(Argc, Argv, 1, 8);
  Elements = bench::argOr(Argc, Argv, 2, 1024) * 1024 / sizeof(double);
  long Rounds = bench::argOr(Argc, Argv, 3, 5);
  Work = bench::argOr(Argc, Argv, 4, 16);
  std::string Only = Argc > 5 ? Argv[5] : "";
  if (!Only.empty() && Only != "serial" && Only != "nowait") {
    std::fprintf(stderr, "error: argument 5 ('%s') must be serial or nowait\n",
                 Only.c_str());
    return 2;
  }

  int OnDevice = 0;
#pragma omp target map(from : OnDevice)
  OnDevice = !omp_is_initial_device();
  if (!OnDevice)
    bench::fail("the target region ran on the host (no offload device)");

  std::vector<std::vector<double>> Arrays(Chains,
                                          std::vector<double>(Elements));
  if (!Only.empty()) {
    bool Nowait = Only == "nowait";
    (void)runChains(Arrays, Nowait); // untimed: images, threads, streams
    std::vector<double> Times;
    for (long R = 0; R < Rounds; ++R)
      Times.push_back(runChains(Arrays, Nowait));
    bench::printLoadedRuntime();
    bench::printResult(Nowait ? "nowait_ms" : "serial_ms", median(Times) * 1e3);
    return 0;
  }
  (void)runChains(Arrays, false); // untimed: images, threads, streams
  (void)runChains(Arrays, true);
  std::vector<double> Serial, Nowait;
  for (long R = 0; R < Rounds; ++R) {
    // Which form goes first alternates, so neither always follows the other.
    bool NowaitFirst = R % 2;
    double First = runChains(Arrays, NowaitFirst);
    double Second = runChains(Arrays, !NowaitFirst);
    Serial.push_back(NowaitFirst ? Second : First);
    Nowait.push_back(NowaitFirst ? First : Second);
  }
  bench::printLoadedRuntime();
  bench::printResult("serial_ms", median(Serial) * 1e3);
  bench::printResult("nowait_ms", median(Nowait) * 1e3);
  bench::printResult("nowait_over_serial", median(Nowait) / median(Serial));
  return 0;
}
