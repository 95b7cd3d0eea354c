// An ompx_bare kernel with 3-D clauses on the CPU device. Clang compiles it
// host style, and <ompx.h>'s host fallbacks report each thread's 3-D id and
// block extent through omp_get_ancestor_thread_num / omp_get_team_size
// (levels 1-3), block 0 and a grid of one block. The host plugin runs the
// kernel on one block of the device runtime's threads with those ids, so a
// grid-stride kernel covers its data, ompx_dyn_cgroup_mem gives the block
// its memory, and ompx_sync_block (an omp barrier there) synchronizes it.
// REQUIRES: our-libomptarget, our-cpu-device-runtime
// RUN: %clang -fopenmp -fopenmp-targets=%target-cpu %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=mandatory LIBOMPTARGET_DEVICE_RTL_DEBUG=1 %ours-run %t 2>&1 | FileCheck %s
// CHECK: ompdevice: launching kernel '{{.*}}': 1 team(s) of 24 thread(s) on 1 group(s), bare mode
// CHECK: ids: 24 threads, 0 wrong; grid-stride sum: 0 wrong; barrier: 0 wrong
#include <omp.h>
#include <ompx.h>
#include <stdio.h>

enum { BX = 4, BY = 3, BZ = 2, Block = BX * BY * BZ, N = 1000 };

int main(void) {
  static int Ids[Block], Extents[Block], Grid[Block], Data[N], Mirror[Block];
#pragma omp target teams ompx_bare num_teams(2, 3, 4) thread_limit(BX, BY, BZ) \
    map(from : Ids, Extents, Grid, Mirror) map(tofrom : Data)                   \
    ompx_dyn_cgroup_mem(Block * sizeof(int))
  {
    int *Shared = (int *)llvm_omp_target_dynamic_shared_alloc();
    int X = ompx_thread_id_x(), Y = ompx_thread_id_y(), Z = ompx_thread_id_z();
    int L = X + BX * (Y + BY * Z);
    Ids[L] = 10000 + 1000 * Z + 100 * Y + X;
    Extents[L] =
        100 * ompx_block_dim_z() + 10 * ompx_block_dim_y() + ompx_block_dim_x();
    Grid[L] = 100 * (ompx_block_id_x() + ompx_block_id_y() + ompx_block_id_z()) +
              ompx_grid_dim_x() * ompx_grid_dim_y() * ompx_grid_dim_z();
    int Threads = ompx_block_dim_x() * ompx_block_dim_y() * ompx_block_dim_z();
    for (int I = ompx_block_id_x() * Threads + L; I < N;
         I += Threads * ompx_grid_dim_x())
      Data[I] += I;
    Shared[L] = L;
    ompx_sync_block_acq_rel();
    Mirror[L] = Shared[Block - 1 - L];
  }
  int BadIds = 0, BadData = 0, BadBarrier = 0;
  for (int Z = 0; Z < BZ; Z++)
    for (int Y = 0; Y < BY; Y++)
      for (int X = 0; X < BX; X++) {
        int L = X + BX * (Y + BY * Z);
        BadIds += Ids[L] != 10000 + 1000 * Z + 100 * Y + X;
        BadIds += Extents[L] != 100 * BZ + 10 * BY + BX;
        BadIds += Grid[L] != 1;
        BadBarrier += Mirror[L] != Block - 1 - L;
      }
  for (int I = 0; I < N; I++)
    BadData += Data[I] != I;
  printf("ids: %d threads, %d wrong; grid-stride sum: %d wrong; barrier: %d "
         "wrong\n",
         Block, BadIds, BadData, BadBarrier);
  return BadIds + BadData + BadBarrier != 0;
}
