//===- Allocators.cpp - OpenMP memory allocators inside target regions ----===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// omp_alloc and its relatives, and allocators made with omp_init_allocator
// (`requires dynamic_allocators`), on a GPU. Every allocator takes its
// memory from the device heap (arch::allocGlobal), which every thread of the
// device can reach, so each predefined allocator's access trait holds. A
// user allocator honours its alignment and fallback traits; the others
// (pool size, pinning, partitioning, sync hints) describe memory the heap
// already gives or needs no handling here.
//
// Every block starts behind a header that remembers where the heap block
// begins and how many bytes were asked for, so omp_free and omp_realloc
// work for any alignment. On the CPU device, host-style code asks libomp.
//
//===----------------------------------------------------------------------===//

#include "Arch.h"
#include "Interface.h"

using namespace ompx;

namespace {

// The values of omp.h (the OpenMP API's enumerators, LLVM's numbering).
using AllocatorHandle = uintptr_t;
using MemspaceHandle = uintptr_t;
constexpr AllocatorHandle NullAllocator = 0;
constexpr AllocatorHandle LastPredefinedAllocator = 102;
enum TraitKey : int { TraitAlignment = 2, TraitFallback = 5, TraitFbData = 6 };
enum TraitValue : uintptr_t {
  DefaultMemFallback = 11,
  NullFallback = 12,
  AbortFallback = 13,
  AllocatorFallback = 14,
  DefaultTraitValue = ~uintptr_t(0),
};
struct AllocTrait {
  int Key;
  uintptr_t Value;
};

/// An allocator made by omp_init_allocator; its handle is its address.
struct UserAllocator {
  size_t Alignment;
  uintptr_t Fallback;
  AllocatorHandle FallbackAllocator;
};

/// In front of every block this file hands out.
struct BlockHeader {
  void *HeapBlock;
  size_t Size;
};

UserAllocator *userAllocator(AllocatorHandle Handle) {
  if (Handle <= LastPredefinedAllocator)
    return nullptr;
  return reinterpret_cast<UserAllocator *>(Handle);
}

BlockHeader *headerOf(void *Ptr) {
  return reinterpret_cast<BlockHeader *>(Ptr) - 1;
}

/// \p Size bytes aligned to \p Alignment (a power of two, or 0) from the
/// heap, with their header; null when the heap has no room.
void *allocateAligned(size_t Size, size_t Alignment) {
  if (Alignment < alignof(BlockHeader))
    Alignment = alignof(BlockHeader);
  size_t Total = sizeof(BlockHeader) + Alignment - 1 + Size;
  if (Total < Size)
    return nullptr; // overflow
  char *Heap = static_cast<char *>(arch::allocGlobal(Total));
  if (!Heap)
    return nullptr;
  uintptr_t First = reinterpret_cast<uintptr_t>(Heap) + sizeof(BlockHeader);
  uintptr_t Aligned = (First + Alignment - 1) & ~uintptr_t(Alignment - 1);
  void *Ptr = reinterpret_cast<void *>(Aligned);
  *headerOf(Ptr) = BlockHeader{Heap, Size};
  return Ptr;
}

/// omp_aligned_alloc's work for every allocator: the allocator's own
/// alignment if larger, then its fallback when the heap has no room.
void *allocate(size_t Alignment, size_t Size, AllocatorHandle Handle) {
  for (int Fallbacks = 0; Fallbacks < 8; ++Fallbacks) {
    UserAllocator *User = userAllocator(Handle);
    size_t Want = Alignment;
    if (User && User->Alignment > Want)
      Want = User->Alignment;
    if (void *Ptr = allocateAligned(Size ? Size : 1, Want))
      return Ptr;
    if (!User || User->Fallback == NullFallback)
      return nullptr;
    if (User->Fallback == AbortFallback)
      arch::fatal("omp_alloc: the allocator has no memory left and its "
                  "fallback is abort_fb");
    // default_mem_fb (the default) takes the default allocator, which has
    // the same heap: only allocator_fb may find memory elsewhere.
    if (User->Fallback != AllocatorFallback)
      return nullptr;
    Handle = User->FallbackAllocator;
  }
  return nullptr;
}

bool isPowerOfTwo(uintptr_t Value) { return Value && !(Value & (Value - 1)); }

} // namespace

extern "C" {
void *omp_aligned_alloc(size_t Alignment, size_t Size,
                        AllocatorHandle Allocator) {
  OMPX_FORWARD_TO_HOST(omp_aligned_alloc, void *,
                       (size_t, size_t, AllocatorHandle), Alignment, Size,
                       Allocator);
  if (Alignment && !isPowerOfTwo(Alignment))
    return nullptr;
  return allocate(Alignment, Size, Allocator);
}

void *omp_alloc(size_t Size, AllocatorHandle Allocator) {
  OMPX_FORWARD_TO_HOST(omp_alloc, void *, (size_t, AllocatorHandle), Size,
                       Allocator);
  return allocate(0, Size, Allocator);
}

void *omp_aligned_calloc(size_t Alignment, size_t Count, size_t Size,
                         AllocatorHandle Allocator) {
  OMPX_FORWARD_TO_HOST(omp_aligned_calloc, void *,
                       (size_t, size_t, size_t, AllocatorHandle), Alignment,
                       Count, Size, Allocator);
  size_t Bytes = Count * Size;
  if (Size && Bytes / Size != Count)
    return nullptr;
  if (Alignment && !isPowerOfTwo(Alignment))
    return nullptr;
  void *Ptr = allocate(Alignment, Bytes, Allocator);
  if (Ptr)
    __builtin_memset(Ptr, 0, Bytes);
  return Ptr;
}

void *omp_calloc(size_t Count, size_t Size, AllocatorHandle Allocator) {
  OMPX_FORWARD_TO_HOST(omp_calloc, void *, (size_t, size_t, AllocatorHandle),
                       Count, Size, Allocator);
  return omp_aligned_calloc(0, Count, Size, Allocator);
}

void omp_free(void *Ptr, AllocatorHandle Allocator) {
  OMPX_FORWARD_TO_HOST(omp_free, void, (void *, AllocatorHandle), Ptr,
                       Allocator);
  if (Ptr)
    arch::freeGlobal(headerOf(Ptr)->HeapBlock);
}

void *omp_realloc(void *Ptr, size_t Size, AllocatorHandle Allocator,
                  AllocatorHandle FreeAllocator) {
  OMPX_FORWARD_TO_HOST(omp_realloc, void *,
                       (void *, size_t, AllocatorHandle, AllocatorHandle), Ptr,
                       Size, Allocator, FreeAllocator);
  if (!Ptr)
    return omp_alloc(Size, Allocator);
  if (!Size) {
    omp_free(Ptr, FreeAllocator);
    return nullptr;
  }
  void *New = omp_alloc(Size, Allocator);
  if (!New)
    return nullptr; // the old block stays, as with realloc
  size_t Old = headerOf(Ptr)->Size;
  __builtin_memcpy(New, Ptr, Old < Size ? Old : Size);
  omp_free(Ptr, FreeAllocator);
  return New;
}

AllocatorHandle omp_init_allocator(MemspaceHandle Memspace, int NumTraits,
                                   const AllocTrait *Traits) {
  OMPX_FORWARD_TO_HOST(omp_init_allocator, AllocatorHandle,
                       (MemspaceHandle, int, const AllocTrait *), Memspace,
                       NumTraits, Traits);
  UserAllocator Made{0, DefaultMemFallback, NullAllocator};
  for (int I = 0; I < NumTraits; ++I) {
    uintptr_t Value = Traits[I].Value;
    switch (Traits[I].Key) {
    case TraitAlignment:
      if (Value == DefaultTraitValue)
        break;
      if (!isPowerOfTwo(Value))
        return NullAllocator; // the specification's answer to a bad trait
      Made.Alignment = size_t(Value);
      break;
    case TraitFallback:
      if (Value != DefaultTraitValue)
        Made.Fallback = Value;
      break;
    case TraitFbData:
      Made.FallbackAllocator = Value;
      break;
    default:
      break;
    }
  }
  auto *User =
      static_cast<UserAllocator *>(arch::allocGlobal(sizeof(UserAllocator)));
  if (!User)
    return NullAllocator;
  *User = Made;
  return reinterpret_cast<AllocatorHandle>(User);
}

void omp_destroy_allocator(AllocatorHandle Allocator) {
  OMPX_FORWARD_TO_HOST(omp_destroy_allocator, void, (AllocatorHandle),
                       Allocator);
  if (UserAllocator *User = userAllocator(Allocator))
    arch::freeGlobal(User);
}
}
