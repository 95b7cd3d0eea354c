// Host-to-device and device-to-host bandwidth of one 256 MiB buffer through
// `target update`, from pageable memory (std::vector) and from pinned memory
// (llvm_omp_target_alloc_host, LLVM's page-locked host allocation; GCC's
// libgomp has none, so its pinned rows say so).
#include "bench.h"

#include <cstring>

extern "C" void *llvm_omp_target_alloc_host(size_t, int) __attribute__((weak));
extern "C" void llvm_omp_target_free_host(void *, int) __attribute__((weak));

namespace {

void measure(char *P, size_t Bytes, const char *To, const char *From) {
  for (size_t I = 0; I < Bytes; I += 4096)
    P[I] = char(I >> 12);
#pragma omp target enter data map(alloc : P[0 : Bytes])
  int Reps = bench::small() ? 3 : 9;
  double TTo = bench::timeMedian(Reps, [&] {
#pragma omp target update to(P[0 : Bytes])
  });
  std::memset(P, 0, Bytes);
  double TFrom = bench::timeMedian(Reps, [&] {
#pragma omp target update from(P[0 : Bytes])
  });
#pragma omp target exit data map(release : P[0 : Bytes])
  bench::expect(P[Bytes - 4096] == char((Bytes - 4096) >> 12),
                "the buffer came back wrong");
  bench::row(To, double(Bytes) / TTo * 1e-9, "GB/s");
  bench::row(From, double(Bytes) / TFrom * 1e-9, "GB/s");
}

} // namespace

int main() {
  const size_t Bytes = size_t(bench::size(256, 16)) << 20;
  std::vector<char> Pageable(Bytes);
  measure(Pageable.data(), Bytes, "h2d_pageable_256MiB", "d2h_pageable_256MiB");
  char *Pinned = nullptr;
  if (llvm_omp_target_alloc_host)
    Pinned = static_cast<char *>(
        llvm_omp_target_alloc_host(Bytes, omp_get_default_device()));
  if (!Pinned) {
    const char *Why = llvm_omp_target_alloc_host
                          ? "llvm_omp_target_alloc_host-returned-null"
                          : "no-llvm_omp_target_alloc_host-in-this-runtime";
    bench::missing("h2d_pinned_256MiB", "GB/s", Why);
    bench::missing("d2h_pinned_256MiB", "GB/s", Why);
    return bench::finish();
  }
  measure(Pinned, Bytes, "h2d_pinned_256MiB", "d2h_pinned_256MiB");
  llvm_omp_target_free_host(Pinned, omp_get_default_device());
  return bench::finish();
}
