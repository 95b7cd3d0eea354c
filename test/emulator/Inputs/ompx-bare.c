// A CUDA-style ompx_bare kernel on a 3-D grid of 3-D blocks: every thread
// checks the ids and extents ompx.h reports against the clauses, a warp
// reduces with each ompx_shfl_down_sync_* type and takes a ballot, and the
// block exchanges values through dynamic shared memory across
// ompx_sync_block. Each thread writes one result word; the host checks
// them all.
#include <omp.h>
#include <ompx.h>
#include <stdio.h>

enum { GX = 2, GY = 3, GZ = 2, BX = 32, BY = 2, BZ = 2 };
enum { Block = BX * BY * BZ, Total = GX * GY * GZ * Block };

int main(void) {
  static int Out[Total];
#pragma omp target teams ompx_bare num_teams(GX, GY, GZ)                    \
    thread_limit(BX, BY, BZ) map(from : Out) ompx_dyn_cgroup_mem(Block * 4)
  {
    int Tx = ompx_thread_id_x(), Ty = ompx_thread_id_y(),
        Tz = ompx_thread_id_z();
    int Bx = ompx_block_id_x(), By = ompx_block_id_y(), Bz = ompx_block_id_z();
    int Local = Tx + BX * (Ty + BY * Tz);
    int Team = Bx + GX * (By + GY * Bz);
    int Bad = 0;
    // Ids and extents (bit 0).
    Bad |= (ompx_block_dim_x() != BX || ompx_block_dim_y() != BY ||
            ompx_block_dim_z() != BZ || ompx_grid_dim_x() != GX ||
            ompx_grid_dim_y() != GY || ompx_grid_dim_z() != GZ ||
            Tx >= BX || Ty >= BY || Tz >= BZ || Bx >= GX || By >= GY ||
            Bz >= GZ);
    // Warp sums of the lane number (0 + 1 + ... + 31 = 496) in every type
    // (bits 1-4): the 32 x-threads of one (y, z) row form a warp.
    int I = Tx;
    float F = (float)Tx;
    long L = (long)Tx << 33; // the high half must travel too
    double D = Tx + 0.5;
    for (unsigned Delta = 16; Delta > 0; Delta /= 2) {
      I += ompx_shfl_down_sync_i(~0ul, I, Delta, 32);
      F += ompx_shfl_down_sync_f(~0ul, F, Delta, 32);
      L += ompx_shfl_down_sync_l(~0ul, L, Delta, 32);
      D += ompx_shfl_down_sync_d(~0ul, D, Delta, 32);
    }
    if (Tx == 0) {
      Bad |= (I != 496) << 1;
      Bad |= (F != 496.0f) << 2;
      Bad |= (L != (496l << 33)) << 3;
      Bad |= (D != 512.0) << 4;
    }
    // Ballot of the odd lanes (bit 5).
    Bad |= (ompx_ballot_sync(~0ul, Tx & 1) != 0xaaaaaaaaul) << 5;
    // Every thread writes its slot of dynamic shared memory, the block
    // synchronizes, each reads its mirror's slot (bit 6), twice, with the
    // other barriers, after overwriting (bit 7).
    int *Shared = (int *)llvm_omp_target_dynamic_shared_alloc();
    Shared[Local] = Team * 1000 + Local;
    ompx_sync_block_acq_rel();
    int Mirror = Block - 1 - Local;
    Bad |= (Shared[Mirror] != Team * 1000 + Mirror) << 6;
    ompx_sync_block(ompx_seq_cst);
    Shared[Local] = -Local;
    ompx_sync_block_divergent(ompx_acq_rel);
    Bad |= (Shared[Mirror] != -Mirror) << 7;
    Out[Team * Block + Local] = Bad ? -Bad : Team * Block + Local + 1;
  }
  int Wrong = 0;
  for (int K = 0; K < Total; K++)
    if (Out[K] != K + 1) {
      if (Wrong++ < 5)
        printf("slot %d: %d\n", K, Out[K]);
    }
  printf("ompx-bare: %d threads, %d wrong\n", Total, Wrong);
  return Wrong != 0;
}
