//===- LookupBench.cpp - Cost of one indirect-call lookup -----------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Measures __llvm_omp_indirect_call_lookup of the CPU device runtime
// (libompdevice.a) per call, for tables of 10 to 100,000 entries, against a
// plain binary search of the same table (the seed's reference algorithm),
// for three kinds of lookups:
//   hit      a registered host address (what a translated call does),
//   miss-in  an address inside the table's range that is not registered,
//   miss-out an address outside it (device pointers, non-indirect functions).
// Keys are host-like addresses: "uniform" spreads them over 64 MiB of text,
// "clustered" puts 90% in one program and 10% in a library far away.
//
// Usage: LookupBench [lookups-per-measurement]   (see run.sh)
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

struct IndirectCallEntry {
  void *HostPtr;
  void *DevicePtr;
};

// The layout of __omp_rtl_device_environment (openmp/device/include/
// DeviceABI.h, same as upstream's).
struct DeviceEnvironment {
  uint32_t DeviceDebugKind, NumDevices, DeviceNum, DynamicMemSize;
  uint64_t ClockFrequency;
  uintptr_t IndirectCallTable;
  uint64_t IndirectCallTableSize;
  uint64_t HardwareParallelism;
};

extern "C" {
extern DeviceEnvironment __omp_rtl_device_environment;
void *__llvm_omp_indirect_call_lookup(void *HostPtr);
}

namespace {

/// The reference: binary search over the sorted pairs.
__attribute__((noinline)) void *binarySearchLookup(void *HostPtr) {
  const auto *Table = reinterpret_cast<const IndirectCallEntry *>(
      __omp_rtl_device_environment.IndirectCallTable);
  uint64_t Low = 0, High = __omp_rtl_device_environment.IndirectCallTableSize;
  uintptr_t Key = reinterpret_cast<uintptr_t>(HostPtr);
  while (Low < High) {
    uint64_t Mid = Low + (High - Low) / 2;
    uintptr_t MidKey = reinterpret_cast<uintptr_t>(Table[Mid].HostPtr);
    if (MidKey == Key)
      return Table[Mid].DevicePtr;
    if (MidKey < Key)
      Low = Mid + 1;
    else
      High = Mid;
  }
  return HostPtr;
}

std::vector<uintptr_t> makeKeys(size_t Size, bool Clustered,
                                std::mt19937_64 &Random) {
  std::vector<uintptr_t> Keys;
  while (Keys.size() < Size) {
    while (Keys.size() < Size) {
      bool InLibrary = Clustered && Random() % 10 == 0;
      uintptr_t Base = InLibrary ? 0x7f3a00000000 : 0x400000;
      uintptr_t Span = Clustered ? (InLibrary ? 1 << 22 : 1 << 26) : 1 << 26;
      // Functions start at 16-byte boundaries.
      Keys.push_back((Base + Random() % Span) & ~uintptr_t(15));
    }
    std::sort(Keys.begin(), Keys.end());
    Keys.erase(std::unique(Keys.begin(), Keys.end()), Keys.end());
  }
  return Keys;
}

using LookupFn = void *(*)(void *);

/// Nanoseconds per call of \p Lookup over \p Queries, best of 5 runs.
double measure(LookupFn Lookup, const std::vector<void *> &Queries,
               size_t Calls) {
  double Best = 1e30;
  uintptr_t Sink = 0;
  for (int Run = 0; Run < 5; ++Run) {
    auto Start = std::chrono::steady_clock::now();
    for (size_t I = 0; I < Calls; ++I)
      Sink += reinterpret_cast<uintptr_t>(Lookup(Queries[I % Queries.size()]));
    auto End = std::chrono::steady_clock::now();
    double Ns = std::chrono::duration<double, std::nano>(End - Start).count();
    Best = std::min(Best, Ns / Calls);
  }
  if (Sink == 42) // Keeps the calls alive.
    std::puts("");
  return Best;
}

} // namespace

int main(int Argc, char **Argv) {
  size_t Calls = Argc > 1 ? std::strtoull(Argv[1], nullptr, 10) : 2000000;
  std::mt19937_64 Random(2024);
  std::printf(
      "# ns per lookup (best of 5 x %zu calls); ratio = binary / ours\n",
      Calls);
  std::printf("%-10s %8s %-9s %10s %10s %7s\n", "keys", "entries", "lookup",
              "binary", "ours", "ratio");
  for (bool Clustered : {false, true}) {
    for (size_t Size : {10, 100, 1000, 10000, 100000}) {
      std::vector<uintptr_t> Keys = makeKeys(Size, Clustered, Random);
      std::vector<IndirectCallEntry> Table;
      for (uintptr_t Key : Keys)
        Table.push_back({reinterpret_cast<void *>(Key),
                         reinterpret_cast<void *>(Key + 0x10000000000)});
      __omp_rtl_device_environment.IndirectCallTable =
          reinterpret_cast<uintptr_t>(Table.data());
      __omp_rtl_device_environment.IndirectCallTableSize = Table.size();

      std::vector<void *> Hits, MissesIn, MissesOut;
      for (int I = 0; I < 4096; ++I) {
        uintptr_t Key = Keys[Random() % Keys.size()];
        Hits.push_back(reinterpret_cast<void *>(Key));
        MissesIn.push_back(reinterpret_cast<void *>(Key + 8));
        MissesOut.push_back(reinterpret_cast<void *>(0x1000 + 16 * I));
      }
      // Check before measuring: both searches agree on every query.
      for (const auto *Set : {&Hits, &MissesIn, &MissesOut})
        for (void *Q : *Set)
          if (binarySearchLookup(Q) != __llvm_omp_indirect_call_lookup(Q)) {
            std::fprintf(stderr, "lookups disagree on %p\n", Q);
            return 1;
          }
      const char *Kind = Clustered ? "clustered" : "uniform";
      for (auto [Name, Set] : {std::pair{"hit", &Hits},
                               {"miss-in", &MissesIn},
                               {"miss-out", &MissesOut}}) {
        double Binary = measure(binarySearchLookup, *Set, Calls);
        double Ours = measure(__llvm_omp_indirect_call_lookup, *Set, Calls);
        std::printf("%-10s %8zu %-9s %10.2f %10.2f %7.2f\n", Kind, Size, Name,
                    Binary, Ours, Binary / Ours);
      }
    }
  }
  __omp_rtl_device_environment.IndirectCallTable = 0;
  __omp_rtl_device_environment.IndirectCallTableSize = 0;
  return 0;
}
