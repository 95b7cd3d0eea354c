//===- MemoryShadow.h - Shadow of the emulated device memory ----*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// With checks on (Checkers.h), every byte of the device memory range has a
// state byte: not allocated, allocated but never written, written. An
// allocation marks the bytes it was asked for (not its rounding) allocated;
// a free marks them unallocated again and remembers the range, so that a
// later access is named a use after free. Copies, memsets and kernel
// stores mark bytes written. Every 4-byte word also has a race entry (the
// last plain write: its bytes, block run, thread, synchronisation count,
// source site), which racecheck compares accesses of the same block with. Both
// shadows are reserved address space, committed only where touched, and
// only when a check is on.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_GPU_EMULATOR_MEMORYSHADOW_H
#define OFFLOAD_GPU_EMULATOR_MEMORYSHADOW_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace offload {
namespace gpuemu {
struct CheckSite;
} // namespace gpuemu
} // namespace offload

namespace gpuemu {

enum ShadowState : uint8_t { Unallocated = 0, Unwritten = 1, Written = 2 };

/// A word's last plain write: Stamp packs the bytes of the word it wrote
/// (bits 60..63, one per byte), the block run (40..59), the thread (30..39)
/// and the block's synchronisation count (0..29); 0 means none.
struct RaceEntry {
  uint64_t Stamp = 0;
  const offload::gpuemu::CheckSite *Site = nullptr;
};

class MemoryShadow {
public:
  /// Null unless a check is on and the device range could be shadowed.
  static MemoryShadow *get();
  /// Called once by DeviceMemory for its range.
  static void create(const void *Base, size_t Capacity);

  bool covers(const void *P) const {
    return uintptr_t(P) - uintptr_t(Base) < Capacity;
  }
  uint8_t *state(const void *P) const {
    return States + (uintptr_t(P) - uintptr_t(Base));
  }
  RaceEntry *race(const void *P) const {
    return Races + (uintptr_t(P) - uintptr_t(Base)) / 4;
  }

  void allocated(const void *P, size_t Bytes);
  void freed(const void *P, size_t Bytes);
  /// Bytes a copy or memset of the driver wrote.
  void written(const void *P, size_t Bytes);
  /// Words a copy of the driver wrote from another device range keep
  /// its state.
  void copied(const void *Dst, const void *Src, size_t Bytes);
  /// Names what \p P is, for a report: inside or past the end of which
  /// allocation, or in which freed one.
  std::string describe(const void *P) const;

private:
  MemoryShadow(const void *Base, size_t Capacity, uint8_t *States,
               RaceEntry *Races);

  const char *Base;
  size_t Capacity;
  uint8_t *States;
  RaceEntry *Races;
};

} // namespace gpuemu

#endif // OFFLOAD_GPU_EMULATOR_MEMORYSHADOW_H
