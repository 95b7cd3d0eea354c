// A benchmark's stress loop of nowait constructs: two sets of buffers used
// in turn, `target update to/from ... nowait` on sections that run past the
// mapped range, a `target teams distribute parallel for nowait` between
// them, 100 passes inside one `target data`.
//
// An update of a section that is only partly mapped copies nothing (as
// upstream's runtime: the section is not present, and without `present`
// that is not an error), so the device copies keep what the `target data`
// copied in, and the host gets the kernels' results when the region ends.
//
// `exit` mode leaves the last passes' tasks pending when main returns (the
// end of `target data` does not wait for them): the process must still
// end cleanly, with every task done.
#include <cstdio>
#include <cstring>

namespace {
constexpr int N = 1 << 12;
constexpr int Extra = 64; // how far the updated sections run past the map
constexpr int Passes = 100;
} // namespace

int main(int Argc, char **Argv) {
  bool LeavePending = Argc > 1 && !std::strcmp(Argv[1], "exit");
  double *In[2], *Out[2];
  for (int S = 0; S < 2; ++S) {
    In[S] = new double[N + Extra];
    Out[S] = new double[N + Extra];
    for (int I = 0; I < N + Extra; ++I) {
      In[S][I] = I + S;
      Out[S][I] = -1;
    }
  }
  double *In0 = In[0], *In1 = In[1], *Out0 = Out[0], *Out1 = Out[1];
#pragma omp target data map(to : In0[0 : N], In1[0 : N])                       \
    map(tofrom : Out0[0 : N], Out1[0 : N])
  {
    for (int P = 0; P < Passes; ++P) {
      double *X = In[P % 2], *Y = Out[P % 2];
#pragma omp target update to(X[0 : N + Extra]) nowait depend(inout : X[0])
#pragma omp target teams distribute parallel for nowait depend(in : X[0])     \
    depend(inout : Y[0])
      for (int I = 0; I < N; ++I)
        Y[I] = 2 * X[I] + P % 2;
#pragma omp target update from(Y[0 : N + Extra]) nowait depend(inout : Y[0])
    }
    if (!LeavePending) {
#pragma omp taskwait
    }
  }
  if (LeavePending) {
    // The tasks may still run: only say that main got here.
    std::printf("main returns with tasks pending\n");
    return 0;
  }
  int Wrong = 0;
  for (int S = 0; S < 2; ++S) {
    for (int I = 0; I < N; ++I)
      Wrong += Out[S][I] != 2 * (I + S) + S;
    for (int I = N; I < N + Extra; ++I)
      Wrong += Out[S][I] != -1; // never mapped, never written
  }
  std::printf("%s: %d wrong\n", Wrong ? "FAIL" : "PASS", Wrong);
  return Wrong != 0;
}
