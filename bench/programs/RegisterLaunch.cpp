//===- RegisterLaunch.cpp - Registration and first launch of a big image --===//
//
// Usage: ExecTimer RegisterLaunch
// Linked with generated translation units holding thousands of kernels (see
// bench/runner/generate.py), so the program's offload image is large. Run
// under ExecTimer, it measures from exec to the end of its first target
// region: loading libomptarget, registering the image, initialising the
// device, loading the image and launching one kernel.
//
//===----------------------------------------------------------------------===//

#include "BenchCommon.h"

/// Defined by the generated translation units: kernel K returns V + K.
int benchKernel0(int V);
int benchKernelLast(int V);
extern const int BenchKernelCount;

int main() {
  const long long StartNs = bench::execStartNs();

  int First = benchKernel0(41);
  const double ElapsedMs = bench::msSinceExecStart(StartNs);
  if (First != 41)
    bench::fail("the first kernel returned a wrong value");
  // The last kernel proves the whole table was registered (untimed).
  if (benchKernelLast(1) != BenchKernelCount)
    bench::fail("the last kernel returned a wrong value");

  bench::printLoadedRuntime();
  bench::printResult("register_first_launch_ms", ElapsedMs);
  return 0;
}
