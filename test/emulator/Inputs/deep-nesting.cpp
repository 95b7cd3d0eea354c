// Parallel regions nested deeper than a GPU thread's state counts (63
// levels; docs/DeviceRuntime.md): they still run, each serialized on its
// thread, and the level queries keep their answers for the levels counted.
// The CPU device counts them all.
#include <omp.h>
#include <stdio.h>

enum { Depth = 70 };

#pragma omp declare target
/// Thread 1 of the active level-1 region opens Depth - 1 more regions, one
/// inside the other, and each records what the queries answer in it.
static void nest(int Remaining, int *Levels, int *Ran) {
  if (Remaining == 0)
    return;
#pragma omp parallel num_threads(2)
  {
    int Level = omp_get_level();
    if (Level == 1 && omp_get_thread_num() != 1) {
      // Not the thread that goes deeper.
    } else {
      if (Level >= 1 && Level <= Depth)
        Levels[Level - 1] = Level * 1000 + omp_get_num_threads() * 100 +
                            omp_get_thread_num() * 10 +
                            omp_get_ancestor_thread_num(1);
      ++*Ran;
      nest(Remaining - 1, Levels, Ran);
    }
  }
}
#pragma omp end declare target

int main() {
  int Levels[Depth] = {0}, Ran = 0, After = -1, Team1 = 0;
#pragma omp target map(tofrom : Levels, Ran, After, Team1)
  {
    nest(Depth, Levels, &Ran);
    After = omp_get_level();
    Team1 = omp_get_team_size(1);
  }
  // Level 1: two threads, thread 1; deeper: one thread, thread 0; thread 1
  // at level 1 above them all.
  int Counted = Levels[0] == 1211;
  for (int I = 1; Counted == I && I < Depth; ++I)
    Counted += Levels[I] == (I + 1) * 1000 + 101;
  printf("ran %d regions, levels counted 1..%d, level after %d, team size "
         "of level 1 outside %d\n",
         Ran, Counted, After, Team1);
  return 0;
}
