// Calls every device function clang-22's <ompx.h> declares, in an ompx_bare
// kernel and in an ordinary SPMD kernel (which runs the runtime's init).
// Linked only: on the host fallback the header's ballot and shuffles trap.
#include <ompx.h>
#include <stdio.h>

static void everything(double *Out) {
  int I = ompx_thread_id_x() + ompx_thread_id_y() + ompx_thread_id_z();
  int B = ompx_block_id_x() + ompx_block_id_y() + ompx_block_id_z();
  int D = ompx_block_dim_x() + ompx_block_dim_y() + ompx_block_dim_z();
  int G = ompx_grid_dim_x() + ompx_grid_dim_y() + ompx_grid_dim_z();
  ompx_sync_block(ompx_seq_cst);
  ompx_sync_block_acq_rel();
  ompx_sync_block_divergent(ompx_release);
  double Sum = I + B + D + G + (double)ompx_ballot_sync(~0ul, I & 1);
  Sum += ompx_shfl_down_sync_i(~0ul, I, 1, 32);
  Sum += ompx_shfl_down_sync_f(~0ul, (float)I, 1, 32);
  Sum += ompx_shfl_down_sync_l(~0ul, (long)I, 1, 32);
  Sum += ompx_shfl_down_sync_d(~0ul, (double)I, 1, 32);
  Out[I + 32 * B] = Sum;
}

int main() {
  double Out[256];
#pragma omp target teams ompx_bare num_teams(2, 1, 1) thread_limit(32, 1, 1) map(from : Out)
  everything(Out);
#pragma omp target teams num_teams(2) thread_limit(32) map(from : Out)
#pragma omp parallel
  everything(Out);
  printf("%f\n", Out[0]);
  return 0;
}
