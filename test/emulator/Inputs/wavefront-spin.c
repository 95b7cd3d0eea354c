// Lanes 1-63 of a wavefront spin until lane 0 sets a flag, which lane 0
// does only after the branch that sent the others into the loop. Whether a
// lane waits comes from memory (Waits), so that the compiler cannot move
// lane 0's store into that branch. A GPU with independent thread
// scheduling (sm_70 and later) runs it to the end; an AMD wavefront, whose
// lanes run on together only from the branch's post-dominator, never gets
// lane 0 there while the others spin: it hangs.
#include <omp.h>
#include <stdio.h>

int main(void) {
  int Waits[64], Flag = 0, Done = 0;
  for (int I = 0; I < 64; ++I)
    Waits[I] = I != 0;
#pragma omp target parallel num_threads(64) map(to : Waits) map(tofrom : Flag, Done)
  {
    int Lane = omp_get_thread_num();
    if (Waits[Lane]) {
      int Seen = 0;
      while (!Seen) {
#pragma omp atomic read
        Seen = Flag;
      }
    }
    if (Lane == 0) {
#pragma omp atomic write
      Flag = 1;
    }
#pragma omp atomic
    Done += 1;
  }
  printf("done %d\n", Done);
  return Done != 64;
}
