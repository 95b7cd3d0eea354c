// ompx_bare kernels on the CPU device in 1-D, 2-D and 3-D. Clang compiles
// them host style, exactly as the same `target teams` without ompx_bare;
// the CPU device's <ompx.h> sends the grid queries and ompx_sync_block to
// the device runtime, and the compile-time pass marks every kernel whose
// teams region calls them, so the host plugin runs each on the whole grid
// of its num_teams clause, every block a team of the device runtime's
// threads with their (x, y, z) ids, whatever the dimensions of its
// clauses. Every thread checks each <ompx.h> function (thread and block
// ids, extents, the grid, ballot and shuffles over its warp of one), a
// grid-stride kernel over the whole grid covers its data once,
// ompx_dyn_cgroup_mem gives each block its memory and each ompx_sync_block
// form synchronizes it. Plain teams regions, and ones that ask for ids only
// inside a parallel region, still run once per team. (Before the marker, a
// 1-D bare kernel ran once per team, where ompx_thread_id_x() was -1; before
// the grid, only block 0 of a grid of one ran.)
// REQUIRES: our-libomptarget, our-cpu-device-runtime
// RUN: %clang -fopenmp -fopenmp-targets=%target-cpu %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=mandatory LIBOMPTARGET_DEVICE_RTL_DEBUG=1 %ours-run %t 2>&1 | FileCheck %s
// RUN: %clang -O2 -fopenmp -fopenmp-targets=%target-cpu %s -o %t.O2
// RUN: env OMP_TARGET_OFFLOAD=mandatory %ours-run %t.O2 2>&1 | FileCheck %s --check-prefix=RESULT
// CHECK: ompdevice: launching kernel '{{.*}}': 3 team(s) of 8 thread(s) on 1 group(s), bare mode
// CHECK: ompdevice: launching kernel '{{.*}}': 4 team(s) of 12 thread(s) on 1 group(s), bare mode
// CHECK: ompdevice: launching kernel '{{.*}}': 24 team(s) of 24 thread(s) on 1 group(s), bare mode
// CHECK-NOT: bare mode
// CHECK: 1-D (3 blocks of 8x1x1): 0 wrong
// RESULT: 1-D (3 blocks of 8x1x1): 0 wrong
// CHECK-NEXT: 2-D (2x2 blocks of 4x3x1): 0 wrong
// RESULT-NEXT: 2-D (2x2 blocks of 4x3x1): 0 wrong
// CHECK-NEXT: 3-D (2x3x4 blocks of 4x3x2): 0 wrong
// RESULT-NEXT: 3-D (2x3x4 blocks of 4x3x2): 0 wrong
// CHECK-NEXT: teams: once per team, parallel ids 0 wrong
// RESULT-NEXT: teams: once per team, parallel ids 0 wrong
#include <omp.h>
#include <ompx.h>
#include <stdio.h>

enum { MaxBlock = 64, MaxThreads = 1024, N = 5000 };

#pragma omp declare target
/// Everything one thread of a BX x BY x BZ block in a GX x GY x GZ grid can
/// check; the number of wrong answers. \p Shared is the block's dynamic
/// memory, \p Data the grid-stride kernel's, \p Ran counts each (block,
/// thread)'s runs.
static int checkThread(const int *Block, const int *Grid, int *Shared,
                       int *Data, int *Ran) {
  int Wrong = 0;
  int BX = Block[0], BY = Block[1], BZ = Block[2];
  int X = ompx_thread_id_x(), Y = ompx_thread_id_y(), Z = ompx_thread_id_z();
  int IX = ompx_block_id_x(), IY = ompx_block_id_y(), IZ = ompx_block_id_z();
  Wrong += X < 0 || X >= BX || Y < 0 || Y >= BY || Z < 0 || Z >= BZ;
  Wrong += IX < 0 || IX >= Grid[0] || IY < 0 || IY >= Grid[1] || IZ < 0 ||
           IZ >= Grid[2];
  if (Wrong)
    return Wrong;
  int L = X + BX * (Y + BY * Z), Threads = BX * BY * BZ;
  int B = IX + Grid[0] * (IY + Grid[1] * IZ);
  int Blocks = Grid[0] * Grid[1] * Grid[2];
  Ran[B * Threads + L] += 1;
  Wrong += ompx_thread_id(ompx_dim_x) != X;
  Wrong += ompx_block_dim_x() != BX || ompx_block_dim_y() != BY ||
           ompx_block_dim_z() != BZ;
  Wrong += ompx_block_dim(ompx_dim_z) != BZ;
  Wrong += ompx_block_id(ompx_dim_y) != IY;
  Wrong += ompx_grid_dim_x() != Grid[0] || ompx_grid_dim_y() != Grid[1] ||
           ompx_grid_dim_z() != Grid[2];
  Wrong += ompx_ballot_sync(~0ul, 1) != 1 || ompx_ballot_sync(~0ul, 0) != 0;
  Wrong += ompx_shfl_down_sync_i(~0ul, L, 1, 32) != L;
  Wrong += ompx_shfl_down_sync_d(~0ul, L + 0.5, 1, 32) != L + 0.5;
  for (int I = B * Threads + L; I < N; I += Threads * Blocks)
    Data[I] += I;
  // Each sync form: everyone's write in this block is seen after it.
  Shared[L] = L + B;
  ompx_sync_block_acq_rel();
  Wrong += Shared[Threads - 1 - L] != Threads - 1 - L + B;
  ompx_sync_block(ompx_seq_cst);
  Shared[L] = 2 * L + B;
  ompx_sync_block_divergent(ompx_acq_rel);
  Wrong += Shared[Threads - 1 - L] != 2 * (Threads - 1 - L) + B;
  return Wrong;
}
#pragma omp end declare target

/// Wrong answers of a launch of \p Total threads plus (block, thread) pairs
/// that ran other than once and data the grid-stride loop missed; clears
/// the arrays for the next launch.
static int verdict(int Total, int *Wrong, int *Ran, int *Data) {
  int Bad = 0;
  for (int L = 0; L < MaxThreads; L++) {
    Bad += L < Total ? Wrong[L] + (Ran[L] != 1) : Ran[L] != 0;
    Wrong[L] = Ran[L] = 0;
  }
  for (int I = 0; I < N; I++) {
    Bad += Data[I] != I;
    Data[I] = 0;
  }
  return Bad;
}

/// The thread's slot in Wrong: its (block, thread) number in the grid.
#define GRID_SLOT(BX, BY, BZ)                                                  \
  ((ompx_block_id_x() +                                                        \
    ompx_grid_dim_x() * (ompx_block_id_y() +                                   \
                         ompx_grid_dim_y() * ompx_block_id_z())) *             \
       (BX) * (BY) * (BZ) +                                                    \
   ompx_thread_id_x() + (BX) * (ompx_thread_id_y() + (BY)*ompx_thread_id_z()))

int main(void) {
  static int Wrong[MaxThreads], Ran[MaxThreads], Data[N];
  const unsigned long Dyn = MaxBlock * sizeof(int);
#pragma omp target teams ompx_bare num_teams(3) thread_limit(8)                \
    map(tofrom : Wrong, Ran, Data) ompx_dyn_cgroup_mem(Dyn)
  {
    const int Block[3] = {8, 1, 1}, Grid[3] = {3, 1, 1};
    int S = GRID_SLOT(8, 1, 1);
    int W = checkThread(Block, Grid,
                        (int *)llvm_omp_target_dynamic_shared_alloc(), Data,
                        Ran);
    if (S >= 0 && S < MaxThreads)
      Wrong[S] = W;
  }
  printf("1-D (3 blocks of 8x1x1): %d wrong\n",
         verdict(3 * 8, Wrong, Ran, Data));

#pragma omp target teams ompx_bare num_teams(2, 2) thread_limit(4, 3)          \
    map(tofrom : Wrong, Ran, Data) ompx_dyn_cgroup_mem(Dyn)
  {
    const int Block[3] = {4, 3, 1}, Grid[3] = {2, 2, 1};
    int S = GRID_SLOT(4, 3, 1);
    int W = checkThread(Block, Grid,
                        (int *)llvm_omp_target_dynamic_shared_alloc(), Data,
                        Ran);
    if (S >= 0 && S < MaxThreads)
      Wrong[S] = W;
  }
  printf("2-D (2x2 blocks of 4x3x1): %d wrong\n",
         verdict(4 * 12, Wrong, Ran, Data));

#pragma omp target teams ompx_bare num_teams(2, 3, 4) thread_limit(4, 3, 2)    \
    map(tofrom : Wrong, Ran, Data) ompx_dyn_cgroup_mem(Dyn)
  {
    const int Block[3] = {4, 3, 2}, Grid[3] = {2, 3, 4};
    int S = GRID_SLOT(4, 3, 2);
    int W = checkThread(Block, Grid,
                        (int *)llvm_omp_target_dynamic_shared_alloc(), Data,
                        Ran);
    if (S >= 0 && S < MaxThreads)
      Wrong[S] = W;
  }
  printf("3-D (2x3x4 blocks of 4x3x2): %d wrong\n",
         verdict(24 * 24, Wrong, Ran, Data));

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
