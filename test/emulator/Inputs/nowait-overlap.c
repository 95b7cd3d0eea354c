// Two independent `target nowait` regions that can only both finish right
// when they run at the same time: each announces itself in device memory
// and then waits, a bounded number of polls, for the other. Run one after
// the other, the first gives up before the second starts.
#include <omp.h>
#include <stdio.h>

#define POLLS 400000000L

int main(void) {
  int Dev = omp_get_default_device();
  int *Flags = (int *)omp_target_alloc(2 * sizeof(int), Dev);
  int Zero[2] = {0, 0};
  omp_target_memcpy(Flags, Zero, sizeof(Zero), 0, 0, Dev,
                    omp_get_initial_device());
  int Saw[2] = {0, 0};
  for (int Me = 0; Me < 2; ++Me) {
#pragma omp target nowait is_device_ptr(Flags) map(from                        \
                                                   : Saw [Me:1])               \
    firstprivate(Me)
    {
      __atomic_store_n(&Flags[Me], 1, __ATOMIC_SEQ_CST);
      long Polls = 0;
      while (!__atomic_load_n(&Flags[1 - Me], __ATOMIC_SEQ_CST) &&
             Polls < POLLS)
        ++Polls;
      Saw[Me] = __atomic_load_n(&Flags[1 - Me], __ATOMIC_SEQ_CST);
    }
  }
#pragma omp taskwait
  printf("region 0 saw region 1: %s\n", Saw[0] ? "yes" : "no");
  printf("region 1 saw region 0: %s\n", Saw[1] ? "yes" : "no");
  omp_target_free(Flags, Dev);
  return 0;
}
