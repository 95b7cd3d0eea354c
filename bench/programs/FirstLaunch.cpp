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

int main() {
  const long long StartNs = bench::execStartNs();

  int Value = 41;
#pragma omp target map(tofrom : Value)
  Value += 1;
  const double ElapsedMs = bench::msSinceExecStart(StartNs);
  if (Value != 42)
    bench::fail("the kernel did not add one");

  bench::printLoadedRuntime();
  bench::printResult("first_launch_ms", ElapsedMs);
  return 0;
}
