// Two threads of one warp hand over through an atomic flag: the reader
// spins on `atomic read` until the writer's `atomic write` (the OpenMP V&V
// suite's atomic_default_mem_order tests). No nanosleep in the loop: a GPU
// runs both threads at once. Then the same in every block of a
// multi-block launch, where each block's last thread waits for its first.
#include <omp.h>
#include <stdio.h>

int main(void) {
  int Data = 0, Flag = 0, Seen = -1;
#pragma omp target parallel num_threads(2) map(tofrom : Data, Flag, Seen)
  {
    if (omp_get_thread_num() == 0) {
      Data = 42;
#pragma omp atomic write seq_cst
      Flag = 1;
    } else {
      int Ready = 0;
      while (!Ready) {
#pragma omp atomic read seq_cst
        Ready = Flag;
      }
      Seen = Data;
    }
  }

  int Handoffs = 0;
#pragma omp target teams num_teams(4) thread_limit(128) map(tofrom : Handoffs)
  {
    int Ready = 0, Got = 0;
#pragma omp parallel num_threads(128) shared(Ready, Got)
    {
      int Last = omp_get_num_threads() - 1;
      if (omp_get_thread_num() == 0) {
#pragma omp atomic write
        Ready = 7;
      } else if (omp_get_thread_num() == Last) {
        int Seen = 0;
        while (!Seen) {
#pragma omp atomic read
          Seen = Ready;
        }
        Got = Seen;
      }
    }
#pragma omp atomic
    Handoffs += Got == 7;
  }
  printf("seen %d, handoffs %d\n", Seen, Handoffs);
  return Seen != 42 || Handoffs != 4;
}
