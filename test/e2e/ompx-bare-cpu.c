// ompx_bare kernels on the CPU device in 1-D, 2-D and 3-D. Clang compiles
// them host style, exactly as the same `target teams` without ompx_bare;
// the CPU device's <ompx.h> sends the grid queries and ompx_sync_block to
// the device runtime, and the compile-time pass marks every kernel whose
// teams region calls them, so the host plugin runs each on one block of
// the device runtime's threads with its (x, y, z) ids, whatever the
// dimensions of its clauses. Every thread checks each <ompx.h> function
// (ids, extents, block 0 of a grid of one, ballot and shuffles over its
// warp of one), a grid-stride kernel covers its data, ompx_dyn_cgroup_mem
// gives the block its memory and each ompx_sync_block form synchronizes
// it. Plain teams regions, and ones that ask for ids only inside a
// parallel region, still run once per team. (Before the marker, a 1-D
// bare kernel ran once per team, where ompx_thread_id_x() was -1.)
// REQUIRES: our-libomptarget, our-cpu-device-runtime
// RUN: %clang -fopenmp -fopenmp-targets=%target-cpu %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=mandatory LIBOMPTARGET_DEVICE_RTL_DEBUG=1 %ours-run %t 2>&1 | FileCheck %s
// RUN: %clang -O2 -fopenmp -fopenmp-targets=%target-cpu %s -o %t.O2
// RUN: env OMP_TARGET_OFFLOAD=mandatory %ours-run %t.O2 2>&1 | FileCheck %s --check-prefix=RESULT
// CHECK: ompdevice: launching kernel '{{.*}}': 1 team(s) of 8 thread(s) on 1 group(s), bare mode
// CHECK: ompdevice: launching kernel '{{.*}}': 1 team(s) of 12 thread(s) on 1 group(s), bare mode
// CHECK: ompdevice: launching kernel '{{.*}}': 1 team(s) of 24 thread(s) on 1 group(s), bare mode
// CHECK-NOT: bare mode
// CHECK: 1-D (8x1x1): 0 wrong
// RESULT: 1-D (8x1x1): 0 wrong
// CHECK-NEXT: 2-D (4x3x1): 0 wrong
// RESULT-NEXT: 2-D (4x3x1): 0 wrong
// CHECK-NEXT: 3-D (4x3x2): 0 wrong
// RESULT-NEXT: 3-D (4x3x2): 0 wrong
// CHECK-NEXT: teams: once per team, parallel ids 0 wrong
// RESULT-NEXT: teams: once per team, parallel ids 0 wrong
#include <omp.h>
#include <ompx.h>
#include <stdio.h>

enum { MaxBlock = 64, N = 1000 };

#pragma omp declare target
/// Everything one thread of a BX x BY x BZ block can check; the number of
/// wrong answers. \p Shared is the block's dynamic memory, \p Data the
/// grid-stride kernel's.
static int checkThread(int BX, int BY, int BZ, int *Shared, int *Data,
                       int *Ran) {
  int Wrong = 0;
  int X = ompx_thread_id_x(), Y = ompx_thread_id_y(), Z = ompx_thread_id_z();
  Wrong += X < 0 || X >= BX || Y < 0 || Y >= BY || Z < 0 || Z >= BZ;
  if (Wrong)
    return Wrong;
  int L = X + BX * (Y + BY * Z), Threads = BX * BY * BZ;
  Ran[L] += 1;
  Wrong += ompx_thread_id(ompx_dim_x) != X;
  Wrong += ompx_block_dim_x() != BX || ompx_block_dim_y() != BY ||
           ompx_block_dim_z() != BZ;
  Wrong += ompx_block_dim(ompx_dim_z) != BZ;
  Wrong += ompx_block_id_x() + ompx_block_id_y() + ompx_block_id_z() != 0;
  Wrong += ompx_grid_dim_x() * ompx_grid_dim_y() * ompx_grid_dim_z() != 1;
  Wrong += ompx_ballot_sync(~0ul, 1) != 1 || ompx_ballot_sync(~0ul, 0) != 0;
  Wrong += ompx_shfl_down_sync_i(~0ul, L, 1, 32) != L;
  Wrong += ompx_shfl_down_sync_d(~0ul, L + 0.5, 1, 32) != L + 0.5;
  for (int I = ompx_block_id_x() * Threads + L; I < N;
       I += Threads * ompx_grid_dim_x())
    Data[I] += I;
  // Each sync form: everyone's write is seen after it.
  Shared[L] = L;
  ompx_sync_block_acq_rel();
  Wrong += Shared[Threads - 1 - L] != Threads - 1 - L;
  ompx_sync_block(ompx_seq_cst);
  Shared[L] = 2 * L;
  ompx_sync_block_divergent(ompx_acq_rel);
  Wrong += Shared[Threads - 1 - L] != 2 * (Threads - 1 - L);
  return Wrong;
}
#pragma omp end declare target

/// Wrong answers of a launch plus threads that ran other than once and
/// data the grid-stride loop missed.
static int verdict(int Threads, const int *Wrong, const int *Ran, int *Data) {
  int Bad = 0;
  for (int L = 0; L < Threads; L++)
    Bad += Wrong[L] + (Ran[L] != 1);
  for (int L = Threads; L < MaxBlock; L++)
    Bad += Ran[L] != 0;
  for (int I = 0; I < N; I++) {
    Bad += Data[I] != I;
    Data[I] = 0;
  }
  return Bad;
}

int main(void) {
  static int Wrong[MaxBlock], Ran[MaxBlock], Data[N];
  const unsigned long Dyn = MaxBlock * sizeof(int);
#pragma omp target teams ompx_bare num_teams(3) thread_limit(8)                \
    map(tofrom : Wrong, Ran, Data) ompx_dyn_cgroup_mem(Dyn)
  {
    int L = ompx_thread_id_x();
    int W = checkThread(8, 1, 1, (int *)llvm_omp_target_dynamic_shared_alloc(),
                        Data, Ran);
    if (L >= 0 && L < MaxBlock)
      Wrong[L] = W;
  }
  printf("1-D (8x1x1): %d wrong\n", verdict(8, Wrong, Ran, Data));
  for (int L = 0; L < MaxBlock; L++)
    Ran[L] = Wrong[L] = 0;

#pragma omp target teams ompx_bare num_teams(2, 2) thread_limit(4, 3)          \
    map(tofrom : Wrong, Ran, Data) ompx_dyn_cgroup_mem(Dyn)
  {
    int L = ompx_thread_id_x() + 4 * ompx_thread_id_y();
    int W = checkThread(4, 3, 1, (int *)llvm_omp_target_dynamic_shared_alloc(),
                        Data, Ran);
    if (L >= 0 && L < MaxBlock)
      Wrong[L] = W;
  }
  printf("2-D (4x3x1): %d wrong\n", verdict(12, Wrong, Ran, Data));
  for (int L = 0; L < MaxBlock; L++)
    Ran[L] = Wrong[L] = 0;

#pragma omp target teams ompx_bare num_teams(2, 3, 4) thread_limit(4, 3, 2)    \
    map(tofrom : Wrong, Ran, Data) ompx_dyn_cgroup_mem(Dyn)
  {
    int L =
        ompx_thread_id_x() + 4 * (ompx_thread_id_y() + 3 * ompx_thread_id_z());
    int W = checkThread(4, 3, 2, (int *)llvm_omp_target_dynamic_shared_alloc(),
                        Data, Ran);
    if (L >= 0 && L < MaxBlock)
      Wrong[L] = W;
  }
  printf("3-D (4x3x2): %d wrong\n", verdict(24, Wrong, Ran, Data));

  // Not bare: the teams region runs once per team, and ids asked inside its
  // parallel region are the parallel region's.
  int Runs = 0, Teams = 0, ParallelWrong = 0;
#pragma omp target teams num_teams(2) thread_limit(2)                          \
    map(tofrom : Runs, Teams, ParallelWrong)
  {
#pragma omp atomic
    Runs += 1;
    if (omp_get_team_num() == 0)
      Teams = omp_get_num_teams();
#pragma omp parallel num_threads(2)
    {
      int Bad = ompx_thread_id_x() != omp_get_thread_num() ||
                ompx_block_dim_x() != omp_get_num_threads();
#pragma omp atomic
      ParallelWrong += Bad;
    }
  }
  printf("teams: %s, parallel ids %d wrong\n",
         Runs == Teams && Teams > 0 ? "once per team" : "wrong run count",
         ParallelWrong);
  return 0;
}
