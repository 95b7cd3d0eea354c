// An ompx_bare kernel on the emulated gfx90a: a 3-D grid of 32x2x2 blocks,
// so each 64-lane wavefront holds two rows of 32 x-threads. Every thread
// checks the ids and extents, shuffles within its row (width 32) and
// across the wavefront (width 64), takes a ballot of the odd lanes of its
// wavefront, and exchanges values with its mirror through dynamic LDS
// across ompx_sync_block. Each thread writes one result word.
#include <omp.h>
#include <ompx.h>
#include <stdio.h>

enum { GX = 2, GY = 3, GZ = 2, BX = 32, BY = 2, BZ = 2 };
enum { Block = BX * BY * BZ, Total = GX * GY * GZ * Block };

int main(void) {
  static int Out[Total];
#pragma omp target teams ompx_bare num_teams(GX, GY, GZ)                       \
    thread_limit(BX, BY, BZ) map(from : Out) ompx_dyn_cgroup_mem(Block * 4)
  {
    int Tx = ompx_thread_id_x(), Ty = ompx_thread_id_y(),
        Tz = ompx_thread_id_z();
    int Local = Tx + BX * (Ty + BY * Tz);
    int Lane = Local % 64;
    int Team =
        ompx_block_id_x() + GX * (ompx_block_id_y() + GY * ompx_block_id_z());
    int Bad = (ompx_block_dim_x() != BX || ompx_block_dim_y() != BY ||
               ompx_block_dim_z() != BZ || ompx_grid_dim_x() != GX ||
               ompx_grid_dim_y() != GY || ompx_grid_dim_z() != GZ);
    // Row sums (0 + ... + 31 = 496) and wavefront sums (2016).
    int Row = Tx, Wave = Lane;
    long L = (long)Lane << 33;
    for (unsigned Delta = 32; Delta > 0; Delta /= 2) {
      if (Delta < 32)
        Row += ompx_shfl_down_sync_i(~0ul, Row, Delta, 32);
      Wave += ompx_shfl_down_sync_i(~0ul, Wave, Delta, 64);
      L += ompx_shfl_down_sync_l(~0ul, L, Delta, 64);
    }
    if (Tx == 0)
      Bad |= (Row != 496) << 1;
    if (Lane == 0)
      Bad |= ((Wave != 2016) << 2) | ((L != (2016l << 33)) << 3);
    Bad |= (ompx_ballot_sync(~0ul, Lane & 1) != 0xaaaaaaaaaaaaaaaaul) << 4;
    int *Shared = (int *)llvm_omp_target_dynamic_shared_alloc();
    Shared[Local] = Team * 1000 + Local;
    ompx_sync_block_acq_rel();
    int Mirror = Block - 1 - Local;
    Bad |= (Shared[Mirror] != Team * 1000 + Mirror) << 5;
    Out[Team * Block + Local] = Bad ? -Bad : Team * Block + Local + 1;
  }
  int Wrong = 0;
  for (int K = 0; K < Total; K++)
    if (Out[K] != K + 1 && Wrong++ < 5)
      printf("slot %d: %d\n", K, Out[K]);
  printf("ompx-bare: %d threads, %d wrong\n", Total, Wrong);
  return Wrong != 0;
}
