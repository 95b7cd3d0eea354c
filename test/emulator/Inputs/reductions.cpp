// Reductions across threads (warp shuffles) and across teams (the launch's
// reduction buffer), with block sizes that are and are not whole warps.
#include <stdio.h>

int main() {
  int Wrong = 0;
  const long N = 100000;
  const int TeamCounts[] = {1, 7, 64}, ThreadCounts[] = {32, 48, 128};
  for (int Teams : TeamCounts)
    for (int Threads : ThreadCounts) {
      long Sum = 0;
      double Max = 0;
#pragma omp target teams distribute parallel for num_teams(Teams)            \
    thread_limit(Threads) reduction(+ : Sum) reduction(max : Max)
      for (long I = 0; I < N; I++) {
        Sum += I;
        Max = Max > double(I % 777) ? Max : double(I % 777);
      }
      if (Sum != N * (N - 1) / 2 || Max != 776) {
        printf("teams %d threads %d: sum %ld max %g\n", Teams, Threads, Sum,
               Max);
        Wrong++;
      }
    }
  long Product = 1;
#pragma omp target parallel for reduction(* : Product) num_threads(40)
  for (int I = 1; I <= 20; I++)
    Product *= I;
  printf("reductions: %d wrong, 20! = %ld\n", Wrong, Product);
  return Wrong || Product != 2432902008176640000L;
}
