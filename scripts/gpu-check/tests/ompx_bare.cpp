// ompx_bare: a CUDA-style kernel in the ompx kernel language (<ompx.h>) on
// a 3-D grid of 3-D blocks, num_teams(2,3,2) thread_limit(32,2,2). Every
// thread records the ids and extents it sees in the slot its (block,
// thread) names, and adds to a grid-stride sum over N elements; the block
// exchanges values through dynamic shared memory (ompx_dyn_cgroup_mem)
// across ompx_sync_block. On a GPU the grid must be exactly the clauses',
// each slot written once, and a warp reduces with every
// ompx_shfl_down_sync_* type and takes a ballot. The CPU device runs the
// same grid (its <ompx.h> asks the device runtime for the ids), with warps
// of one thread, so the warp part is left out there; the grid-stride sum
// must be right on both.
#include "check.h"

#include <ompx.h>
#include <vector>

namespace {

enum { GX = 2, GY = 3, GZ = 2, BX = 32, BY = 2, BZ = 2 };
enum { Block = BX * BY * BZ, Blocks = GX * GY * GZ, N = 100000 };

struct Slot {
  int Hits, Extents, Grid, WarpBad, Mirror;
};

#pragma omp declare target
inline int onGpu() {
#if defined(__NVPTX__) || defined(__AMDGPU__)
  return 1;
#else
  return 0;
#endif
}

/// Sums of the lane numbers over groups of 32 lanes in every shuffle type,
/// and an odd-lane ballot over the warp (32 lanes on NVIDIA, 64 on AMD); 0
/// when all agree (GPUs only).
inline int warpErrors(int Lane) {
  int Bad = 0;
#if defined(__NVPTX__) || defined(__AMDGPU__)
  int I = Lane;
  float F = (float)Lane;
  long L = (long)Lane << 33;
  double D = Lane + 0.5;
  for (unsigned Delta = 16; Delta > 0; Delta /= 2) {
    I += ompx_shfl_down_sync_i(~0ul, I, Delta, 32);
    F += ompx_shfl_down_sync_f(~0ul, F, Delta, 32);
    L += ompx_shfl_down_sync_l(~0ul, L, Delta, 32);
    D += ompx_shfl_down_sync_d(~0ul, D, Delta, 32);
  }
  if (Lane == 0)
    Bad = (I != 496) + (F != 496.0f) + (L != (496l << 33)) + (D != 512.0);
  // The odd lanes of the whole warp: an AMD wavefront of 64 holds two rows
  // of 32 threads (lane X of each), a CUDA warp one.
  uint64_t OddLanes = __warpSize() == 64 ? 0xaaaaaaaaaaaaaaaaul : 0xaaaaaaaaul;
  Bad += ompx_ballot_sync(~0ul, Lane & 1) != OddLanes;
#endif
  return Bad;
}
#pragma omp end declare target

} // namespace

int main() {
  check::expectOffloaded();
  std::vector<Slot> Slots(Blocks * Block, Slot{0, 0, 0, 0, 0});
  std::vector<long> Sum(N, 0);
  Slot *S = Slots.data();
  long *Data = Sum.data();
  int Gpu = 0;
#pragma omp target teams ompx_bare num_teams(GX, GY, GZ)                       \
    thread_limit(BX, BY, BZ) map(tofrom : S[0 : Blocks * Block])               \
    map(tofrom : Data[0 : N], Gpu) ompx_dyn_cgroup_mem(Block * sizeof(int))
  {
    int X = ompx_thread_id_x(), Y = ompx_thread_id_y(), Z = ompx_thread_id_z();
    int Local = X + BX * (Y + BY * Z);
    int Team = ompx_block_id_x() + GX * (ompx_block_id_y() +
                                         GY * ompx_block_id_z());
    int Threads = ompx_block_dim_x() * ompx_block_dim_y() * ompx_block_dim_z();
    int GridBlocks = ompx_grid_dim_x() * ompx_grid_dim_y() * ompx_grid_dim_z();
    Slot &Mine = S[Team * Block + Local];
#pragma omp atomic
    Mine.Hits++;
    Mine.Extents = 100 * ompx_block_dim_z() + 10 * ompx_block_dim_y() +
                   ompx_block_dim_x();
    Mine.Grid = GridBlocks;
    Mine.WarpBad = warpErrors(X);
    for (long I = (long)Team * Threads + Local; I < N;
         I += (long)Threads * GridBlocks)
      Data[I] += I;
    int *Shared = (int *)llvm_omp_target_dynamic_shared_alloc();
    Shared[Local] = Team * 1000 + Local;
    ompx_sync_block_acq_rel();
    Mine.Mirror = Shared[Block - 1 - Local] - (Team * 1000 + Block - 1 - Local);
    if (Team == 0 && Local == 0)
      Gpu = onGpu();
  }
  int ExpectBlocks = Blocks;
  for (int B = 0; B < Blocks; ++B)
    for (int T = 0; T < Block; ++T) {
      const Slot &Seen = Slots[B * Block + T];
      int Expected = B < ExpectBlocks ? 1 : 0;
      CHECK(Seen.Hits == Expected, "block %d thread %d ran %d times, not %d",
            B, T, Seen.Hits, Expected);
      if (!Seen.Hits)
        continue;
      CHECK(Seen.Extents == 100 * BZ + 10 * BY + BX,
            "block %d thread %d saw block extents %d", B, T, Seen.Extents);
      CHECK(Seen.Grid == ExpectBlocks, "block %d thread %d saw %d blocks", B,
            T, Seen.Grid);
      CHECK(Seen.WarpBad == 0, "block %d thread %d: %d shuffle/ballot errors",
            B, T, Seen.WarpBad);
      CHECK(Seen.Mirror == 0, "block %d thread %d: shared memory across "
            "ompx_sync_block is off by %d", B, T, Seen.Mirror);
    }
  for (long I = 0; I < N; ++I)
    if (Sum[I] != I) {
      CHECK(false, "grid-stride element %ld is %ld", I, Sum[I]);
      break;
    }
  check::info("%s: %d block(s) of %dx%dx%d threads", Gpu ? "GPU" : "CPU",
              ExpectBlocks, BX, BY, BZ);
  return check::verdict();
}
