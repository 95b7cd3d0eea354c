// A generic-mode region (a serial part per team, then a nested
// `parallel for`) against its SPMD twin (`teams distribute parallel for`)
// doing the same work: what the state machine of generic mode costs.
#include "bench.h"

int main() {
  const int Teams = int(bench::size(1024, 16)), Chunk = 4096;
  const int64_t N = int64_t(Teams) * Chunk;
  const int Dev = omp_get_default_device();
  double *A = static_cast<double *>(omp_target_alloc(N * sizeof(double), Dev));
  bench::expect(A != nullptr, "omp_target_alloc failed");
  if (!A)
    return bench::finish();
  const int Reps = bench::small() ? 3 : 20;
  double Generic = bench::timeMedian(Reps, [&] {
#pragma omp target teams num_teams(Teams) is_device_ptr(A)
    {
      // The serial part: one thread per team computes the team's base.
      int64_t Base = int64_t(omp_get_team_num()) * Chunk;
      double Scale = 1.0 + double(omp_get_team_num() % 3);
#pragma omp parallel for
      for (int I = 0; I < Chunk; ++I)
        A[Base + I] = Scale * double(I);
    }
  });
  double Spmd = bench::timeMedian(Reps, [&] {
#pragma omp target teams distribute parallel for is_device_ptr(A)
    for (int64_t J = 0; J < N; ++J)
      A[J] = (1.0 + double((J / Chunk) % 3)) * double(J % Chunk);
  });
  double Check = 0;
#pragma omp target is_device_ptr(A) map(from : Check)
  Check = A[N - 1];
  bench::expect(Check == (1.0 + double((Teams - 1) % 3)) * (Chunk - 1),
                "generic/SPMD result is wrong");
  omp_target_free(A, Dev);
  bench::row("generic_region", Generic * 1e6, "us");
  bench::row("spmd_region", Spmd * 1e6, "us");
  return bench::finish();
}
