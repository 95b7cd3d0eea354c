//===- MappingTable.h - Host-to-device address intervals of one device ---===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The set of host ranges that currently have a device copy on one device,
// with the two OpenMP reference counts of each. Ranges never overlap, so an
// ordered map keyed by the host start address finds the range containing an
// address in O(log n) (100,000 live mappings cost ~17 comparisons).
//
// MappingTable itself is not synchronised; a device keeps it in a
// Guarded<MappingTable> (LockedMappingTable is its Access). Constructs do
// not hold that lock while they copy data: an entry a construct creates or
// removes is marked (MapEntry::State) and other constructs wait for it to
// settle, and an entry being copied to or from is pinned (MapEntry::Pins)
// so that nobody removes it meanwhile. See DataMapping.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_LIBOMPTARGET_MAPPINGTABLE_H
#define OFFLOAD_LIBOMPTARGET_MAPPINGTABLE_H

#include "Guarded.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <vector>

namespace offload {

/// A pointer inside a mapped range whose device copy was attached to
/// device memory. Copies of the range between host and device must not
/// overwrite either side's value of it: the host keeps its pointer and the
/// device keeps the attached one.
struct ShadowPointer {
  uintptr_t HostAddress; ///< where the pointer lives on the host
  uintptr_t HostValue;   ///< its host value
  uintptr_t DeviceValue; ///< the value attached in the device copy
};

/// Whether an entry may be used by every construct.
enum class MapState : uint8_t {
  /// The device copy exists and holds what the mapping rules say.
  Ready,
  /// One construct allocated it and is filling it, without the table's
  /// lock; others wait until it is Ready.
  Creating,
  /// One construct is copying it back and will remove it; others wait
  /// until it is gone.
  Releasing,
};

/// Device memory mirroring the host range [HstBegin, HstEnd), used by one or
/// more entries. The parts of one struct mapped by different constructs
/// share the block allocated for the first (allocated from the struct's
/// start), so the device copy keeps the struct's layout: a region reaches
/// every member through the struct's device address.
struct DeviceBlock {
  /// The device allocation, as the plugin returned it (what is freed).
  void *Memory = nullptr;
  /// The device address of HstBegin: Memory, plus for large blocks on the
  /// CPU device the padding that places it just before the host range's
  /// offset in the page (plugin::LargeCopyBytes).
  uintptr_t TgtBegin = 0;
  uintptr_t HstBegin = 0;
  uintptr_t HstEnd = 0;
};

/// The largest distance from a struct's start to its first mapped member
/// for which a device block covers the bytes between them (device memory
/// spent so that members mapped later land at their offsets).
constexpr uint64_t MaxStructLeadBytes = 64 * 1024;

/// One mapped host range and its device copy.
struct MapEntry {
  uintptr_t HstBegin = 0;
  uintptr_t HstEnd = 0;
  /// Host base address of the list item that created the entry (for
  /// diagnostics only).
  uintptr_t HstBase = 0;
  uintptr_t TgtBegin = 0;
  /// Reference counts of OpenMP 5.2: the dynamic one (enter/exit data,
  /// target, target data) and the hold one (ompx_hold).
  uint64_t DynRefCount = 0;
  uint64_t HoldRefCount = 0;
  /// Never released by reference counting: declare target globals and
  /// omp_target_associate_ptr ranges.
  bool Permanent = false;
  /// Created by omp_target_associate_ptr (the device memory is the user's).
  bool Associated = false;
  /// The device memory the entry lives in, when the runtime allocated it;
  /// freed when the last entry using it is removed.
  std::shared_ptr<DeviceBlock> Block;
  /// The map's name string (";name;file;line;col;;") or null.
  const void *Name = nullptr;
  /// Attached pointers inside the range.
  std::vector<ShadowPointer> Shadows;
  MapState State = MapState::Ready;
  /// Copies into or out of a Ready entry under way without the table's
  /// lock (`always` maps, `target update`); a pinned entry is not removed.
  uint32_t Pins = 0;

  uint64_t size() const { return HstEnd - HstBegin; }
  uintptr_t translate(uintptr_t Host) const {
    return TgtBegin + (Host - HstBegin);
  }
  bool isReleasable() const {
    return !Permanent && DynRefCount == 0 && HoldRefCount == 0;
  }
  /// Whether a construct other than the one that owns the entry's state
  /// must wait before using it (\p ToRemove: before it may remove it).
  bool unsettled(bool ToRemove) const {
    return State != MapState::Ready || (ToRemove && Pins != 0);
  }
};

/// Where a host range [Begin, Begin + Size) stands against the table.
struct LookupResult {
  enum Kind {
    /// No entry covers any byte of the range.
    Absent,
    /// One entry covers the whole range (for Size == 0: contains Begin).
    Contained,
    /// The range shares bytes with an entry but is not inside it: the error
    /// OpenMP requires for extending an existing mapping.
    Overlap,
  };
  Kind Status = Absent;
  MapEntry *Entry = nullptr;
};

/// Memory for the nodes of one MappingTable's index, carved from chunks of
/// many nodes and recycled through a free list. A lookup walks ~17 nodes
/// of 100,000; allocated one by one, with each construct's device block
/// and plugin allocation between them, they spread over about twice the
/// memory (and pages). Not synchronised: the table's lock covers it.
class NodePool {
public:
  NodePool() = default;
  NodePool(const NodePool &) = delete;
  NodePool &operator=(const NodePool &) = delete;
  ~NodePool();

  /// Memory for one node of \p Size bytes (one size per pool: another
  /// size comes from operator new).
  void *allocate(size_t Size);
  void deallocate(void *P, size_t Size);
  /// Returns the chunks once no node is allocated.
  void releaseIfUnused();

private:
  static constexpr size_t NodesPerChunk = 256;
  static constexpr size_t CacheLine = 64;
  struct FreeNode {
    FreeNode *Next;
  };
  /// Whether a block of \p Size bytes is one of this pool's nodes (another
  /// size comes from operator new).
  bool pooled(size_t Size) const;
  void freeChunks();
  size_t NodeSize = 0;
  FreeNode *Free = nullptr;
  /// Unused bytes at the end of the newest chunk.
  char *Fresh = nullptr;
  size_t FreshNodes = 0;
  size_t Allocated = 0;
  std::vector<char *> Chunks;
};

/// std::allocator's interface over a NodePool.
template <typename T> struct PoolAllocator {
  using value_type = T;
  NodePool *Pool;
  explicit PoolAllocator(NodePool *Pool) : Pool(Pool) {}
  template <typename U>
  PoolAllocator(const PoolAllocator<U> &Other) : Pool(Other.Pool) {}
  T *allocate(size_t N) {
    if (N != 1)
      return static_cast<T *>(::operator new(N * sizeof(T)));
    return static_cast<T *>(Pool->allocate(sizeof(T)));
  }
  void deallocate(T *P, size_t N) {
    if (N != 1)
      ::operator delete(P);
    else
      Pool->deallocate(P, sizeof(T));
  }
  template <typename U> bool operator==(const PoolAllocator<U> &O) const {
    return Pool == O.Pool;
  }
  template <typename U> bool operator!=(const PoolAllocator<U> &O) const {
    return Pool != O.Pool;
  }
};

/// Work on a table's device left in flight (nowait constructs) whose
/// completion settles entries. A construct waiting for an entry to settle
/// completes such work itself: the thread that would poll it may be the
/// waiting one (AsyncContext.h).
class InFlightWork {
public:
  virtual ~InFlightWork() = default;
  /// Whether some is registered (perhaps already complete).
  virtual bool hasPending() = 0;
  /// Completes the work not completed yet, waiting for the device; false
  /// when there was none.
  virtual bool completePending() = 0;
};

class MappingTable {
public:
  MappingTable() = default;
  MappingTable(const MappingTable &) = delete;
  MappingTable &operator=(const MappingTable &) = delete;

  LookupResult lookup(uintptr_t Begin, uint64_t Size);
  /// What lookup(Begin, Size) returns when \p E, an entry of the table,
  /// contains Begin (see containsBegin): no other entry can, entries
  /// never overlapping.
  static LookupResult lookupIn(MapEntry &E, uintptr_t Begin, uint64_t Size) {
    LookupResult Result;
    Result.Entry = &E;
    Result.Status = Begin + Size <= E.HstEnd || Size == 0
                        ? LookupResult::Contained
                        : LookupResult::Overlap;
    return Result;
  }
  /// Whether \p E contains \p Begin as lookup() sees it: a zero-sized
  /// entry (zero-length section) contains its own address.
  static bool containsBegin(const MapEntry &E, uintptr_t Begin) {
    return E.HstBegin <= Begin &&
           (Begin < E.HstEnd || (E.HstBegin == Begin && E.HstEnd == Begin));
  }
  /// Counts the entries removed or replaced so far: while it stays the
  /// same, an entry found earlier (under this lock or an earlier hold of
  /// it) is still in the table at the same address.
  uint64_t erasures() const { return Erasures; }
  /// Inserts a new entry; the caller has checked with lookup() that its
  /// range is Absent.
  MapEntry &insert(MapEntry Entry);
  void erase(uintptr_t HstBegin);
  /// Erases the entry starting exactly at \p HstBegin when there is one
  /// and \p Fn(entry) returns true (with one search of the table).
  template <typename FnT> void eraseIf(uintptr_t HstBegin, FnT &&Fn) {
    auto It = Entries.find(HstBegin);
    if (It != Entries.end() && Fn(It->second))
      eraseAt(It);
  }
  /// Records \p Block, allocated from the start of the struct at its
  /// HstBegin for a part of it, for findStructBlock. Forgotten when the
  /// last entry using it is erased.
  void addStructBlock(const std::shared_ptr<DeviceBlock> &Block);
  /// A block recorded for the struct at host address \p Base that covers
  /// [Begin, End), or null. O(log n).
  std::shared_ptr<DeviceBlock> findStructBlock(uintptr_t Base, uintptr_t Begin,
                                               uintptr_t End) const;
  size_t size() const { return Entries.size(); }
  bool empty() const { return Entries.empty(); }
  void forEach(const std::function<void(const MapEntry &)> &Fn) const;

  /// How many entries are not Ready, plus the pins on Ready entries, of
  /// the constructs between their steps 2 and 3 (DataMapping.cpp counts
  /// them). While it is 0 no entry is unsettled, and step 1 of a construct
  /// has nothing to look up.
  void addUnsettled(uint64_t N) { Unsettled += N; }
  void removeUnsettled(uint64_t N) { Unsettled -= N; }
  bool anyUnsettled() const { return Unsettled != 0; }

  /// The device's in-flight work (set once when the device is made).
  InFlightWork *InFlight = nullptr;
  /// Counts notifySettled calls, so that a waiter that released the lock
  /// knows whether it missed one.
  uint64_t Settlements = 0;

private:
  using EntryMap =
      std::map<uintptr_t, MapEntry, std::less<uintptr_t>,
               PoolAllocator<std::pair<const uintptr_t, MapEntry>>>;
  /// Declared first: Entries' nodes live in it.
  NodePool Nodes;
  EntryMap Entries{EntryMap::allocator_type(&Nodes)};
  /// Struct blocks by the struct's host address.
  std::multimap<uintptr_t, std::weak_ptr<DeviceBlock>> StructBlocks;
  uint64_t Unsettled = 0;
  uint64_t Erasures = 0;

  void eraseAt(EntryMap::iterator It);
};

using LockedMappingTable = Guarded<MappingTable>::Access;

/// Wakes the constructs waiting for entries to settle (after a change they
/// may wait for).
void notifySettled(LockedMappingTable &Table);

/// Waits until another construct settled something: completes the
/// device's in-flight work when there is some, else blocks until notified.
/// Callers re-check what they wait for.
void waitForSettlement(LockedMappingTable &Table);

/// MappingTable::lookup, after waiting (with the lock released) until the
/// entry it finds, if any, is settled (see MapEntry::unsettled).
LookupResult lookupSettled(LockedMappingTable &Table, uintptr_t Begin,
                           uint64_t Size, bool ToRemove);

} // namespace offload

#endif // OFFLOAD_LIBOMPTARGET_MAPPINGTABLE_H
