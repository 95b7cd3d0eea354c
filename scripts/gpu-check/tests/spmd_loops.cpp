// spmd_loops: worksharing loops offloaded in SPMD form, each iteration run
// exactly once. Every iteration bumps its own counter atomically, so a lost
// iteration reads 0 and a duplicated one 2 (a plain store would hide
// duplicates). Covers collapse(2) and collapse(3) with odd bounds, negative
// and non-unit strides, a triangular (non-rectangular) collapse, 64-bit and
// unsigned induction variables, a step known only at run time, `<=` bounds
// and zero-trip loops, under schedule(static, 1), schedule(static, 7) and
// dist_schedule(static, 64). Where OpenMP fixes the assignment (static
// chunks go round-robin to threads in thread-number order, dist_schedule
// chunks round-robin to teams in team-number order) that is checked too.
#include "check.h"

#include <vector>

namespace {

// Iteration counters, one per logical iteration, plus a count of indices
// that fell outside the iteration space.
struct Hits {
  explicit Hits(int M) : Count(M, 0) {}
  std::vector<int> Count;
  int Outside = 0;
};

// Checks that the iterations for which Expected(Index) is true ran once and
// all others not at all.
template <typename Pred>
void expectOnce(const char *What, const Hits &H, Pred Expected) {
  int Wrong = 0, First = -1;
  for (int I = 0; I < int(H.Count.size()); ++I)
    if (H.Count[I] != (Expected(I) ? 1 : 0) && Wrong++ == 0)
      First = I;
  CHECK(Wrong == 0 && H.Outside == 0,
        "%s: %d iterations not run exactly once (first: index %d ran %d "
        "times), %d outside the iteration space",
        What, Wrong, First, First >= 0 ? H.Count[First] : 0, H.Outside);
}
void expectOnce(const char *What, const Hits &H) {
  expectOnce(What, H, [](int) { return true; });
}

// Counts logical iteration Index, or an out-of-range index.
#pragma omp declare target
inline void hit(int *Count, int M, int *Outside, long long Index) {
  if (Index >= 0 && Index < M) {
#pragma omp atomic update
    Count[Index] += 1;
  } else {
#pragma omp atomic update
    *Outside += 1;
  }
}
#pragma omp end declare target

void collapse2() {
  // i = 1001, 998, ..., -1 (335 values); j = 5, 7, ..., 775 (386 values).
  const int NI = 335, NJ = 386, M = NI * NJ;
  Hits H(M);
  int *C = H.Count.data(), *Out = &H.Outside;
#pragma omp target teams distribute parallel for collapse(2)                 \
    schedule(static, 1) map(tofrom : C[0 : M], Out[0 : 1])
  for (int I = 1001; I > -3; I -= 3)
    for (int J = 5; J < 777; J += 2)
      hit(C, M, Out, (1001 - I) / 3 * NJ + (J - 5) / 2);
  expectOnce("collapse(2), negative and step-2 strides, schedule(static, 1)",
             H);
}

void collapse3() {
  // i = 0..16 (17), j = 30, 26, ..., 2 (8), k = -7, -2, ..., 98 (22).
  const int NI = 17, NJ = 8, NK = 22, M = NI * NJ * NK;
  Hits H(M);
  int *C = H.Count.data(), *Out = &H.Outside;
#pragma omp target teams distribute parallel for collapse(3)                 \
    dist_schedule(static, 64) schedule(static, 7)                            \
    map(tofrom : C[0 : M], Out[0 : 1])
  for (int I = 0; I < 17; ++I)
    for (int J = 30; J >= 0; J -= 4)
      for (int K = -7; K < 100; K += 5)
        hit(C, M, Out, (I * NJ + (30 - J) / 4) * NK + (K + 7) / 5);
  expectOnce("collapse(3), dist_schedule(static, 64) schedule(static, 7)", H);
}

void triangular() {
  // Non-rectangular collapse (OpenMP 5.0): j starts at i.
  const int T = 601, M = T * T;
  Hits H(M);
  int *C = H.Count.data(), *Out = &H.Outside;
#pragma omp target teams distribute parallel for collapse(2)                 \
    map(tofrom : C[0 : M], Out[0 : 1])
  for (int I = 0; I < T; ++I)
    for (int J = I; J < T; ++J)
      hit(C, M, Out, I * T + J);
  expectOnce("triangular collapse(2)", H, [&](int X) { return X % T >= X / T; });
}

void wideAndUnsigned() {
  const int M = 99991;
  {
    // 64-bit induction variable beyond 2^31, counting down by 7.
    Hits H(M);
    int *C = H.Count.data(), *Out = &H.Outside;
    const long long Big = 3000000001LL;
#pragma omp target teams distribute parallel for schedule(static, 1)         \
    map(tofrom : C[0 : M], Out[0 : 1])
    for (long long I = Big; I > Big - 7LL * M; I -= 7)
      hit(C, M, Out, (Big - I) / 7);
    expectOnce("long long, stride -7 from 3e9", H);
  }
  {
    // Unsigned induction variable above 2^31, counting down by 3.
    Hits H(M);
    int *C = H.Count.data(), *Out = &H.Outside;
    const unsigned Top = 4000000000u;
#pragma omp target teams distribute parallel for                            \
    map(tofrom : C[0 : M], Out[0 : 1])
    for (unsigned U = Top; U > Top - 3u * M; U -= 3)
      hit(C, M, Out, (Top - U) / 3);
    expectOnce("unsigned, stride -3 from 4e9", H);
  }
}

void runtimeBounds() {
  // Bounds and step known only on the device side at run time.
  volatile int VLo = -1000, VHi = 1000000, VStep = 13;
  int Lo = VLo, Hi = VHi, Step = VStep;
  const int M = (Hi - Lo + Step - 1) / Step;
  {
    Hits H(M);
    int *C = H.Count.data(), *Out = &H.Outside;
#pragma omp target teams distribute parallel for schedule(static, 7)         \
    map(tofrom : C[0 : M], Out[0 : 1])
    for (int I = Lo; I < Hi; I += Step)
      hit(C, M, Out, (I - Lo) / Step);
    expectOnce("run-time step 13, schedule(static, 7)", H);
  }
  {
    // `<=` with an odd bound and step 2: 0, 2, ..., 2 * (M2 - 1).
    const int Last = 2 * 50001 + 1, M2 = Last / 2 + 1;
    Hits H(M2);
    int *C = H.Count.data(), *Out = &H.Outside;
#pragma omp target teams distribute parallel for                            \
    map(tofrom : C[0 : M2], Out[0 : 1])
    for (int I = 0; I <= Last; I += 2)
      hit(C, M2, Out, I / 2);
    expectOnce("<= bound, step 2", H);
  }
  {
    // Zero-trip loops: nothing may run, and the inner loop of a collapse
    // with an empty range makes the whole space empty.
    int Ran = 0, *PRan = &Ran;
    int From = VHi, To = VLo;
#pragma omp target teams distribute parallel for map(tofrom : PRan[0 : 1])
    for (int I = From; I < To; ++I) {
#pragma omp atomic update
      *PRan += 1;
    }
#pragma omp target teams distribute parallel for collapse(2)                 \
    map(tofrom : PRan[0 : 1])
    for (int I = 0; I < 100; ++I)
      for (int J = From; J < To; ++J) {
#pragma omp atomic update
        *PRan += 1;
      }
    CHECK(Ran == 0, "zero-trip loops ran %d iterations", Ran);
  }
}

// dist_schedule(static, 64): chunk c of 64 iterations goes to team
// c % num_teams, in order. num_teams(5) with 38 chunks makes it wrap.
void distSchedule() {
  const int N = 64 * 37 + 11;
  std::vector<int> Team(N, -1);
  int *PT = Team.data(), NumTeams = 0;
#pragma omp target teams distribute dist_schedule(static, 64) num_teams(5)   \
    map(tofrom : PT[0 : N]) map(from : NumTeams)
  for (int I = 0; I < N; ++I) {
    PT[I] = omp_get_team_num();
    if (I == 0)
      NumTeams = omp_get_num_teams();
  }
  CHECK(NumTeams >= 1 && NumTeams <= 5, "num_teams(5) gave %d teams",
        NumTeams);
  int Wrong = 0, First = -1;
  for (int I = 0; I < N && NumTeams >= 1; ++I)
    if (Team[I] != I / 64 % NumTeams && Wrong++ == 0)
      First = I;
  CHECK(Wrong == 0, "dist_schedule(static, 64) with %d teams: %d iterations "
        "on the wrong team, first %d on team %d, expected %d", NumTeams, Wrong,
        First, First >= 0 ? Team[First] : 0,
        First >= 0 && NumTeams ? First / 64 % NumTeams : 0);

  // The combined construct: every iteration once, chunks of 64 on teams
  // round-robin.
  std::vector<int> Count(N, 0);
  int *PC = Count.data();
#pragma omp target teams distribute parallel for dist_schedule(static, 64)   \
    schedule(static, 7) num_teams(5) map(tofrom : PT[0 : N], PC[0 : N])      \
    map(from : NumTeams)
  for (int I = 0; I < N; ++I) {
    PT[I] = omp_get_team_num();
#pragma omp atomic update
    PC[I] += 1;
    if (I == 0)
      NumTeams = omp_get_num_teams();
  }
  Wrong = 0;
  First = -1;
  for (int I = 0; I < N && NumTeams >= 1; ++I)
    if ((Count[I] != 1 || Team[I] != I / 64 % NumTeams) && Wrong++ == 0)
      First = I;
  CHECK(Wrong == 0, "distribute parallel for dist_schedule(static, 64) with "
        "%d teams: %d iterations wrong, first %d ran %d times on team %d",
        NumTeams, Wrong, First, First >= 0 ? Count[First] : 0,
        First >= 0 ? Team[First] : 0);
}

// schedule(static, K) in a single team: chunk c of K iterations goes to
// thread c % num_threads.
void staticChunks(int K) {
  const int N = 10007;
  std::vector<int> Thread(N, -1), Count(N, 0);
  int *PT = Thread.data(), *PC = Count.data(), NumThreads = 0;
#pragma omp target parallel for schedule(static, K)                         \
    map(tofrom : PT[0 : N], PC[0 : N]) map(from : NumThreads)
  for (int I = 0; I < N; ++I) {
    PT[I] = omp_get_thread_num();
#pragma omp atomic update
    PC[I] += 1;
    if (I == 0)
      NumThreads = omp_get_num_threads();
  }
  CHECK(NumThreads >= 1, "target parallel for: %d threads", NumThreads);
  int Wrong = 0, First = -1;
  for (int I = 0; I < N && NumThreads >= 1; ++I)
    if ((Count[I] != 1 || Thread[I] != I / K % NumThreads) && Wrong++ == 0)
      First = I;
  CHECK(Wrong == 0, "target parallel for schedule(static, %d) with %d "
        "threads: %d iterations wrong, first %d ran %d times on thread %d, "
        "expected thread %d", K, NumThreads, Wrong, First,
        First >= 0 ? Count[First] : 0, First >= 0 ? Thread[First] : 0,
        First >= 0 && NumThreads ? First / K % NumThreads : 0);
}

} // namespace

int main() {
  check::expectOffloaded();
  collapse2();
  collapse3();
  triangular();
  wideAndUnsigned();
  runtimeBounds();
  distSchedule();
  staticChunks(1);
  staticChunks(7);
  return check::verdict();
}
