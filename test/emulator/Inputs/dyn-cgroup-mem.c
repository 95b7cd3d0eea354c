// An ompx_bare kernel with as many bytes of dynamic shared memory as
// argv[1] says (ompx_dyn_cgroup_mem takes a run-time size): each block
// fills all of it, synchronizes, and every thread checks a stripe of it,
// so memory past what the launch really got would show as a wrong word.
#include <omp.h>
#include <ompx.h>
#include <stdio.h>
#include <stdlib.h>

enum { Teams = 2, Threads = 64 };

int main(int Argc, char **Argv) {
  unsigned Bytes = Argc > 1 ? (unsigned)atoi(Argv[1]) : 1024;
  unsigned Words = Bytes / sizeof(unsigned);
  int Wrong[Teams * Threads];
#pragma omp target teams ompx_bare num_teams(Teams) thread_limit(Threads)    \
    map(from : Wrong) ompx_dyn_cgroup_mem(Bytes)
  {
    unsigned *Shared = (unsigned *)llvm_omp_target_dynamic_shared_alloc();
    unsigned T = ompx_thread_id_x(), B = ompx_block_id_x();
    for (unsigned I = T; I < Words; I += Threads)
      Shared[I] = I * 3u + B;
    ompx_sync_block_acq_rel();
    int Bad = 0;
    // Another thread's stripe than the one this thread wrote.
    for (unsigned I = (T + 1) % Threads; I < Words; I += Threads)
      Bad += Shared[I] != I * 3u + B;
    Wrong[B * Threads + T] = Bad;
  }
  int Total = 0;
  for (int I = 0; I < Teams * Threads; ++I)
    Total += Wrong[I];
  printf("dyn-cgroup-mem: %u bytes, %d wrong\n", Bytes, Total);
  return Total != 0;
}
