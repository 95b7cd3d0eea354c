//===- BenchCommon.h - Shared helpers of the runtime benchmark programs ---===//
//
// Every benchmark program prints its figures as `RESULT <name> <value>` lines
// and the file of the libomptarget it actually ran on as a `RUNTIME <path>`
// line. The runner reads only those lines, and refuses a figure whose RUNTIME
// is not the library it meant to measure: LD_LIBRARY_PATH selects the
// runtime, and a silent fallback to the other one would compare a library
// with itself.
//
//===----------------------------------------------------------------------===//

#ifndef BENCH_PROGRAMS_BENCHCOMMON_H
#define BENCH_PROGRAMS_BENCHCOMMON_H

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <link.h>
#include <string>

namespace bench {

using Clock = std::chrono::steady_clock;

inline double secondsSince(Clock::time_point Start) {
  return std::chrono::duration<double>(Clock::now() - Start).count();
}

inline void printResult(const char *Name, double Value) {
  std::printf("RESULT %s %.9g\n", Name, Value);
}

/// Prints the path of the loaded libomptarget, as the dynamic loader found it.
inline void printLoadedRuntime() {
  std::string Found;
  dl_iterate_phdr(
      [](dl_phdr_info *Info, size_t, void *Data) {
        const char *Name = Info->dlpi_name;
        if (Name && std::strstr(Name, "libomptarget.so"))
          *static_cast<std::string *>(Data) = Name;
        return 0;
      },
      &Found);
  std::printf("RUNTIME %s\n", Found.empty() ? "none" : Found.c_str());
}

/// The CLOCK_MONOTONIC time in ns at which ExecTimer exec'ed this program
/// (BENCH_EXEC_START_NS); exits when the program was not started by it.
inline long long execStartNs() {
  const char *StartText = std::getenv("BENCH_EXEC_START_NS");
  if (!StartText) {
    std::fprintf(stderr, "error: run this program under ExecTimer\n");
    std::exit(2);
  }
  return std::atoll(StartText);
}

/// Milliseconds since \p StartNs on the clock ExecTimer uses.
inline double msSinceExecStart(long long StartNs) {
  timespec Now;
  clock_gettime(CLOCK_MONOTONIC, &Now);
  return (Now.tv_sec * 1000000000LL + Now.tv_nsec - StartNs) / 1e6;
}

/// Reads a positive count from argv[Index], or returns Default.
inline long argOr(int Argc, char **Argv, int Index, long Default) {
  if (Index >= Argc)
    return Default;
  char *End = nullptr;
  long Value = std::strtol(Argv[Index], &End, 10);
  if (!End || *End || Value <= 0) {
    std::fprintf(stderr, "error: argument %d ('%s') must be a positive count\n",
                 Index, Argv[Index]);
    std::exit(2);
  }
  return Value;
}

/// Fails the program: a figure measured on a wrong result is no figure.
[[noreturn]] inline void fail(const char *What) {
  std::fprintf(stderr, "error: wrong result: %s\n", What);
  std::exit(1);
}

} // namespace bench

#endif // BENCH_PROGRAMS_BENCHCOMMON_H
