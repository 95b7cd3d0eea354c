// device_malloc: malloc and free inside target regions: a small block per
// loop iteration (many threads allocating at once), written and read back
// by its owner, and a larger block per team in generic mode, shared by the
// team's threads through a `parallel for`. Then C++ `new`/`delete` (scalar
// with a constructor, and array). On NVIDIA GPUs device malloc comes from
// the CUDA heap, 8 MiB unless the runtime raises it, so the sizes here keep
// far below that: this checks that allocation works, not capacity. On AMD
// GPUs malloc and new come from the device runtime's heap (512 MiB unless
// LIBOMPTARGET_HEAP_SIZE says otherwise).
#include "check.h"

#include <cstdint>
#include <new>

namespace {

// Per-iteration blocks: 64 ints each, filled with a pattern that depends
// on the iteration, so overlapping blocks would show. num_teams and
// thread_limit bound the blocks alive at once (64 x 128 x 256 bytes = 2 MiB):
// a full H100 launch would hold some 270000 of them, beyond the CUDA heap.
void perIteration() {
  const int N = 100003, Words = 64;
  int NullBlocks = 0, BadContents = 0, Misaligned = 0;
#pragma omp target teams distribute parallel for num_teams(64)              \
    thread_limit(128) map(tofrom : NullBlocks, BadContents, Misaligned)
  for (int I = 0; I < N; ++I) {
    int *P = static_cast<int *>(malloc(Words * sizeof(int)));
    if (!P) {
#pragma omp atomic update
      NullBlocks += 1;
      continue;
    }
    if (reinterpret_cast<uintptr_t>(P) % alignof(long long)) {
#pragma omp atomic update
      Misaligned += 1;
    }
    for (int W = 0; W < Words; ++W)
      P[W] = I * 131 + W;
    int Bad = 0;
    for (int W = 0; W < Words; ++W)
      Bad += P[W] != I * 131 + W;
    free(P);
    if (Bad) {
#pragma omp atomic update
      BadContents += 1;
    }
  }
  CHECK(NullBlocks == 0, "per-iteration malloc(256) returned NULL %d times",
        NullBlocks);
  CHECK(BadContents == 0, "per-iteration malloc: %d blocks read back wrong",
        BadContents);
  CHECK(Misaligned == 0, "per-iteration malloc: %d blocks not 8-byte aligned",
        Misaligned);
}

// One 128 KiB block per team, allocated by the team's main thread, filled
// and checked by the team's threads, freed by the main thread. Twice in a
// row, so freed memory is reused.
void perTeam() {
  const int Teams = 16, Words = 16384;
  int NullBlocks = 0, BadContents = 0, Runs = 0;
  for (int Round = 0; Round < 2; ++Round) {
#pragma omp target teams num_teams(Teams)                                   \
    map(tofrom : NullBlocks, BadContents, Runs)
    {
      const int Team = omp_get_team_num();
      long long *P =
          static_cast<long long *>(malloc(Words * sizeof(long long)));
      if (!P) {
#pragma omp atomic update
        NullBlocks += 1;
      } else {
#pragma omp parallel for
        for (int W = 0; W < Words; ++W)
          P[W] = (long long)Team << 32 | W;
        int Bad = 0;
        // A different thread reads each word than wrote it, in general.
#pragma omp parallel for reduction(+ : Bad)
        for (int W = 0; W < Words; ++W)
          Bad += P[Words - 1 - W] != ((long long)Team << 32 | (Words - 1 - W));
        free(P);
#pragma omp atomic update
        BadContents += Bad;
      }
#pragma omp atomic update
      Runs += 1;
    }
  }
  CHECK(Runs >= 2 && Runs <= 2 * Teams, "per-team malloc: %d team runs",
        Runs);
  CHECK(NullBlocks == 0, "per-team malloc(128 KiB) returned NULL %d times",
        NullBlocks);
  CHECK(BadContents == 0, "per-team malloc: %d words read back wrong",
        BadContents);
}

struct Point {
  int X, Y;
  Point(int X, int Y) : X(X), Y(Y) {}
  ~Point() { X = Y = -1; }
};

// new/delete: a constructed object and an array per iteration.
void newDelete() {
  const int N = 20011;
  int NullBlocks = 0, Bad = 0;
  // Bounded like perIteration: at most 64 x 128 iterations hold blocks.
  // std::nothrow is a const global of libstdc++, so clang maps it
  // implicitly, tofrom: copying it back writes into read-only memory and
  // faults on the CPU device (upstream's runtime too). Map it `to`.
#pragma omp target teams distribute parallel for num_teams(64)              \
    thread_limit(128) map(tofrom : NullBlocks, Bad) map(to : std::nothrow)
  for (int I = 0; I < N; ++I) {
    Point *P = new (std::nothrow) Point(I, -I);
    double *A = new (std::nothrow) double[I % 17 + 1];
    if (!P || !A) {
#pragma omp atomic update
      NullBlocks += 1;
      delete P;
      delete[] A;
      continue;
    }
    for (int K = 0; K <= I % 17; ++K)
      A[K] = I + K * 0.5;
    int Wrong = P->X != I || P->Y != -I;
    for (int K = 0; K <= I % 17; ++K)
      Wrong += A[K] != I + K * 0.5;
    delete P;
    delete[] A;
    if (Wrong) {
#pragma omp atomic update
      Bad += 1;
    }
  }
  CHECK(NullBlocks == 0, "new (nothrow) returned NULL %d times", NullBlocks);
  CHECK(Bad == 0, "new/delete: %d iterations read back wrong values", Bad);

  // Plain (throwing) new in a generic region.
  int Sum = -1;
#pragma omp target map(from : Sum)
  {
    int *V = new int[100];
    for (int K = 0; K < 100; ++K)
      V[K] = K;
    Sum = 0;
    for (int K = 0; K < 100; ++K)
      Sum += V[K];
    delete[] V;
  }
  CHECK(Sum == 4950, "new int[100] in a target region: sum %d, expected 4950",
        Sum);
}

} // namespace

int main() {
  check::expectOffloaded();
  perIteration();
  perTeam();
  newDelete();
  return check::verdict();
}
