// Chains of copy-kernel-copy (`target update to`, a kernel, `target update
// from`, each `nowait` with `depend` on its buffer). The same chains run one
// after another (serial) and all at once: overlap = all-at-once time as a
// share of the serial time (100 % is no overlap at all; lower is better).
#include "bench.h"

namespace {

void chain(double *P, int64_t N, bool Wait) {
#pragma omp target update to(P[0 : N]) nowait depend(inout : P[0])
#pragma omp target teams distribute parallel for nowait depend(inout : P[0])
  for (int64_t I = 0; I < N; ++I)
    P[I] = P[I] * 2.0 + 1.0;
#pragma omp target update from(P[0 : N]) nowait depend(inout : P[0])
  if (Wait) {
#pragma omp taskwait
  }
}

} // namespace

int main() {
  const int Chains = 8;
  const int64_t N = bench::size(int64_t(1) << 22, int64_t(1) << 14);
  std::vector<std::vector<double>> Buf(Chains, std::vector<double>(N, 1.0));
  std::vector<double *> P(Chains);
  for (int C = 0; C < Chains; ++C) {
    P[C] = Buf[C].data();
    double *Q = P[C];
#pragma omp target enter data map(alloc : Q[0 : N])
  }
  int Reps = bench::small() ? 2 : 7;
  double Serial = bench::timeMedian(Reps, [&] {
    for (int C = 0; C < Chains; ++C)
      chain(P[C], N, true);
  });
  double Overlapped = bench::timeMedian(Reps, [&] {
#pragma omp parallel num_threads(1)
#pragma omp single
    {
      for (int C = 0; C < Chains; ++C)
        chain(P[C], N, false);
#pragma omp taskwait
    }
  });
  for (int C = 0; C < Chains; ++C) {
    double *Q = P[C];
#pragma omp target exit data map(release : Q[0 : N])
  }
  // Every buffer went through 2 * (Reps + 1) chains: x -> 2x + 1 each.
  double Expect = 1.0;
  for (int R = 0; R < 2 * (Reps + 1); ++R)
    Expect = Expect * 2.0 + 1.0;
  for (int C = 0; C < Chains; ++C)
    bench::expect(Buf[C][N - 1] == Expect, "a chain computed a wrong value");
  bench::row("nowait_chains_serial", Serial * 1e3, "ms");
  bench::row("nowait_chains_overlapped", Overlapped * 1e3, "ms");
  bench::row("nowait_overlap_share", 100.0 * Overlapped / Serial, "%");
  return bench::finish();
}
