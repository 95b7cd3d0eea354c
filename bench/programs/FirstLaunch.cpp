//===- FirstLaunch.cpp - Exec to the first launch of a one-kernel program -===//
//
// Usage: ExecTimer FirstLaunch
// The start-up a user of a small offload program pays: loading libomptarget
// and everything it needs (a runtime that pulls in libLLVM pays for that
// library's loading and relocations here), registering one image, starting
// the device and launching its only kernel. Measured from exec to the end of
// the first target region.
//
//===----------------------------------------------------------------------===//

#include "BenchCommon.h"

#include <ctime>

int main() {
  const char *StartText = std::getenv("BENCH_EXEC_START_NS");
  if (!StartText) {
    std::fprintf(stderr, "error: run this program under ExecTimer\n");
    return 2;
  }
  long long StartNs = std::atoll(StartText);

  int Value = 41;
#pragma omp target map(tofrom : Value)
  Value += 1;
  timespec Now;
  clock_gettime(CLOCK_MONOTONIC, &Now);
  long long NowNs = Now.tv_sec * 1000000000LL + Now.tv_nsec;
  if (Value != 42)
    bench::fail("the kernel did not add one");

  bench::printLoadedRuntime();
  bench::printResult("first_launch_ms", (NowNs - StartNs) / 1e6);
  return 0;
}
