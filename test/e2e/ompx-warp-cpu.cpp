// <ompx.h>'s warp functions on the CPU device, where every device thread is
// a warp of its own (warp size 1): a ballot is the caller's own bit (when
// the mask has lane 0), a shuffle down returns the caller's value. clang-22's
// header makes them, and the default width of its C++ wrappers, traps on
// CPUs; the shims' <ompx.h> (openmp/device/arch/cpu/wrappers) defines them.
// Runs in an ompx_bare kernel and a plain target region on the CPU device,
// and on the host itself. The bare kernel's clauses are 1-D, which the CPU
// device runs bare since the compile-time marker (ompx-bare-cpu.c); before,
// it ran once with ompx_thread_id_x() = -1 and aborted with "double free
// or corruption".
// REQUIRES: our-libomptarget, our-cpu-device-runtime
// RUN: %clangxx -fopenmp -fopenmp-targets=%target-cpu %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=mandatory %ours-run %t | FileCheck %s
// CHECK: bare kernel: 8 threads, 0 wrong
// CHECK: target region: 0 wrong
// CHECK: host: 0 wrong
#include <ompx.h>
#include <stdio.h>

enum { Threads = 8 };

/// Everything one thread can check about its warp of one; returns the
/// number of wrong answers.
static int checkWarpOfOne(int Id) {
  int Wrong = 0;
  Wrong += ompx_ballot_sync(~0ul, 1) != 1;
  Wrong += ompx_ballot_sync(~0ul, 0) != 0;
  Wrong += ompx_ballot_sync(~1ul, 1) != 0; // lane 0 not in the mask
  Wrong += ompx_ballot_sync(~0ul, Id & 1) != (unsigned long)(Id & 1);
  const unsigned Deltas[] = {0, 1, 16};
  for (unsigned Delta : Deltas) {
    Wrong += ompx_shfl_down_sync_i(~0ul, Id + 7, Delta, 32) != Id + 7;
    Wrong += ompx_shfl_down_sync_f(~0ul, Id + 0.5f, Delta, 32) != Id + 0.5f;
    Wrong += ompx_shfl_down_sync_l(~0ul, Id + (1l << 40), Delta, 32) !=
             Id + (1l << 40);
    Wrong += ompx_shfl_down_sync_d(~0ul, Id + 0.25, Delta, 32) != Id + 0.25;
  }
  // The C++ wrappers, with their default width (the warp size).
  Wrong += ompx::ballot_sync(~0ul, 1) != 1;
  Wrong += ompx::shfl_down_sync(~0ul, Id, 1u) != Id;
  Wrong += ompx::shfl_down_sync(~0ul, 2.0 * Id, 1u) != 2.0 * Id;
  // A warp reduction written for any warp size (the header's __warpSize)
  // sums the warp: here the caller's value alone.
  int Sum = Id;
  for (int Delta = __warpSize() / 2; Delta > 0; Delta /= 2)
    Sum += ompx::shfl_down_sync(~0ul, Sum, Delta);
  Wrong += Sum != Id;
  return Wrong;
}

int main() {
  int Wrong[Threads] = {}, Seen[Threads] = {}, Plain = -1;
#pragma omp target teams ompx_bare num_teams(1) thread_limit(Threads)          \
    map(from : Wrong, Seen)
  {
    int Id = ompx_thread_id_x();
    Wrong[Id] = checkWarpOfOne(Id);
    Seen[Id] = 1;
  }
#pragma omp target map(from : Plain)
  Plain = checkWarpOfOne(3);
  int Count = 0, Bad = 0;
  for (int I = 0; I < Threads; ++I) {
    Count += Seen[I];
    Bad += Wrong[I];
  }
  printf("bare kernel: %d threads, %d wrong\n", Count, Bad);
  printf("target region: %d wrong\n", Plain);
  printf("host: %d wrong\n", checkWarpOfOne(5));
  return 0;
}
