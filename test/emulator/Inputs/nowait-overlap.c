// Two independent `target nowait` regions that can only both finish when
// they run at the same time: each announces itself in device memory and
// then waits for the other. No clock decides anything: run as `unbounded`,
// each region waits without a bound, so regions that overlap always finish
// and regions that do not hang (the test's hang guard ends that run). Run
// as `bounded`, each region gives up after a fixed number of polls, for the
// runs where the regions cannot overlap (no hidden helper threads, one
// queue): there the first region to run has finished, seeing nothing, before
// the second starts, however long the polls take.
#include <omp.h>
#include <stdio.h>
#include <string.h>

// Polls of the other region's flag before a `bounded` region gives up.
#define POLLS 1000000L

int main(int Argc, char **Argv) {
  if (Argc != 2 ||
      (strcmp(Argv[1], "unbounded") && strcmp(Argv[1], "bounded"))) {
    fprintf(stderr, "usage: %s unbounded|bounded\n", Argv[0]);
    return 2;
  }
  long Bound = strcmp(Argv[1], "bounded") == 0 ? POLLS : -1;
  int Dev = omp_get_default_device();
  int *Flags = (int *)omp_target_alloc(2 * sizeof(int), Dev);
  int Zero[2] = {0, 0};
  omp_target_memcpy(Flags, Zero, sizeof(Zero), 0, 0, Dev,
                    omp_get_initial_device());
  int Saw[2] = {0, 0};
  for (int Me = 0; Me < 2; ++Me) {
#pragma omp target nowait is_device_ptr(Flags) map(from                        \
                                                   : Saw [Me:1])               \
    firstprivate(Me, Bound)
    {
      __atomic_store_n(&Flags[Me], 1, __ATOMIC_SEQ_CST);
      for (long Polls = 0;
           !__atomic_load_n(&Flags[1 - Me], __ATOMIC_SEQ_CST) &&
           (Bound < 0 || Polls < Bound);
           ++Polls)
        ;
      Saw[Me] = __atomic_load_n(&Flags[1 - Me], __ATOMIC_SEQ_CST);
    }
  }
#pragma omp taskwait
  printf("region 0 saw region 1: %s\n", Saw[0] ? "yes" : "no");
  printf("region 1 saw region 0: %s\n", Saw[1] ? "yes" : "no");
  omp_target_free(Flags, Dev);
  return 0;
}
