// From exec to the end of the first kernel of a one-kernel program: dynamic
// loading, registration of the offload images, device initialisation and
// the first launch. The program runs itself as a fresh process several
// times; each child reads the parent's clock at exec from the environment.
#include "bench.h"

#include <ctime>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace {

int64_t nowNs() {
  timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return int64_t(T.tv_sec) * 1000000000 + T.tv_nsec;
}

int child(const char *Start) {
  int X = 0;
#pragma omp target map(tofrom : X)
  X += 1;
  double Ms = double(nowNs() - std::strtoll(Start, nullptr, 10)) * 1e-6;
  bench::expect(X == 1, "the first kernel did not run");
  bench::row("exec_to_first_kernel", Ms, "ms");
  return bench::finish();
}

} // namespace

int main(int, char **Argv) {
  if (const char *Start = std::getenv("BENCH_EXEC_START_NS"))
    return child(Start);
  int Runs = bench::small() ? 2 : 5;
  for (int R = 0; R < Runs; ++R) {
    pid_t Pid = fork();
    if (Pid == 0) {
      setenv("BENCH_EXEC_START_NS", std::to_string(nowNs()).c_str(), 1);
      execv("/proc/self/exe", Argv);
      std::perror("execv /proc/self/exe");
      _exit(127);
    }
    int Status = 0;
    waitpid(Pid, &Status, 0);
    bench::expect(WIFEXITED(Status) && WEXITSTATUS(Status) == 0,
                  "a child run failed");
  }
  return bench::finish();
}
