//===- MapUnmapLoop.cpp - map and unmap one buffer in a loop --------------===//
//
// Usage: MapUnmapLoop [iterations]
// Maps one buffer with `target enter data map(to:)` and unmaps it with
// `target exit data map(from:)`, again and again, for buffers of 4 KiB,
// 64 KiB and 1 MiB: each pair allocates and frees the buffer's device
// storage, which is what a device memory pool saves (upstream's memory
// manager and ours keep freed blocks of up to 8 KiB by default).
//
//===----------------------------------------------------------------------===//

#include "BenchCommon.h"

#include <omp.h>
#include <vector>

namespace {

/// Microseconds per map/unmap pair of a buffer of \p Bytes.
double timePairs(long Iterations, long Bytes) {
  long Ints = Bytes / long(sizeof(int));
  std::vector<int> Buffer(Ints);
  for (long I = 0; I < Ints; ++I)
    Buffer[I] = int(I);
  int *Data = Buffer.data();
  auto Pair = [&] {
#pragma omp target enter data map(to : Data[0 : Ints])
#pragma omp target exit data map(from : Data[0 : Ints])
  };
  // Untimed: device initialisation and the first allocation of this size.
  Pair();
  auto Start = bench::Clock::now();
  for (long I = 0; I < Iterations; ++I)
    Pair();
  double Seconds = bench::secondsSince(Start);
  if (Data[Ints - 1] != int(Ints - 1))
    bench::fail("the buffer changed on its round trips");
  if (omp_target_is_present(Data, omp_get_default_device()))
    bench::fail("the buffer is still mapped after target exit data");
  return Seconds * 1e6 / double(Iterations);
}

} // namespace

int main(int Argc, char **Argv) {
  long Iterations = bench::argOr(Argc, Argv, 1, 10000);
  double Small = timePairs(Iterations, 4 << 10);
  double Medium = timePairs(Iterations, 64 << 10);
  // Larger copies: fewer rounds for the same order of run time.
  double Large = timePairs(Iterations / 8 ? Iterations / 8 : 1, 1 << 20);
  bench::printLoadedRuntime();
  bench::printResult("map_unmap_4k_us", Small);
  bench::printResult("map_unmap_64k_us", Medium);
  bench::printResult("map_unmap_1m_us", Large);
  return 0;
}
