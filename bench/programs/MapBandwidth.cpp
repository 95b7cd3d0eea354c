//===- MapBandwidth.cpp - map(tofrom) of a large array against memcpy -----===//
//
// Usage: MapBandwidth [mebibytes]
// On the CPU device, mapping an array tofrom is an allocation, a copy in and
// a copy out; the same work done with malloc + two memcpy calls is the
// physical limit the runtime can approach. Both are measured in the same
// process on fresh allocations, so page faults count on both sides, twice
// each in the order memcpy, map, map, memcpy; the best of each is reported.
//
//===----------------------------------------------------------------------===//

#include "BenchCommon.h"

#include <algorithm>
#include <cstdint>
#include <malloc.h>
#include <omp.h>

namespace {

/// Writes every page so the host array is resident before timing.
void fill(unsigned char *Data, size_t Bytes) {
  for (size_t I = 0; I < Bytes; ++I)
    Data[I] = static_cast<unsigned char>(I * 7);
}

double timeMap(unsigned char *Data, size_t Bytes) {
  auto Start = bench::Clock::now();
#pragma omp target map(tofrom : Data [0:Bytes])
  { Data[Bytes - 1] += 1; }
  return bench::secondsSince(Start);
}

double timeMemcpy(unsigned char *Data, size_t Bytes) {
  auto Start = bench::Clock::now();
  auto *Copy = static_cast<unsigned char *>(std::malloc(Bytes));
  if (!Copy)
    bench::fail("malloc of the reference copy failed");
  std::memcpy(Copy, Data, Bytes);
  Copy[Bytes - 1] += 1;
  std::memcpy(Data, Copy, Bytes);
  std::free(Copy);
  return bench::secondsSince(Start);
}

} // namespace

int main(int Argc, char **Argv) {
  size_t Bytes = static_cast<size_t>(bench::argOr(Argc, Argv, 1, 1024)) << 20;
  // glibc raises its mmap threshold after a large block is freed, which would
  // hand whichever copy runs second memory that is already faulted in. A
  // fixed threshold gives every large allocation fresh pages.
  mallopt(M_MMAP_THRESHOLD, 128 * 1024);
  auto *Data = static_cast<unsigned char *>(std::malloc(Bytes));
  if (!Data)
    bench::fail("malloc of the host array failed");
  fill(Data, Bytes);
  unsigned char Last = Data[Bytes - 1];

  // Device initialisation is not part of the copy.
  int Warm = 0;
#pragma omp target map(tofrom : Warm)
  Warm += 1;

  double MemcpySeconds = timeMemcpy(Data, Bytes);
  double MapSeconds = timeMap(Data, Bytes);
  MapSeconds = std::min(MapSeconds, timeMap(Data, Bytes));
  MemcpySeconds = std::min(MemcpySeconds, timeMemcpy(Data, Bytes));
  if (Data[Bytes - 1] != static_cast<unsigned char>(Last + 4) ||
      Data[Bytes / 2] != static_cast<unsigned char>((Bytes / 2) * 7) ||
      Warm != 1)
    bench::fail("the mapped array did not come back as written");

  double Moved = 2.0 * static_cast<double>(Bytes) / 1e9;
  bench::printLoadedRuntime();
  bench::printResult("map_tofrom_gbps", Moved / MapSeconds);
  bench::printResult("memcpy_gbps", Moved / MemcpySeconds);
  bench::printResult("map_vs_memcpy_percent",
                     100.0 * MemcpySeconds / MapSeconds);
  std::free(Data);
  return 0;
}
