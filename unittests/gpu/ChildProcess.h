//===- ChildProcess.h - Run a test scenario in a fresh process --*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A plugin object lives as long as its process (as in a program), so a test
// that needs a fresh plugin, or a fresh driver state, runs its scenario in
// a forked child. The child's stderr comes back as text: the plugin's own
// reports and whatever the scenario prints.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_UNITTESTS_GPU_CHILDPROCESS_H
#define OFFLOAD_UNITTESTS_GPU_CHILDPROCESS_H

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <string>

namespace offload {
namespace testing {

struct ChildOutcome {
  std::string Output; ///< the child's stderr
  bool ExitedZero = false;
  double Seconds = 0;
};

/// The hang guard of a child: \p Seconds times OFFLOAD_TEST_TIMEOUT_SCALE (a
/// whole number, default 1), for a slow or shared machine.
inline unsigned hangGuardSeconds(unsigned Seconds) {
  const char *Scale = std::getenv("OFFLOAD_TEST_TIMEOUT_SCALE");
  unsigned long Factor = Scale ? std::strtoul(Scale, nullptr, 10) : 1;
  return Seconds * unsigned(Factor ? Factor : 1);
}

/// Runs \p Body (which must not return: it ends with _exit) in a child
/// process whose stderr is captured. The child is killed after
/// \p LimitSeconds (scaled by hangGuardSeconds), so a hang fails the case,
/// saying so in its output, instead of stopping the test run. The limit only
/// guards against a hang: no case judges how long its child took.
template <typename Fn>
ChildOutcome runInChildProcess(Fn Body, unsigned LimitSeconds = 60) {
  ChildOutcome Result;
  LimitSeconds = hangGuardSeconds(LimitSeconds);
  int Pipe[2];
  if (pipe(Pipe) != 0) {
    Result.Output = "pipe() failed";
    return Result;
  }
  auto Start = std::chrono::steady_clock::now();
  pid_t Child = fork();
  if (Child == 0) {
    close(Pipe[0]);
    dup2(Pipe[1], STDERR_FILENO);
    alarm(LimitSeconds);
    Body();
    _exit(127);
  }
  close(Pipe[1]);
  char Chunk[4096];
  ssize_t Got;
  while ((Got = read(Pipe[0], Chunk, sizeof(Chunk))) > 0)
    Result.Output.append(Chunk, size_t(Got));
  close(Pipe[0]);
  int Status = 0;
  waitpid(Child, &Status, 0);
  Result.ExitedZero = WIFEXITED(Status) && WEXITSTATUS(Status) == 0;
  if (WIFSIGNALED(Status) && WTERMSIG(Status) == SIGALRM)
    Result.Output += "\nhang guard fired after " +
                     std::to_string(LimitSeconds) +
                     " s: the child was killed (OFFLOAD_TEST_TIMEOUT_SCALE "
                     "stretches the guard)\n";
  Result.Seconds = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - Start)
                       .count();
  return Result;
}

} // namespace testing
} // namespace offload

#endif // OFFLOAD_UNITTESTS_GPU_CHILDPROCESS_H
