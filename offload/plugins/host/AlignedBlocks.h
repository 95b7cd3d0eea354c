//===- AlignedBlocks.h - Aligned allocations the C heap can reuse -*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The CPU device's allocations are ordinary heap blocks, page-aligned from
// LargeCopyBytes up. posix_memalign would do, but glibc serves an aligned
// request above its mmap threshold with a fresh mapping every time (its
// dynamic threshold, which lets malloc reuse freed large blocks from the
// heap, never catches up with the alignment slack), so a loop that maps and
// unmaps a 1 MiB array paid an mmap, a munmap and 256 page faults per
// iteration: about 5x upstream's time, whose plugin uses plain malloc.
// These blocks come from plain malloc with room for the alignment, and keep
// the pointer malloc returned just below the aligned address for free.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_PLUGINS_HOST_ALIGNEDBLOCKS_H
#define OFFLOAD_PLUGINS_HOST_ALIGNEDBLOCKS_H

#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace offload {
namespace host {

/// \p Size bytes at a multiple of \p Alignment (a power of two, at least
/// 16), or null. Release with freeAlignedBlock only.
inline void *allocateAlignedBlock(uint64_t Size, uint64_t Alignment) {
  // Alignment bytes of slack always leave at least sizeof(void *) below the
  // aligned address for the original pointer.
  if (Size > UINT64_MAX - Alignment)
    return nullptr;
  void *Raw = std::malloc(static_cast<size_t>(Size + Alignment));
  if (!Raw)
    return nullptr;
  uintptr_t Aligned = (reinterpret_cast<uintptr_t>(Raw) + sizeof(void *) +
                       Alignment - 1) &
                      ~uintptr_t(Alignment - 1);
  std::memcpy(reinterpret_cast<void *>(Aligned - sizeof(void *)), &Raw,
              sizeof(void *));
  return reinterpret_cast<void *>(Aligned);
}

inline void freeAlignedBlock(void *Ptr) {
  if (!Ptr)
    return;
  void *Raw;
  std::memcpy(&Raw, static_cast<char *>(Ptr) - sizeof(void *),
              sizeof(void *));
  std::free(Raw);
}

} // namespace host
} // namespace offload

#endif // OFFLOAD_PLUGINS_HOST_ALIGNEDBLOCKS_H
