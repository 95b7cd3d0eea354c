// Planted bugs for the emulator's checks (GPUEMU_CHECK), one per argv[1];
// `none` is the same kernels without the bug. Without the checks every
// bug runs to the end and prints "survived", as most do on a GPU that
// happens not to fault.
#include <omp.h>
#include <ompx.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { N = 100, Team = 128 };

void *allocShared(size_t, int) __asm__("llvm_omp_target_alloc_shared");

static int bug(const char *Name, const char *Mode) {
  return strcmp(Name, Mode) == 0;
}

int main(int Argc, char **Argv) {
  const char *Mode = Argc > 1 ? Argv[1] : "none";
  int Dev = omp_get_default_device();
  int A[N];
  for (int I = 0; I < N; ++I)
    A[I] = I;

  // memcheck: a write one element past a mapped array.
  int Past = bug("out-of-bounds", Mode);
#pragma omp target teams distribute parallel for map(tofrom : A [0:N])
  for (int I = 0; I < N + Past; ++I)
    A[I] += 1;

  // memcheck: a kernel using device memory the program freed.
  int *D = (int *)omp_target_alloc(N * sizeof(int), Dev);
  int Freed = bug("use-after-free", Mode);
  if (Freed)
    omp_target_free(D, Dev);
#pragma omp target teams distribute parallel for is_device_ptr(D)
  for (int I = 0; I < N; ++I)
    D[I] = I;
  // memcheck: an int read at an address that is not a multiple of 4.
  int Misaligned = bug("misaligned", Mode);
  int Got = 0;
#pragma omp target is_device_ptr(D) map(from : Got)
  Got = *(int *)((char *)D + 4 * !Misaligned + 2 * Misaligned);
  if (!Freed)
    omp_target_free(D, Dev);
  // memcheck: device memory freed twice (reported, the free fails).
  if (bug("double-free", Mode))
    omp_target_free(D, Dev);

  // initcheck: a read of device memory nothing wrote.
  int *U = (int *)omp_target_alloc(N * sizeof(int), Dev);
  int Unwritten = bug("uninitialised", Mode);
  long Total = 0;
#pragma omp target teams distribute parallel for is_device_ptr(U)            \
    reduction(+ : Total)
  for (int I = 0; I < N; ++I) {
    if (!Unwritten || I != 7)
      U[I] = I;
    Total += U[I];
  }
  omp_target_free(U, Dev);

  // memcheck: a team-shared array written past the block's segment (its
  // dynamic part is 64 bytes here).
  int Over = bug("team-overflow", Mode) ? 4096 : 0;
#pragma omp target teams ompx_bare num_teams(1) thread_limit(16)               \
    ompx_dyn_cgroup_mem(64)
  {
    int *Team64 = (int *)llvm_omp_target_dynamic_shared_alloc();
    Team64[ompx_thread_id_x() + Over] = 1;
  }

  // racecheck: a shared sum without a reduction.
  long Sum = 0;
  int Racy = bug("racy-sum", Mode);
#pragma omp target teams num_teams(1) thread_limit(Team) map(tofrom : Sum)
#pragma omp parallel for num_threads(Team)
  for (int I = 0; I < 1000; ++I) {
    if (Racy) {
      Sum += I;
    } else {
#pragma omp atomic
      Sum += I;
    }
  }

  // racecheck: a team-shared array read by a neighbour without a barrier.
  int Bad = 0, Barrier = !bug("missing-barrier", Mode);
#pragma omp target teams num_teams(1) thread_limit(Team) map(tofrom : Bad)
  {
    int Buf[Team];
#pragma omp allocate(Buf) allocator(omp_pteam_mem_alloc)
#pragma omp parallel num_threads(Team)
    {
      int T = omp_get_thread_num();
      Buf[T] = T;
      if (Barrier) {
#pragma omp barrier
      }
      if (Buf[(T + 1) % Team] != (T + 1) % Team) {
#pragma omp atomic
        Bad += 1;
      }
    }
  }

  // synccheck: a barrier in a thread-dependent branch.
  int Split = bug("divergent-barrier", Mode) ? Team / 2 : Team;
#pragma omp target teams num_teams(1) thread_limit(Team)
#pragma omp parallel num_threads(Team)
  {
    if (omp_get_thread_num() < Split) {
#pragma omp barrier
    }
  }

  // memcheck: a team-shared array written one element past its end (still
  // inside the block's segment: another variable's memory).
  int Past2 = bug("team-array-overflow", Mode);
#pragma omp target teams num_teams(1) thread_limit(Team) map(tofrom : Bad)
  {
    int Arr[Team];
#pragma omp allocate(Arr) allocator(omp_pteam_mem_alloc)
    for (int I = 0; I < Team; ++I)
      Arr[I + Past2] = I;
    Bad += Arr[Team / 2] - Team / 2;
  }

  // racecheck: threads write their own bytes of team-shared words, which is
  // not a race (the clean run passes), then read the previous thread's
  // byte without a barrier, which is.
  int ByteBarrier = !bug("missing-byte-barrier", Mode);
#pragma omp target teams num_teams(1) thread_limit(Team) map(tofrom : Bad)
  {
    char Bytes[Team];
#pragma omp allocate(Bytes) allocator(omp_pteam_mem_alloc)
#pragma omp parallel num_threads(Team)
    {
      int T = omp_get_thread_num();
      Bytes[T] = (char)T;
      if (ByteBarrier) {
#pragma omp barrier
      }
      int Before = (T + Team - 1) % Team;
      if (Bytes[Before] != (char)Before) {
#pragma omp atomic
        Bad += 1;
      }
    }
  }

  // Not a bug: managed memory the host wrote, which the checks cannot see
  // being written, read by a kernel.
  int *Managed = (int *)allocShared(sizeof(int), Dev);
  *Managed = 5;
#pragma omp target is_device_ptr(Managed) map(from : Got)
  Got = *Managed;
  omp_target_free(Managed, Dev);

  printf("check-bugs %s: survived (%d %d %ld %ld %d)\n", Mode, A[N - 1], Got,
         Total, Sum, Bad);
  return 0;
}
