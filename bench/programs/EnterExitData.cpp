//===- EnterExitData.cpp - target enter/exit data of many small buffers ---===//
//
// Usage: EnterExitData [buffers] [bytes-per-buffer]
// Maps many small, separately allocated buffers with `target enter data`
// and unmaps them with `target exit data`: the cost of creating and removing
// mapping-table entries plus a small copy each way.
//
//===----------------------------------------------------------------------===//

#include "BenchCommon.h"

#include <omp.h>
#include <vector>

namespace {

void enterAll(std::vector<int *> &Buffers, long Ints) {
  for (int *Buffer : Buffers) {
#pragma omp target enter data map(to : Buffer [0:Ints])
  }
}

void exitAll(std::vector<int *> &Buffers, long Ints) {
  for (int *Buffer : Buffers) {
#pragma omp target exit data map(from : Buffer [0:Ints])
  }
}

} // namespace

int main(int Argc, char **Argv) {
  long Count = bench::argOr(Argc, Argv, 1, 10000);
  long Bytes = bench::argOr(Argc, Argv, 2, 64);
  long Ints = (Bytes + sizeof(int) - 1) / sizeof(int);

  std::vector<int *> Buffers(Count);
  for (long I = 0; I < Count; ++I) {
    Buffers[I] = new int[Ints];
    for (long J = 0; J < Ints; ++J)
      Buffers[I][J] = static_cast<int>(I + J);
  }

  // One untimed round: device initialisation and first allocations.
  enterAll(Buffers, Ints);
  exitAll(Buffers, Ints);

  auto Start = bench::Clock::now();
  enterAll(Buffers, Ints);
  exitAll(Buffers, Ints);
  double Seconds = bench::secondsSince(Start);

  // The data made the round trip unchanged and nothing is left mapped.
  int Device = omp_get_default_device();
  for (long I = 0; I < Count; ++I) {
    if (Buffers[I][Ints - 1] != static_cast<int>(I + Ints - 1))
      bench::fail("a buffer changed on its round trip");
    if (omp_target_is_present(Buffers[I], Device))
      bench::fail("a buffer is still mapped after target exit data");
  }

  bench::printLoadedRuntime();
  bench::printResult("enter_exit_ms", Seconds * 1e3);
  for (int *Buffer : Buffers)
    delete[] Buffer;
  return 0;
}
