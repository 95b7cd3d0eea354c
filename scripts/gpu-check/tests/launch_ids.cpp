// launch_ids: omp_get_team_num, omp_get_num_teams, omp_get_thread_num and
// omp_get_num_threads against the launch that num_teams(N) thread_limit(T)
// asked for, in generic mode (`target teams` + `parallel`) and in SPMD mode
// (`target teams distribute parallel for`). Every (team, thread) records
// itself in its own slot; then: the league has 1 <= num_teams <= N teams and
// every team number in [0, num_teams) shows up, every thread of a team sees
// the same 1 <= num_threads <= T, and thread numbers 0..num_threads-1 each
// appear exactly once per team (in generic mode) or at least once (SPMD).
// On a GPU, num_teams(N) for small N gives exactly N teams (one block per
// team; nothing forces the runtime to launch fewer), so that is checked
// there too. A plain `target` region must see one team of one thread, and
// omp_is_initial_device() == 0. The sizes found are printed as INFO lines.
#include "check.h"

#include <vector>

namespace {

// One slot per (team, thread) the clauses allow.
struct Slot {
  int Hits;       // times this (team, thread) ran (atomic)
  int NumTeams;   // omp_get_num_teams() it saw
  int NumThreads; // omp_get_num_threads() it saw
};

// Compiled for a GPU: set inside a target region from the device's macros.
#pragma omp declare target
inline int onGpu() {
#if defined(__NVPTX__) || defined(__AMDGPU__)
  return 1;
#else
  return 0;
#endif
}
#pragma omp end declare target

// Checks the slots of one launch; Exact says each thread ran exactly once.
void checkSlots(const char *Mode, int N, int T, const std::vector<Slot> &S,
                int Outside, int OnGpu, bool Exact) {
  CHECK(Outside == 0, "%s num_teams(%d) thread_limit(%d): %d threads had a "
        "team or thread number outside the clauses' bounds", Mode, N, T,
        Outside);
  int NumTeams = -1;
  for (const Slot &X : S)
    if (X.Hits)
      NumTeams = X.NumTeams;
  CHECK(NumTeams >= 1 && NumTeams <= N,
        "%s num_teams(%d) thread_limit(%d): omp_get_num_teams() = %d", Mode,
        N, T, NumTeams);
  if (NumTeams < 1 || NumTeams > N)
    return;
  if (OnGpu && N <= 64)
    CHECK(NumTeams == N, "%s num_teams(%d) on a GPU gave %d teams", Mode, N,
          NumTeams);
  int MinThreads = T + 1, MaxThreads = 0;
  for (int Team = 0; Team < N; ++Team) {
    const Slot *Row = &S[size_t(Team) * T];
    int NumThreads = 0;
    for (int Th = 0; Th < T; ++Th)
      if (Row[Th].Hits)
        NumThreads = Row[Th].NumThreads;
    if (Team >= NumTeams) {
      CHECK(NumThreads == 0, "%s num_teams(%d): team %d ran, but "
            "omp_get_num_teams() = %d", Mode, N, Team, NumTeams);
      continue;
    }
    CHECK(NumThreads >= 1 && NumThreads <= T,
          "%s num_teams(%d) thread_limit(%d): team %d has %d threads", Mode,
          N, T, Team, NumThreads);
    if (NumThreads < 1 || NumThreads > T)
      continue;
    MinThreads = NumThreads < MinThreads ? NumThreads : MinThreads;
    MaxThreads = NumThreads > MaxThreads ? NumThreads : MaxThreads;
    for (int Th = 0; Th < T; ++Th) {
      const Slot &X = Row[Th];
      if (Th >= NumThreads) {
        CHECK(X.Hits == 0, "%s team %d: thread %d ran, but "
              "omp_get_num_threads() = %d", Mode, Team, Th, NumThreads);
        continue;
      }
      CHECK(Exact ? X.Hits == 1 : X.Hits >= 1,
            "%s team %d: thread %d of %d ran %d times", Mode, Team, Th,
            NumThreads, X.Hits);
      CHECK(X.Hits == 0 || (X.NumThreads == NumThreads &&
                            X.NumTeams == NumTeams),
            "%s team %d thread %d: saw %d teams of %d threads, its team "
            "mates %d of %d", Mode, Team, Th, X.NumTeams, X.NumThreads,
            NumTeams, NumThreads);
    }
  }
  check::info("%s num_teams(%d) thread_limit(%d): %d teams of %d..%d threads",
              Mode, N, T, NumTeams, MinThreads, MaxThreads);
}

// Generic mode: the team's main thread reads the team values, then a
// parallel region reports each thread once.
void generic(int N, int T) {
  std::vector<Slot> S(size_t(N) * T, Slot{0, 0, 0});
  Slot *P = S.data();
  int Outside = 0, OnGpu = 0;
  const size_t M = S.size();
#pragma omp target teams num_teams(N) thread_limit(T)                       \
    map(tofrom : P[0 : M], Outside) map(from : OnGpu)
  {
    const int Team = omp_get_team_num(), NumTeams = omp_get_num_teams();
    if (Team == 0)
      OnGpu = onGpu();
#pragma omp parallel
    {
      const int Th = omp_get_thread_num();
      if (Team >= 0 && Team < N && Th >= 0 && Th < T) {
        Slot &X = P[size_t(Team) * T + Th];
#pragma omp atomic update
        X.Hits += 1;
        X.NumTeams = NumTeams;
        X.NumThreads = omp_get_num_threads();
      } else {
#pragma omp atomic update
        Outside += 1;
      }
    }
  }
  checkSlots("target teams + parallel", N, T, S, Outside, OnGpu, true);
}

// SPMD mode: 3 iterations per allowed (team, thread) under static
// schedules, so every thread that exists gets at least one.
void spmd(int N, int T) {
  std::vector<Slot> S(size_t(N) * T, Slot{0, 0, 0});
  Slot *P = S.data();
  int Outside = 0, OnGpu = 0;
  const size_t M = S.size();
  const int Iterations = 3 * N * T;
#pragma omp target teams distribute parallel for num_teams(N)               \
    thread_limit(T) dist_schedule(static) schedule(static)                   \
    map(tofrom : P[0 : M], Outside) map(from : OnGpu)
  for (int I = 0; I < Iterations; ++I) {
    const int Team = omp_get_team_num(), Th = omp_get_thread_num();
    if (I == 0)
      OnGpu = onGpu();
    if (Team >= 0 && Team < N && Th >= 0 && Th < T) {
      Slot &X = P[size_t(Team) * T + Th];
#pragma omp atomic update
      X.Hits += 1;
      X.NumTeams = omp_get_num_teams();
      X.NumThreads = omp_get_num_threads();
    } else {
#pragma omp atomic update
      Outside += 1;
    }
  }
  checkSlots("teams distribute parallel for", N, T, S, Outside, OnGpu,
             false);
}

void plainTarget() {
  int NumTeams = -1, Team = -1, NumThreads = -1, Thread = -1, Initial = -1,
      InParallel = -1, Level = -1;
#pragma omp target map(from : NumTeams, Team, NumThreads, Thread, Initial,  \
                           InParallel, Level)
  {
    NumTeams = omp_get_num_teams();
    Team = omp_get_team_num();
    NumThreads = omp_get_num_threads();
    Thread = omp_get_thread_num();
    Initial = omp_is_initial_device();
    InParallel = omp_in_parallel();
    Level = omp_get_level();
  }
  CHECK(NumTeams == 1 && Team == 0, "plain target: team %d of %d, expected "
        "0 of 1", Team, NumTeams);
  CHECK(NumThreads == 1 && Thread == 0, "plain target: thread %d of %d, "
        "expected 0 of 1", Thread, NumThreads);
  CHECK(Initial == 0, "plain target: omp_is_initial_device() = %d", Initial);
  CHECK(InParallel == 0 && Level == 0,
        "plain target: omp_in_parallel() = %d, omp_get_level() = %d",
        InParallel, Level);
  // The host itself is the initial device.
  CHECK(omp_is_initial_device() == 1, "host: omp_is_initial_device() = %d",
        omp_is_initial_device());
}

// `target parallel num_threads(K)`: one team, at most K threads, each
// thread number once.
void targetParallel(int K) {
  std::vector<int> Hits(K, 0);
  int *H = Hits.data(), NumTeams = -1, NumThreads = -1, Outside = 0;
#pragma omp target parallel num_threads(K) map(tofrom : H[0 : K], Outside)  \
    map(from : NumTeams, NumThreads)
  {
    const int Th = omp_get_thread_num();
    if (Th == 0) {
      NumTeams = omp_get_num_teams();
      NumThreads = omp_get_num_threads();
    }
    if (Th >= 0 && Th < K) {
#pragma omp atomic update
      H[Th] += 1;
    } else {
#pragma omp atomic update
      Outside += 1;
    }
  }
  CHECK(NumTeams == 1, "target parallel: %d teams", NumTeams);
  CHECK(NumThreads >= 1 && NumThreads <= K && Outside == 0,
        "target parallel num_threads(%d): %d threads, %d out of range", K,
        NumThreads, Outside);
  for (int Th = 0; Th < K && NumThreads >= 1 && NumThreads <= K; ++Th)
    CHECK(Hits[Th] == (Th < NumThreads ? 1 : 0),
          "target parallel num_threads(%d): thread %d ran %d times", K, Th,
          Hits[Th]);
  check::info("target parallel num_threads(%d): %d threads", K, NumThreads);
}

} // namespace

int main() {
  check::expectOffloaded();
  plainTarget();
  const int Launches[][2] = {{8, 64}, {3, 33}, {1, 1}, {2, 7}, {64, 128}};
  for (const auto &L : Launches) {
    generic(L[0], L[1]);
    spmd(L[0], L[1]);
  }
  targetParallel(1);
  targetParallel(48);
  return check::verdict();
}
