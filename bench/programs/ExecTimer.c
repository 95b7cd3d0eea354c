/*===- ExecTimer.c - Run a program, telling it when it was started --------===*
 *
 * Usage: ExecTimer <program> [args...]
 * Records the monotonic clock in BENCH_EXEC_START_NS and replaces itself with
 * the program, so the program can measure everything from exec on: dynamic
 * loading, constructors (registration of its offload images) and whatever it
 * does first.
 *
 *===----------------------------------------------------------------------===*/

#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s <program> [args...]\n", argv[0]);
    return 2;
  }
  struct timespec Now;
  clock_gettime(CLOCK_MONOTONIC, &Now);
  char Value[32];
  snprintf(Value, sizeof(Value), "%lld",
           (long long)Now.tv_sec * 1000000000LL + Now.tv_nsec);
  setenv("BENCH_EXEC_START_NS", Value, 1);
  execv(argv[1], argv + 1);
  perror(argv[1]);
  return 127;
}
