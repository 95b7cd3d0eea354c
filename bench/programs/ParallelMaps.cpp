//===- ParallelMaps.cpp - map(tofrom) from several host threads at once ---===//
//
// Usage: ParallelMaps [mebibytes-per-thread]
// Each of T host threads (T = 1, 2, 8) maps its own array tofrom in one
// target region, all starting together. The arrays are unrelated, so a
// runtime that copies them in parallel moves T times the data in about the
// time one thread takes (up to the cores and memory bandwidth the machine
// has); one that holds a lock across the copies moves them one after the
// other and gets no more aggregate bandwidth than a single thread.
// Every round uses fresh device allocations, so page faults count, and the
// best of three rounds per thread count is reported.
//
//===----------------------------------------------------------------------===//

#include "BenchCommon.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <malloc.h>
#include <mutex>
#include <thread>
#include <vector>

namespace {

/// Holds the workers until every one is ready, then lets them go at once,
/// so that all maps overlap. The clock starts when they are let go.
class StartLine {
public:
  explicit StartLine(int Workers) : Workers(Workers) {}
  void arriveAndWait() {
    std::unique_lock<std::mutex> Lock(Mutex);
    ++Arrived;
    Changed.notify_all();
    Changed.wait(Lock, [this] { return Go; });
  }
  /// Waits for every worker to arrive, then starts them; returns the time.
  bench::Clock::time_point release() {
    std::unique_lock<std::mutex> Lock(Mutex);
    Changed.wait(Lock, [this] { return Arrived == Workers; });
    Go = true;
    Changed.notify_all();
    return bench::Clock::now();
  }

private:
  std::mutex Mutex;
  std::condition_variable Changed;
  int Workers;
  int Arrived = 0;
  bool Go = false;
};

void mapOnce(unsigned char *Data, size_t Bytes) {
#pragma omp target map(tofrom : Data [0:Bytes])
  { Data[Bytes - 1] += 1; }
}

/// Seconds from the common start until the last of \p Threads maps is done.
double timeRound(std::vector<unsigned char *> &Arrays, int Threads,
                 size_t Bytes) {
  StartLine Start(Threads);
  std::vector<std::thread> Workers;
  for (int T = 0; T < Threads; ++T)
    Workers.emplace_back([&, T] {
      Start.arriveAndWait();
      mapOnce(Arrays[T], Bytes);
    });
  auto Began = Start.release();
  for (std::thread &Worker : Workers)
    Worker.join();
  return bench::secondsSince(Began);
}

} // namespace

int main(int Argc, char **Argv) {
  size_t Bytes = static_cast<size_t>(bench::argOr(Argc, Argv, 1, 256)) << 20;
  // Fresh pages for every large allocation (see MapBandwidth.cpp).
  mallopt(M_MMAP_THRESHOLD, 128 * 1024);
  const int ThreadCounts[] = {1, 2, 8};
  const int MaxThreads = 8;
  std::vector<unsigned char *> Arrays;
  for (int T = 0; T < MaxThreads; ++T) {
    auto *Data = static_cast<unsigned char *>(std::malloc(Bytes));
    if (!Data)
      bench::fail("malloc of a host array failed");
    for (size_t I = 0; I < Bytes; ++I)
      Data[I] = static_cast<unsigned char>(I * 7 + T);
    Arrays.push_back(Data);
  }

  // Device initialisation is not part of the copies.
  int Warm = 0;
#pragma omp target map(tofrom : Warm)
  Warm += 1;

  std::vector<int> Maps(MaxThreads, 0);
  double Aggregate[3] = {};
  for (int Index = 0; Index < 3; ++Index) {
    int Threads = ThreadCounts[Index];
    double Best = 0;
    for (int Round = 0; Round < 3; ++Round) {
      double Seconds = timeRound(Arrays, Threads, Bytes);
      for (int T = 0; T < Threads; ++T)
        ++Maps[T];
      Best = Round == 0 ? Seconds : std::min(Best, Seconds);
    }
    // Each map copies the array in and back out.
    Aggregate[Index] = 2.0 * Threads * static_cast<double>(Bytes) / 1e9 / Best;
  }

  for (int T = 0; T < MaxThreads; ++T) {
    const unsigned char *Data = Arrays[T];
    if (Data[Bytes - 1] !=
            static_cast<unsigned char>((Bytes - 1) * 7 + T + Maps[T]) ||
        Data[Bytes / 2] != static_cast<unsigned char>((Bytes / 2) * 7 + T))
      bench::fail("a mapped array did not come back as written");
    std::free(Arrays[T]);
  }
  if (Warm != 1)
    bench::fail("the warm-up region did not run");

  bench::printLoadedRuntime();
  bench::printResult("parallel_map_1t_gbps", Aggregate[0]);
  bench::printResult("parallel_map_2t_ratio", Aggregate[1] / Aggregate[0]);
  bench::printResult("parallel_map_8t_ratio", Aggregate[2] / Aggregate[0]);
  return 0;
}
