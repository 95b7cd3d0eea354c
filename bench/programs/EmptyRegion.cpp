//===- EmptyRegion.cpp - Latency of an empty target region ----------------===//
//
// Usage: EmptyRegion [iterations]
// The cost of launching a target region that maps nothing and does nothing:
// the runtime's fixed overhead per `#pragma omp target`.
//
//===----------------------------------------------------------------------===//

#include "BenchCommon.h"

#include <omp.h>

int main(int Argc, char **Argv) {
  long Iterations = bench::argOr(Argc, Argv, 1, 20000);

  // The first regions pay for device initialisation and image loading; they
  // belong to another figure.
  int OnDevice = 0;
#pragma omp target map(from : OnDevice)
  OnDevice = !omp_is_initial_device();
  if (!OnDevice)
    bench::fail("the target region ran on the host (no offload device)");
  for (int I = 0; I < 200; ++I) {
#pragma omp target
    {}
  }

  auto Start = bench::Clock::now();
  for (long I = 0; I < Iterations; ++I) {
#pragma omp target
    {}
  }
  double Seconds = bench::secondsSince(Start);

  bench::printLoadedRuntime();
  bench::printResult("empty_region_us", Seconds / Iterations * 1e6);
  return 0;
}
