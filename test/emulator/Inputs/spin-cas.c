// Spin loops made of compare-and-swap: a thread that waits for another's
// store by trying to swap the flag it sets (thread 1, which waits, gets its
// turn first on the emulator: without a yield in the loop the test hung),
// and a lock that the threads of two teams take
// with compare-and-swap around a plain update. Threads of different warps
// (wavefronts) contend for the lock: within an AMD wavefront, whose lanes
// run in lockstep, a lane spinning for a lock another lane holds would
// never let it go.
#include <omp.h>
#include <stdio.h>

int main(void) {
  int Flag = 0, Handoff = 0;
#pragma omp target parallel num_threads(2) map(tofrom : Flag, Handoff)
  {
    if (omp_get_thread_num() == 1) {
      int Expected = 1;
      while (!__atomic_compare_exchange_n(&Flag, &Expected, 2, 0,
                                          __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
        Expected = 1;
      Handoff = 1;
    } else {
      __atomic_store_n(&Flag, 1, __ATOMIC_RELEASE);
    }
  }

  int Lock = 0;
  long Count = 0;
#pragma omp target teams num_teams(2) thread_limit(256)                      \
    map(tofrom : Lock, Count)
#pragma omp parallel num_threads(256)
  {
    // One thread of each warp (and wavefront) of each team.
    if (omp_get_thread_num() % 64 == 0) {
      for (int I = 0; I < 10; ++I) {
        int Free = 0;
        while (!__atomic_compare_exchange_n(&Lock, &Free, 1, 0,
                                            __ATOMIC_ACQUIRE,
                                            __ATOMIC_RELAXED))
          Free = 0;
        long Seen = Count;
        Count = Seen + 1;
        __atomic_store_n(&Lock, 0, __ATOMIC_RELEASE);
      }
    }
  }
  printf("flag %d, handoff %d, count %ld\n", Flag, Handoff, Count);
  return Flag != 2 || Handoff != 1 || Count != 80;
}
