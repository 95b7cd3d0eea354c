//===- MemoryShadow.cpp - Shadow of the emulated device memory ------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "MemoryShadow.h"
#include "Checkers.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <sys/mman.h>
#include <utility>

namespace gpuemu {
namespace {

MemoryShadow *Instance = nullptr;

/// Live allocations at the size they were asked for, and the last freed
/// ones, for the words of a report.
struct AllocationLog {
  std::mutex Lock;
  std::map<uintptr_t, size_t> Live;
  std::deque<std::pair<uintptr_t, size_t>> Freed;
};
AllocationLog &log() {
  static AllocationLog *L = new AllocationLog(); // never destroyed
  return *L;
}
/// Freed ranges remembered for "use after free".
constexpr size_t FreedRemembered = 1024;

void *reserve(size_t Bytes) {
  void *P = mmap(nullptr, Bytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  return P == MAP_FAILED ? nullptr : P;
}

/// Sets [P, P+Bytes) of a shadow to 0, giving large ranges' pages back.
void clear(void *P, size_t Bytes) {
  constexpr size_t Page = 4096;
  uintptr_t Start = (uintptr_t(P) + Page - 1) & ~(Page - 1);
  uintptr_t End = (uintptr_t(P) + Bytes) & ~(Page - 1);
  if (End > Start + 16 * Page) {
    std::memset(P, 0, Start - uintptr_t(P));
    madvise(reinterpret_cast<void *>(Start), End - Start, MADV_DONTNEED);
    std::memset(reinterpret_cast<void *>(End), 0, uintptr_t(P) + Bytes - End);
    return;
  }
  std::memset(P, 0, Bytes);
}

std::string hex(uintptr_t P) {
  char Text[32];
  snprintf(Text, sizeof(Text), "0x%" PRIxPTR, P);
  return Text;
}

} // namespace

MemoryShadow::MemoryShadow(const void *Base, size_t Capacity, uint8_t *States,
                           RaceEntry *Races)
    : Base(static_cast<const char *>(Base)), Capacity(Capacity), States(States),
      Races(Races) {}

MemoryShadow *MemoryShadow::get() { return Instance; }

void MemoryShadow::create(const void *Base, size_t Capacity) {
  if (!enabledChecks() || !Base || Instance)
    return;
  auto *States = static_cast<uint8_t *>(reserve(Capacity));
  auto *Races =
      static_cast<RaceEntry *>(reserve(Capacity / 4 * sizeof(RaceEntry)));
  if (!States || !Races) {
    fprintf(stderr,
            "gpu-emulator: cannot reserve the shadow of %zu bytes of "
            "device memory; GPUEMU_CHECK ignores device memory\n",
            Capacity);
    return;
  }
  Instance = new MemoryShadow(Base, Capacity, States, Races);
}

void MemoryShadow::allocated(const void *P, size_t Bytes) {
  // A fresh allocation has no history: a race entry or state left by an
  // earlier one at the same address (freed) must not be taken for its own.
  clear(state(P), Bytes);
  clear(race(P), (Bytes + 3) / 4 * sizeof(RaceEntry));
  std::memset(state(P), Unwritten, Bytes);
  AllocationLog &L = log();
  std::lock_guard<std::mutex> Guard(L.Lock);
  L.Live[uintptr_t(P)] = Bytes;
}

void MemoryShadow::freed(const void *P, size_t Bytes) {
  AllocationLog &L = log();
  {
    std::lock_guard<std::mutex> Guard(L.Lock);
    auto It = L.Live.find(uintptr_t(P));
    if (It != L.Live.end()) {
      Bytes = It->second;
      L.Live.erase(It);
    }
    L.Freed.emplace_back(uintptr_t(P), Bytes);
    if (L.Freed.size() > FreedRemembered)
      L.Freed.pop_front();
  }
  clear(state(P), Bytes);
}

void MemoryShadow::written(const void *P, size_t Bytes) {
  if (!covers(P))
    return;
  uint8_t *S = state(P);
  for (size_t I = 0; I < Bytes; ++I)
    if (S[I] == Unwritten)
      S[I] = Written;
}

void MemoryShadow::copied(const void *Dst, const void *Src, size_t Bytes) {
  if (!covers(Dst))
    return;
  if (!covers(Src))
    return written(Dst, Bytes);
  uint8_t *D = state(Dst);
  const uint8_t *S = state(Src);
  for (size_t I = 0; I < Bytes; ++I)
    if (D[I] != Unallocated)
      D[I] = S[I] == Written ? Written : Unwritten;
}

std::string MemoryShadow::describe(const void *Ptr) const {
  uintptr_t P = uintptr_t(Ptr);
  AllocationLog &L = const_cast<AllocationLog &>(log());
  std::lock_guard<std::mutex> Guard(L.Lock);
  auto It = L.Live.upper_bound(P);
  if (It != L.Live.begin()) {
    --It;
    if (P < It->first + It->second)
      return "at offset " + std::to_string(P - It->first) + " of the " +
             std::to_string(It->second) + "-byte allocation at " +
             hex(It->first);
  }
  // The most recent free first: an address reused is named by its last use.
  for (auto F = L.Freed.rbegin(); F != L.Freed.rend(); ++F)
    if (P >= F->first && P < F->first + F->second)
      return "at offset " + std::to_string(P - F->first) + " of the " +
             std::to_string(F->second) + "-byte allocation at " +
             hex(F->first) + ", which was freed (use after free)";
  if (It != L.Live.end() && P >= It->first + It->second)
    return std::to_string(P - (It->first + It->second)) +
           " bytes past the end of the " + std::to_string(It->second) +
           "-byte allocation at " + hex(It->first);
  return "outside any allocation";
}

} // namespace gpuemu
