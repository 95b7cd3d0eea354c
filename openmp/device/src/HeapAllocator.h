//===- HeapAllocator.h - Lock-free heap for device code ---------*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The allocator behind malloc/free/aligned_alloc/new/delete on AMD GPUs,
// kept free of any GPU detail so a host unit test can run it on many
// threads (unittests/openmp/DeviceHeapTest.cpp).
//
// The heap is one region: the allocator's state (all zero: an empty heap)
// followed by blocks. Every block is a power of two of at least 32 bytes, a
// 16-byte header followed by the caller's bytes, so every address handed out
// is 16-byte aligned. Blocks are carved from the region by a bump offset and
// never split or merged: a freed block goes on the free list of its size
// class and serves the next request of that class. This wastes up to half a
// block on rounding, but needs no lock anywhere, which matters when
// thousands of GPU threads allocate at once.
//
// Free lists are lock-free stacks. A list head holds the block's offset (in
// 16-byte units, plus one; 0 is the empty list) in its low 40 bits and a
// count of updates in the high 24 bits, so a thread whose pop was overtaken
// by a pop, a push and another pop of the same block fails its exchange
// instead of linking a block that is in use (the ABA problem) unless exactly
// 2^24 updates of that list happened in between. The link to the next free
// block lives in the block's header, which only the allocator touches, so
// reading the link of a block another thread just took never reads user
// data.
//
// Requests the bump region cannot satisfy return null even when larger free
// blocks exist; a bigger LIBOMPTARGET_HEAP_SIZE is the remedy.
//
//===----------------------------------------------------------------------===//

#ifndef OPENMP_DEVICE_SRC_HEAPALLOCATOR_H
#define OPENMP_DEVICE_SRC_HEAPALLOCATOR_H

#include "DeviceHeapABI.h"

#include <stdint.h>

namespace ompx {
namespace heap {

constexpr uint64_t Alignment = 16;
constexpr uint64_t HeaderBytes = 16;
/// Size classes 2^MinClass .. 2^(MinClass + NumClasses - 1) bytes.
constexpr uint32_t MinClass = 5;
constexpr uint32_t NumClasses = 48;

/// The start of the heap. Zero is the empty heap.
struct State {
  /// Bytes of blocks carved so far, after this state.
  uint64_t Bump;
  uint64_t Reserved;
  /// Tagged heads of the free lists, one per size class.
  uint64_t FreeLists[NumClasses];
};
static_assert(sizeof(State) <= DeviceHeapStateBytes,
              "the plugin zeroes only DeviceHeapStateBytes");

/// What precedes every address the heap hands out.
struct Header {
  /// LiveMagic, FreeMagic or AlignedMagic.
  uint32_t Magic;
  /// Size class (log2 of the block's size) of a block.
  uint32_t Class;
  /// A free block: the next free block of its class (encoded as in a list
  /// head). An aligned address: the bytes back to the block's own address.
  uint64_t Link;
};
static_assert(sizeof(Header) == HeaderBytes, "headers keep 16-byte alignment");

constexpr uint32_t LiveMagic = 0xb10cb10c;
constexpr uint32_t FreeMagic = 0xf4eeb10c;
constexpr uint32_t AlignedMagic = 0xa1196ed0;

constexpr uint64_t OffsetBits = 40;
constexpr uint64_t OffsetMask = (uint64_t(1) << OffsetBits) - 1;

enum class FreeResult { Freed, Null, NotFromHeap, DoubleFree };

/// A view of the heap at \p Base (16-byte aligned, \p Size bytes). Cheap to
/// make: it keeps nothing but the two values, so device code makes one per
/// call from the plugin's `__ompx_device_heap`.
class Heap {
public:
  Heap(char *Base, uint64_t Size) : Base(Base), Size(Base ? Size : 0) {}

  /// \p Bytes bytes, 16-byte aligned, or null when the heap cannot serve
  /// them.
  void *allocate(uint64_t Bytes) {
    uint32_t Class = classFor(Bytes);
    if (!Class)
      return nullptr;
    Header *Block = popFree(Class);
    if (!Block)
      Block = carve(Class);
    if (!Block)
      return nullptr;
    __atomic_store_n(&Block->Class, Class, __ATOMIC_RELAXED);
    __atomic_store_n(&Block->Magic, LiveMagic, __ATOMIC_RELEASE);
    return reinterpret_cast<char *>(Block) + HeaderBytes;
  }

  /// \p Bytes bytes at a multiple of \p Align (a power of two), or null.
  void *allocateAligned(uint64_t Align, uint64_t Bytes) {
    if (Align <= Alignment)
      return allocate(Bytes);
    if (Align & (Align - 1) || Bytes > Size || Align > Size)
      return nullptr;
    char *Own = static_cast<char *>(allocate(Bytes + Align));
    if (!Own)
      return nullptr;
    uint64_t Address = reinterpret_cast<uint64_t>(Own);
    uint64_t Back = ((Address + Align - 1) & ~(Align - 1)) - Address;
    if (Back == 0)
      return Own;
    // Own is 16-byte aligned and Align is at least 32, so Back is at least
    // 16: room for a header that leads free() back to the block.
    auto *Aligned = reinterpret_cast<Header *>(Own + Back - HeaderBytes);
    __atomic_store_n(&Aligned->Link, Back, __ATOMIC_RELAXED);
    __atomic_store_n(&Aligned->Class, 0u, __ATOMIC_RELAXED);
    __atomic_store_n(&Aligned->Magic, AlignedMagic, __ATOMIC_RELEASE);
    return Own + Back;
  }

  /// Returns the block of \p Ptr to its free list; says what was wrong with
  /// a pointer this heap did not hand out or that is already free.
  FreeResult deallocate(void *Ptr) {
    if (!Ptr)
      return FreeResult::Null;
    Header *Block = blockOf(Ptr);
    if (!Block)
      return FreeResult::NotFromHeap;
    uint32_t Class = __atomic_load_n(&Block->Class, __ATOMIC_RELAXED);
    if (Class < MinClass || Class >= MinClass + NumClasses)
      return FreeResult::NotFromHeap;
    uint32_t Expected = LiveMagic;
    if (!__atomic_compare_exchange_n(&Block->Magic, &Expected, FreeMagic, false,
                                     __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
      return Expected == FreeMagic ? FreeResult::DoubleFree
                                   : FreeResult::NotFromHeap;
    pushFree(Block, Class);
    return FreeResult::Freed;
  }

  /// Bytes usable at \p Ptr, an address this heap handed out and that is
  /// not free; 0 otherwise.
  uint64_t usableSize(void *Ptr) {
    Header *Block = Ptr ? blockOf(Ptr) : nullptr;
    if (!Block || __atomic_load_n(&Block->Magic, __ATOMIC_ACQUIRE) != LiveMagic)
      return 0;
    uint64_t End =
        reinterpret_cast<uint64_t>(Block) +
        (uint64_t(1) << __atomic_load_n(&Block->Class, __ATOMIC_RELAXED));
    return End - reinterpret_cast<uint64_t>(Ptr);
  }

private:
  State &state() { return *reinterpret_cast<State *>(Base); }
  uint64_t firstBlock() const { return DeviceHeapStateBytes; }

  /// The size class of a block for \p Bytes, or 0 when no block can hold
  /// them.
  uint32_t classFor(uint64_t Bytes) const {
    if (Bytes > Size || Size <= firstBlock())
      return 0;
    uint64_t Total = Bytes + HeaderBytes;
    uint32_t Class = MinClass;
    while ((uint64_t(1) << Class) < Total)
      ++Class;
    return Class < MinClass + NumClasses ? Class : 0;
  }

  uint64_t encode(Header *Block) const {
    return (reinterpret_cast<char *>(Block) - Base) / Alignment + 1;
  }
  Header *decode(uint64_t Link) const {
    uint64_t Offset = ((Link & OffsetMask) - 1) * Alignment;
    return reinterpret_cast<Header *>(Base + Offset);
  }

  Header *popFree(uint32_t Class) {
    uint64_t *List = &state().FreeLists[Class - MinClass];
    uint64_t Head = __atomic_load_n(List, __ATOMIC_ACQUIRE);
    while (Head & OffsetMask) {
      Header *Block = decode(Head);
      // Another thread may take this block first and reuse its header; the
      // tag then makes the exchange below fail, so what is read here is
      // only used when it was still the link.
      uint64_t Next = __atomic_load_n(&Block->Link, __ATOMIC_RELAXED);
      uint64_t Tag = (Head >> OffsetBits) + 1;
      uint64_t New = (Tag << OffsetBits) | (Next & OffsetMask);
      if (__atomic_compare_exchange_n(List, &Head, New, true, __ATOMIC_ACQUIRE,
                                      __ATOMIC_ACQUIRE))
        return Block;
    }
    return nullptr;
  }

  void pushFree(Header *Block, uint32_t Class) {
    uint64_t *List = &state().FreeLists[Class - MinClass];
    uint64_t Head = __atomic_load_n(List, __ATOMIC_RELAXED);
    uint64_t Link = encode(Block);
    for (;;) {
      __atomic_store_n(&Block->Link, Head & OffsetMask, __ATOMIC_RELAXED);
      uint64_t Tag = (Head >> OffsetBits) + 1;
      uint64_t New = (Tag << OffsetBits) | Link;
      if (__atomic_compare_exchange_n(List, &Head, New, true, __ATOMIC_RELEASE,
                                      __ATOMIC_RELAXED))
        return;
    }
  }

  /// A new block of \p Class from the bump region, or null when it is used
  /// up. The offset only grows while it fits, so a failed large request
  /// leaves room for smaller ones.
  Header *carve(uint32_t Class) {
    uint64_t Bytes = uint64_t(1) << Class;
    uint64_t Used = __atomic_load_n(&state().Bump, __ATOMIC_RELAXED);
    do {
      if (Bytes > Size - firstBlock() - Used)
        return nullptr;
    } while (!__atomic_compare_exchange_n(&state().Bump, &Used, Used + Bytes,
                                          true, __ATOMIC_RELAXED,
                                          __ATOMIC_RELAXED));
    return reinterpret_cast<Header *>(Base + firstBlock() + Used);
  }

  /// The header of the block \p Ptr lies in, following an aligned
  /// address's header back; null for an address outside the blocks.
  Header *blockOf(void *Ptr) {
    uint64_t Address = reinterpret_cast<uint64_t>(Ptr);
    uint64_t Start = reinterpret_cast<uint64_t>(Base) + firstBlock();
    if (Address % Alignment || Address < Start + HeaderBytes ||
        Address >= reinterpret_cast<uint64_t>(Base) + Size)
      return nullptr;
    auto *Found = reinterpret_cast<Header *>(Address - HeaderBytes);
    if (__atomic_load_n(&Found->Magic, __ATOMIC_ACQUIRE) != AlignedMagic)
      return Found;
    uint64_t Back = __atomic_load_n(&Found->Link, __ATOMIC_RELAXED);
    if (Back % Alignment || Back > Address - Start - HeaderBytes)
      return nullptr;
    return reinterpret_cast<Header *>(Address - Back - HeaderBytes);
  }

  char *Base;
  uint64_t Size;
};

} // namespace heap
} // namespace ompx

#endif // OPENMP_DEVICE_SRC_HEAPALLOCATOR_H
