//===- check.h - Verdict helpers for the GPU check kit's programs ---------===//
//
// Every kit program prints exactly one verdict line, `PASS <name>` or
// `FAIL <name>: <why>`, and exits 0 only on PASS. Lines starting with
// `INFO <name>:` carry measurements (run.sh shows them). A program that
// crashes or hangs prints no verdict; run.sh reports that itself.
//
//===----------------------------------------------------------------------===//
#ifndef GPU_CHECK_CHECK_H
#define GPU_CHECK_CHECK_H

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <omp.h>

namespace check {

/// The name run.sh knows the program by; set from KIT_NAME at build time.
#ifndef KIT_NAME
#error "build.sh passes -DKIT_NAME=\"<program name>\""
#endif
inline const char *name() { return KIT_NAME; }

inline int Failures = 0;
inline char FirstFailure[512];

/// Records a failed expectation; the first one becomes the FAIL reason.
inline void fail(const char *Format, ...) {
  if (Failures++ == 0) {
    va_list Args;
    va_start(Args, Format);
    std::vsnprintf(FirstFailure, sizeof(FirstFailure), Format, Args);
    va_end(Args);
  }
}

inline void info(const char *Format, ...) {
  std::printf("INFO %s: ", name());
  va_list Args;
  va_start(Args, Format);
  std::vprintf(Format, Args);
  va_end(Args);
  std::printf("\n");
  std::fflush(stdout);
}

/// Target regions must really run on an offload device: a kit that passes
/// because everything fell back to the host proves nothing. run.sh sets
/// OMP_TARGET_OFFLOAD=MANDATORY as well; this catches a runtime that
/// ignores it.
inline void expectOffloaded() {
  int OnHost = 1;
#pragma omp target map(from : OnHost)
  OnHost = omp_is_initial_device();
  if (OnHost)
    fail("target region ran on the host (omp_get_num_devices() = %d)",
         omp_get_num_devices());
}

/// Prints the verdict and returns the exit status for main.
inline int verdict() {
  if (Failures == 0) {
    std::printf("PASS %s\n", name());
    return 0;
  }
  std::printf("FAIL %s: %s", name(), FirstFailure);
  if (Failures > 1)
    std::printf(" (and %d more)", Failures - 1);
  std::printf("\n");
  return 1;
}

} // namespace check

#define CHECK(Cond, ...)                                                      \
  do {                                                                         \
    if (!(Cond))                                                               \
      ::check::fail(__VA_ARGS__);                                              \
  } while (0)

#endif // GPU_CHECK_CHECK_H
