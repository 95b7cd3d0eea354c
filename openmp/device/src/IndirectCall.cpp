//===- IndirectCall.cpp - Host-to-device function pointer lookup ----------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Device code compiled with our indirect-call pass calls
// __llvm_omp_indirect_call_lookup before every call through a pointer that
// may hold a host function address (see docs/IndirectCalls.md). The table
// (host address -> device address, sorted by host address) comes from the
// device environment, where libomptarget and the plugin put it; without one,
// or for an address not in it, the pointer is returned unchanged, so device
// function pointers and functions that are not `indirect` keep working.
//
// The table layout is fixed by upstream's runtime (a sorted array of
// pairs), since images built here may run on it. What we choose is the
// search. Host function addresses are spread evenly over the text of one
// program or library, but a table mixing a program and a library has a huge
// gap in the middle, where interpolation search is much worse than binary
// search. So the search bisects, and each bisection also tells how evenly
// the keys of the current range are spread (is the middle key near the
// middle of the key range?); where they are, a few interpolation probes
// follow, which land next to the key. A table with clusters costs about what
// binary search costs; an even one much less (bench/indirect). Addresses
// outside the table's range (device pointers, most functions that are not
// `indirect`) are answered by two comparisons.
//
//===----------------------------------------------------------------------===//

#include "DeviceEnvironment.h"
#include "Interface.h"

using namespace ompx;

namespace {

/// Ranges shorter than this are finished by plain binary search. GPUs
/// search by bisection only: an interpolation probe divides in double
/// precision, a subroutine whose registers every kernel that calls through
/// a pointer would pay for (84 registers for a one-line kernel on sm_90,
/// upstream's binary search 29), on every launch, for a few probes saved.
#if defined(__NVPTX__) || defined(__AMDGPU__)
constexpr uint64_t MinSearchRange = ~uint64_t(0);
#else
constexpr uint64_t MinSearchRange = 16;
#endif
/// Interpolation probes allowed after a bisection found the range even.
constexpr unsigned InterpolationProbes = 3;
/// A range is even when its middle key is within 1/EvenTolerance of the key
/// range from where a uniform spread would put it.
constexpr uintptr_t EvenTolerance = 16;

uintptr_t hostKey(const IndirectCallEntryTy &Entry) {
  return reinterpret_cast<uintptr_t>(Entry.HostPtr);
}

/// Where \p Key would be in [Low, High] if the keys were evenly spread
/// between Table[Low] and Table[High] (Table[Low] <= Key <= Table[High]).
uint64_t interpolate(const IndirectCallEntryTy *Table, uint64_t Low,
                     uint64_t High, uintptr_t Key) {
  uintptr_t LowKey = hostKey(Table[Low]), HighKey = hostKey(Table[High]);
  // Floating point: (Key - LowKey) * (High - Low) may not fit 64 bits, and
  // the estimate only needs to be close.
  double Fraction =
      static_cast<double>(Key - LowKey) / static_cast<double>(HighKey - LowKey);
  uint64_t Index = Low + static_cast<uint64_t>(Fraction * (High - Low));
  return Index > High ? High : Index;
}

/// Index of \p Key in the sorted \p Table of \p Size entries, or -1.
int64_t findHostAddress(const IndirectCallEntryTy *Table, uint64_t Size,
                        uintptr_t Key) {
  uint64_t Low = 0, High = Size - 1; // Inclusive bounds.
  if (Key < hostKey(Table[Low]) || Key > hostKey(Table[High]))
    return -1;
  unsigned Interpolations = 0;
  while (High - Low >= MinSearchRange) {
    // Invariant: Table[Low] <= Key <= Table[High], and the keys are
    // distinct, so Table[Low] < Table[High].
    uintptr_t LowKey = hostKey(Table[Low]), HighKey = hostKey(Table[High]);
    bool Bisect = Interpolations == 0;
    uint64_t Mid =
        Bisect ? Low + (High - Low) / 2 : interpolate(Table, Low, High, Key);
    if (!Bisect)
      --Interpolations;
    uintptr_t MidKey = hostKey(Table[Mid]);
    if (MidKey == Key)
      return static_cast<int64_t>(Mid);
    if (Bisect) {
      uintptr_t Even = LowKey + (HighKey - LowKey) / 2;
      uintptr_t Off = MidKey > Even ? MidKey - Even : Even - MidKey;
      if (Off <= (HighKey - LowKey) / EvenTolerance)
        Interpolations = InterpolationProbes;
    }
    // Mid is strictly inside (Low, High) on the side of Key, because
    // Table[Low] <= Key <= Table[High] and Table[Mid] != Key.
    if (MidKey < Key)
      Low = Mid + 1;
    else
      High = Mid - 1;
    if (Key < hostKey(Table[Low]) || Key > hostKey(Table[High]))
      return -1;
  }
  uint64_t End = High + 1; // Half-open from here.
  while (Low < End) {
    uint64_t Mid = Low + (End - Low) / 2;
    uintptr_t MidKey = hostKey(Table[Mid]);
    if (MidKey == Key)
      return static_cast<int64_t>(Mid);
    if (MidKey < Key)
      Low = Mid + 1;
    else
      End = Mid;
  }
  return -1;
}

} // namespace

extern "C" void *__llvm_omp_indirect_call_lookup(void *HostPtr) {
  const DeviceEnvironmentTy &Env = deviceEnvironment();
  const auto *Table =
      reinterpret_cast<const IndirectCallEntryTy *>(Env.IndirectCallTable);
  uint64_t Size = Env.IndirectCallTableSize;
  if (!Table || Size == 0)
    return HostPtr;
  int64_t Index =
      findHostAddress(Table, Size, reinterpret_cast<uintptr_t>(HostPtr));
  return Index < 0 ? HostPtr : Table[Index].DevicePtr;
}

/// The name seed documents give the same translation.
extern "C" void *__kmpc_target_translate_fptr(void *HostPtr) {
  return __llvm_omp_indirect_call_lookup(HostPtr);
}
