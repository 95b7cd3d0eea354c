// generic_mode: target regions in generic mode, where one thread per team
// runs the serial part and wakes the others for each `parallel`. Checks
// `target teams` with a serial part per team, two parallel regions with a
// serial loop between them, `single`, `critical`, `barrier`, `master` and
// `masked`, a nested `parallel` (omp_get_level, omp_get_ancestor_thread_num),
// and variables of the serial part shared into the parallel regions (on a
// GPU they live in the team's shared memory or on the globalization heap,
// since the worker threads cannot see the main thread's stack).
#include "check.h"

#include <cstring>

namespace {

constexpr int MaxTeams = 8;
constexpr int Threads = 8;

// What each team reports; every field is written by the device code.
struct TeamResult {
  int NumTeams;          // omp_get_num_teams() in the serial part
  int SerialLevel;       // omp_get_level() in the serial part
  int TeamSize;          // omp_get_num_threads() in the first parallel
  int ParallelLevel;     // omp_get_level() in the first parallel
  int Seen;              // threads that ran the first parallel (atomic)
  int SingleCount;       // times `single` ran
  int CriticalSum;       // sum of thread numbers, added under `critical`
  int BarrierErrors;     // neighbours' values not visible after `barrier`
  int MasterThread;      // thread number that ran `master` (-1 if none)
  int MaskedCount;       // times `masked` ran
  int SerialLoop;        // the serial loop between the parallel regions
  int SecondSum;         // second parallel region's sum over the array
  int NestedLevel;       // omp_get_level() inside the nested parallel
  int NestedActive;      // omp_get_active_level() inside it
  int NestedErrors;      // wrong ancestor thread numbers inside it
  int NestedRuns;        // inner-region threads that ran (atomic)
  int InnerTeamSizes;    // sum of inner omp_get_num_threads()
  int OnGpu;             // compiled for a GPU (see below)
};

} // namespace

int main() {
  check::expectOffloaded();

  TeamResult Results[MaxTeams];
  std::memset(Results, 0xff, sizeof(Results));
  int Teams = 0;

  // thread_limit is the kernel's compiled block bound, which includes the
  // generic-mode main thread's warp: on a 64-lane AMD wavefront,
  // thread_limit(64) leaves the main thread alone (no workers, regions of
  // one thread), as upstream launches it; 128 leaves a wavefront of workers.
#pragma omp target teams num_teams(4) thread_limit(128)                       \
    map(tofrom : Results) map(from : Teams)
  {
    // Serial part: one thread per team. Everything declared here and used
    // in a parallel region below is shared with the team's other threads.
    const int Team = omp_get_team_num();
    TeamResult &R = Results[Team];
    if (Team == 0)
      Teams = omp_get_num_teams();
    R.NumTeams = omp_get_num_teams();
    R.SerialLevel = omp_get_level();
    // A GPU team always has the 8 threads asked for. The CPU device runs
    // teams as libomp's host teams, which share the machine's cores between
    // them (one thread per team on 2 cores), so there only the results
    // count, not the team size.
#if defined(__NVPTX__) || defined(__AMDGPU__)
    R.OnGpu = 1;
#else
    R.OnGpu = 0;
#endif

    int Seen = 0, SingleCount = 0, CriticalSum = 0, MasterThread = -1;
    int MaskedCount = 0, TeamSize = 0, ParallelLevel = -1;
    int Slots[Threads];
    int BarrierErrors = 0;
    for (int I = 0; I < Threads; ++I)
      Slots[I] = -1;

#pragma omp parallel num_threads(Threads)
    {
      const int Tid = omp_get_thread_num();
      const int N = omp_get_num_threads();
#pragma omp atomic
      ++Seen;
#pragma omp single
      {
        ++SingleCount;
        TeamSize = N;
        ParallelLevel = omp_get_level();
      }
#pragma omp critical
      CriticalSum += Tid;
      // Each thread publishes a value, then reads its neighbour's: without
      // a working barrier some would still read -1.
      Slots[Tid] = 100 * Team + Tid;
#pragma omp barrier
      const int Next = (Tid + 1) % N;
      if (Slots[Next] != 100 * Team + Next) {
#pragma omp atomic
        ++BarrierErrors;
      }
#pragma omp master
      MasterThread = Tid;
#pragma omp masked filter(0)
      {
#pragma omp atomic
        ++MaskedCount;
      }
    }

    R.Seen = Seen;
    R.SingleCount = SingleCount;
    R.CriticalSum = CriticalSum;
    R.BarrierErrors = BarrierErrors;
    R.MasterThread = MasterThread;
    R.MaskedCount = MaskedCount;
    R.TeamSize = TeamSize;
    R.ParallelLevel = ParallelLevel;

    // A serial loop between two parallel regions: its result must reach
    // the second region, which reads the array the loop wrote.
    int Data[64];
    int Acc = 0;
    for (int I = 0; I < 64; ++I) {
      Data[I] = I + Team;
      Acc += Data[I];
    }
    R.SerialLoop = Acc;

    int SecondSum = 0;
    int NestedLevel = -1, NestedActive = -1, NestedErrors = 0;
    int NestedRuns = 0, InnerTeamSizes = 0;
#pragma omp parallel num_threads(4) reduction(+ : SecondSum)
    {
#pragma omp for
      for (int I = 0; I < 64; ++I)
        SecondSum += Data[I];

      // Nested parallel: on a GPU it is serialized (one thread), on the CPU
      // device it may or may not be active; the level counts either way.
      const int Outer = omp_get_thread_num();
#pragma omp parallel num_threads(2)
      {
#pragma omp atomic
        ++NestedRuns;
#pragma omp atomic
        InnerTeamSizes += omp_get_num_threads();
        if (omp_get_ancestor_thread_num(1) != Outer ||
            omp_get_ancestor_thread_num(2) != omp_get_thread_num()) {
#pragma omp atomic
          ++NestedErrors;
        }
        if (Outer == 0 && omp_get_thread_num() == 0) {
          NestedLevel = omp_get_level();
          NestedActive = omp_get_active_level();
        }
      }
    }
    R.SecondSum = SecondSum;
    R.NestedLevel = NestedLevel;
    R.NestedActive = NestedActive;
    R.NestedErrors = NestedErrors;
    R.NestedRuns = NestedRuns;
    R.InnerTeamSizes = InnerTeamSizes;
  }

  CHECK(Teams >= 1 && Teams <= 4, "omp_get_num_teams() = %d, asked for 4",
        Teams);
  if (Teams < 1 || Teams > 4)
    return check::verdict();
  check::info("%d teams, %d threads in the first parallel region of team 0",
              Teams, Results[0].TeamSize);

  for (int T = 0; T < Teams; ++T) {
    const TeamResult &R = Results[T];
    const int N = R.TeamSize;
    CHECK(R.NumTeams == Teams, "team %d: omp_get_num_teams() = %d, team 0 saw %d",
          T, R.NumTeams, Teams);
    CHECK(R.SerialLevel == 0, "team %d: omp_get_level() = %d in the serial part",
          T, R.SerialLevel);
    // On a GPU a generic-mode region that asks for 8 threads gets them, or
    // nothing below tests concurrency; the plain `target` region at the end
    // checks that the CPU device runs parallel regions with several threads.
    CHECK(N >= (R.OnGpu ? Threads : 1) && N <= Threads,
          "team %d: %d threads in parallel num_threads(%d)", T, N, Threads);
    CHECK(R.ParallelLevel == 1, "team %d: omp_get_level() = %d in parallel", T,
          R.ParallelLevel);
    CHECK(R.Seen == N, "team %d: %d threads ran a region of %d", T, R.Seen, N);
    CHECK(R.SingleCount == 1, "team %d: single ran %d times", T,
          R.SingleCount);
    CHECK(R.CriticalSum == N * (N - 1) / 2,
          "team %d: critical sum %d, expected %d", T, R.CriticalSum,
          N * (N - 1) / 2);
    CHECK(R.BarrierErrors == 0,
          "team %d: %d threads did not see a neighbour's write after barrier",
          T, R.BarrierErrors);
    CHECK(R.MasterThread == 0, "team %d: master ran on thread %d", T,
          R.MasterThread);
    CHECK(R.MaskedCount == 1, "team %d: masked ran %d times", T,
          R.MaskedCount);
    const int Loop = 64 * 63 / 2 + 64 * T;
    CHECK(R.SerialLoop == Loop, "team %d: serial loop %d, expected %d", T,
          R.SerialLoop, Loop);
    CHECK(R.SecondSum == Loop,
          "team %d: second parallel region summed %d, expected %d", T,
          R.SecondSum, Loop);
    CHECK(R.NestedLevel == 2, "team %d: omp_get_level() = %d in nested parallel",
          T, R.NestedLevel);
    CHECK(R.NestedActive == 1 || R.NestedActive == 2,
          "team %d: omp_get_active_level() = %d in nested parallel", T,
          R.NestedActive);
    CHECK(R.NestedErrors == 0,
          "team %d: %d wrong omp_get_ancestor_thread_num() in nested parallel",
          T, R.NestedErrors);
    // Every inner thread adds its own team size: sum = sum of squares of
    // the inner team sizes, which equals NestedRuns when they are all 1.
    CHECK(R.NestedRuns >= 1 && R.InnerTeamSizes >= R.NestedRuns,
          "team %d: nested regions ran %d threads, team sizes sum %d", T,
          R.NestedRuns, R.InnerTeamSizes);
  }
  if (Teams >= 1)
    check::info("nested parallel: level %d, active level %d, %d inner threads",
                Results[0].NestedLevel, Results[0].NestedActive,
                Results[0].NestedRuns);

  // Plain `target` (one team) with a parallel region that updates a
  // variable of the serial part through a pointer: the pointee must be the
  // shared (globalized) copy, not a per-thread one.
  long Total = 0;
#pragma omp target map(tofrom : Total)
  {
    long Local = 0;
    long *P = &Local;
#pragma omp parallel num_threads(Threads)
    {
#pragma omp atomic
      *P += omp_get_thread_num() + 1;
    }
    // The serial part sees what the threads wrote.
    Total = Local * 10 + (omp_in_parallel() ? 1 : 0);
  }
  CHECK(Total % 10 == 0, "omp_in_parallel() true in the serial part");
  const long Sum = Total / 10;
  CHECK(Sum >= 3 && Sum <= Threads * (Threads + 1) / 2 &&
            // Sum = n(n+1)/2 for the team size n.
            [&] {
              for (long N = 2; N <= Threads; ++N)
                if (N * (N + 1) / 2 == Sum)
                  return true;
              return false;
            }(),
        "plain target: threads summed %ld into a serial-part variable", Sum);
  return check::verdict();
}
