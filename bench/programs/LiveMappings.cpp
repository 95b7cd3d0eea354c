//===- LiveMappings.cpp - A target region's maps among many live ones -----===//
//
// Usage: LiveMappings [live-mappings] [iterations]
// Keeps many small buffers mapped (`target enter data`), then times a target
// region that maps 100 of them again: each map is a lookup in a large
// mapping table plus reference counting, and no copy (the data is present).
// The region itself is generated (ManyMaps.cpp, see bench/runner/generate.py)
// because OpenMP needs one named pointer per map clause item.
//
//===----------------------------------------------------------------------===//

#include "BenchCommon.h"

#include <omp.h>
#include <vector>

/// Defined by the generated ManyMaps.cpp: one target region mapping
/// P[0][0:1] ... P[ManyMapsCount-1][0:1] tofrom, adding one to each.
void mapMany(int **P);
extern const int ManyMapsCount;

namespace {
constexpr long IntsPerBuffer = 16;
} // namespace

int main(int Argc, char **Argv) {
  long Live = bench::argOr(Argc, Argv, 1, 100000);
  long Iterations = bench::argOr(Argc, Argv, 2, 2000);
  if (Live < ManyMapsCount)
    bench::fail("fewer live mappings than maps in the region");

  std::vector<int *> Buffers(Live);
  for (long I = 0; I < Live; ++I) {
    Buffers[I] = new int[IntsPerBuffer]();
    Buffers[I][0] = static_cast<int>(I);
  }
  for (int *Buffer : Buffers) {
#pragma omp target enter data map(to : Buffer [0:IntsPerBuffer])
  }

  // The region's buffers are spread over the whole table.
  std::vector<int *> Mapped(ManyMapsCount);
  long Stride = Live / ManyMapsCount;
  for (int K = 0; K < ManyMapsCount; ++K)
    Mapped[K] = Buffers[K * Stride];

  const int Warmup = 20;
  for (int I = 0; I < Warmup; ++I)
    mapMany(Mapped.data());
  auto Start = bench::Clock::now();
  for (long I = 0; I < Iterations; ++I)
    mapMany(Mapped.data());
  double Seconds = bench::secondsSince(Start);

  // The device copies were updated in place and come back on exit.
  for (int *Buffer : Buffers) {
#pragma omp target exit data map(from : Buffer [0:IntsPerBuffer])
  }
  for (int K = 0; K < ManyMapsCount; ++K)
    if (Mapped[K][0] != static_cast<int>(K * Stride + Warmup + Iterations))
      bench::fail("a mapped buffer did not see every region's update");

  bench::printLoadedRuntime();
  bench::printResult("many_maps_us", Seconds / Iterations * 1e6);
  for (int *Buffer : Buffers)
    delete[] Buffer;
  return 0;
}
