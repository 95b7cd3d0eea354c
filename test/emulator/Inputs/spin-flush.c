// Waiting for another thread with `#pragma omp flush` and plain reads, as
// OpenMP's memory model allows: the flush makes each look read memory again
// (on sm_90 the load follows a fence.sc, on gfx90a a fence), so the loop
// ends on a GPU. The emulator gives thread 1, which waits, its turn first
// (without a yield in the loop, the writer never ran: the test hung).
#include <omp.h>
#include <stdio.h>

int main(void) {
  int Data = 0, Flag = 0, Seen = -1;
#pragma omp target parallel num_threads(2) map(tofrom : Data, Flag, Seen)
  {
    if (omp_get_thread_num() == 1) {
      for (;;) {
#pragma omp flush
        if (Flag)
          break;
      }
#pragma omp flush
      Seen = Data;
    } else {
      Data = 42;
#pragma omp flush
      Flag = 1;
#pragma omp flush
    }
  }
  printf("seen %d\n", Seen);
  return Seen != 42;
}
