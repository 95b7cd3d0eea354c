// Task reductions inside target regions: `taskgroup task_reduction` with
// `in_reduction` tasks (nested tasks, an inner taskgroup that joins the
// outer one's reduction), `taskloop reduction`, and `reduction(task, ...)`
// on parallel and worksharing constructs, in several teams at once. Each
// result is checked against the sum computed on the host.
#include <omp.h>
#include <stdio.h>

#define N 1000

static long expectedSum(int Scale) {
  long Sum = 0;
  for (int I = 0; I < N; ++I)
    Sum += (long)I * Scale;
  return Sum;
}

int main(void) {
  long Group = 0, Loop = 0, Nested = 0, Outer = 0;
  double Product = 1.0;
  int Max = -1;
  // One team: the main thread opens the reductions.
#pragma omp target map(tofrom : Group, Loop, Nested, Outer, Product, Max)
  {
#pragma omp taskgroup task_reduction(+ : Group) task_reduction(max : Max)
    {
      for (int I = 0; I < N; ++I) {
#pragma omp task in_reduction(+ : Group) in_reduction(max : Max)
        {
          Group += I;
          Max = I > Max ? I : Max;
        }
      }
    }
#pragma omp taskloop reduction(+ : Loop) reduction(* : Product) grainsize(64)
    for (int I = 0; I < N; ++I) {
      Loop += 2 * I;
      if (I < 10)
        Product *= 2.0;
    }
#pragma omp taskgroup task_reduction(+ : Outer)
    {
#pragma omp taskgroup task_reduction(+ : Nested)
      {
        for (int I = 0; I < N; ++I) {
          // A task inside a task joins with the copy its parent got; the
          // inner taskgroup's tasks also join the outer taskgroup's item.
#pragma omp task in_reduction(+ : Nested) in_reduction(+ : Outer)
          {
            Outer += 1;
#pragma omp task in_reduction(+ : Nested)
            Nested += 3 * I;
          }
        }
      }
    }
  }

  // reduction(task, ...) on a parallel loop in four teams: every thread's
  // tasks join the team's reduction, whose copies end in the region's
  // ordinary reduction; plus a taskgroup reduction per thread.
  long TeamSums[4] = {0, 0, 0, 0};
  long PerThread[4] = {0, 0, 0, 0};
  int Threads[4] = {0, 0, 0, 0};
#pragma omp target teams num_teams(4) thread_limit(64)                         \
    map(tofrom                                                                 \
        : TeamSums, PerThread, Threads)
  {
    int Team = omp_get_team_num();
    long Sum = 0, Own = 0;
#pragma omp parallel for reduction(task, + : Sum) reduction(+ : Own)
    for (int I = 0; I < N; ++I) {
#pragma omp task in_reduction(+ : Sum)
      Sum += (long)I * (Team + 1);
      if (omp_get_thread_num() == 0)
        Threads[Team] = omp_get_num_threads();
      long Mine = 0;
#pragma omp taskgroup task_reduction(+ : Mine)
      {
#pragma omp task in_reduction(+ : Mine)
        Mine += I;
      }
      Own += Mine;
    }
    TeamSums[Team] = Sum;
    PerThread[Team] = Own;
  }

  // reduction(task, ...) on the parallel construct itself, with a
  // worksharing loop inside that has its own.
  long ParallelSum = 0, LoopSum = 0;
  int ParallelThreads = 0;
#pragma omp target parallel reduction(task, + : ParallelSum)                   \
    map(tofrom : ParallelSum, LoopSum, ParallelThreads) num_threads(32)
  {
    if (omp_get_thread_num() == 0)
      ParallelThreads = omp_get_num_threads();
    int Me = omp_get_thread_num() + 1;
#pragma omp task in_reduction(+ : ParallelSum) firstprivate(Me)
    ParallelSum += Me;
#pragma omp for reduction(task, + : LoopSum)
    for (int I = 0; I < N; ++I) {
#pragma omp task in_reduction(+ : LoopSum)
      LoopSum += I;
    }
  }

  // The same on a parallel loop directly inside `target` (the V&V suite's
  // shape), which link-time OpenMPOpt miscompiled while the team state's
  // slot for the modifier started undefined.
  int Small = 0;
#pragma omp target map(tofrom : Small)
#pragma omp parallel for reduction(task, + : Small) num_threads(8)
  for (int I = 0; I < N; ++I) {
#pragma omp task in_reduction(+ : Small)
    Small += I;
  }

  int Errors = 0;
  Errors += Group != expectedSum(1);
  Errors += Max != N - 1;
  Errors += Loop != expectedSum(2);
  Errors += Product != 1024.0;
  Errors += Nested != expectedSum(3);
  Errors += Outer != N;
  for (int T = 0; T < 4; ++T) {
    Errors += TeamSums[T] != expectedSum(T + 1);
    Errors += PerThread[T] != expectedSum(1);
    Errors += Threads[T] < 1;
  }
  // Thread numbers 1..T summed over the T threads of the target parallel.
  Errors += ParallelThreads < 1 ||
            ParallelSum != (long)ParallelThreads * (ParallelThreads + 1) / 2;
  Errors += LoopSum != expectedSum(1);
  Errors += Small != expectedSum(1);
  printf("taskgroup %ld max %d taskloop %ld product %g nested %ld outer %ld\n",
         Group, Max, Loop, Product, Nested, Outer);
  printf("teams %ld %ld %ld %ld per-thread %ld threads %d\n", TeamSums[0],
         TeamSums[1], TeamSums[2], TeamSums[3], PerThread[0], Threads[0]);
  printf("parallel %ld over %d threads, loop %ld, in target %d\n", ParallelSum,
         ParallelThreads, LoopSum, Small);
  printf("task reductions: %d errors\n", Errors);
  return Errors != 0;
}
