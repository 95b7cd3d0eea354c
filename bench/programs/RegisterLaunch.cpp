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

#include <ctime>

/// Defined by the generated translation units: kernel K returns V + K.
int benchKernel0(int V);
int benchKernelLast(int V);
extern const int BenchKernelCount;

int main() {
  const char *StartText = std::getenv("BENCH_EXEC_START_NS");
  if (!StartText) {
    std::fprintf(stderr, "error: run this program under ExecTimer\n");
    return 2;
  }
  long long StartNs = std::atoll(StartText);

  int First = benchKernel0(41);
  timespec Now;
  clock_gettime(CLOCK_MONOTONIC, &Now);
  long long NowNs = Now.tv_sec * 1000000000LL + Now.tv_nsec;
  if (First != 41)
    bench::fail("the first kernel returned a wrong value");
  // The last kernel proves the whole table was registered (untimed).
  if (benchKernelLast(1) != BenchKernelCount)
    bench::fail("the last kernel returned a wrong value");

  bench::printLoadedRuntime();
  bench::printResult("register_first_launch_ms", (NowNs - StartNs) / 1e6);
  return 0;
}
