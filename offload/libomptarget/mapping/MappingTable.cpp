//===- MappingTable.cpp - Host-to-device address intervals of one device -===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mapping/MappingTable.h"

#include <algorithm>
#include <cstddef>
#include <new>

using namespace offload;

NodePool::~NodePool() { freeChunks(); }

bool NodePool::pooled(size_t Size) const {
  return Size <= NodeSize && NodeSize - Size < CacheLine;
}

void NodePool::freeChunks() {
  for (char *Chunk : Chunks)
    ::operator delete(Chunk, std::align_val_t(CacheLine));
  Chunks.clear();
  Free = nullptr;
  Fresh = nullptr;
  FreshNodes = 0;
}

void *NodePool::allocate(size_t Size) {
  if (!NodeSize)
    NodeSize = (std::max(Size, sizeof(FreeNode)) + CacheLine - 1) / CacheLine *
               CacheLine;
  if (!pooled(Size))
    return ::operator new(Size);
  ++Allocated;
  if (Free) {
    FreeNode *Node = Free;
    Free = Node->Next;
    return Node;
  }
  if (!FreshNodes) {
    // Chunks start on a cache line, and so does every node, NodeSize being
    // a multiple of a line: a node's links, key and range share one line.
    size_t ChunkBytes = NodeSize * NodesPerChunk;
    Fresh = static_cast<char *>(
        ::operator new(ChunkBytes, std::align_val_t(CacheLine)));
    Chunks.push_back(Fresh);
    FreshNodes = NodesPerChunk;
  }
  void *Node = Fresh;
  Fresh += NodeSize;
  --FreshNodes;
  return Node;
}

void NodePool::deallocate(void *P, size_t Size) {
  if (!pooled(Size)) {
    ::operator delete(P);
    return;
  }
  --Allocated;
  Free = ::new (P) FreeNode{Free};
}

void NodePool::releaseIfUnused() {
  if (!Allocated)
    freeChunks();
}

LookupResult MappingTable::lookup(uintptr_t Begin, uint64_t Size) {
  LookupResult Result;
  uintptr_t End = Begin + Size;
  // The last entry starting at or before Begin is the only one that can
  // contain Begin, because entries never overlap.
  auto After = Entries.upper_bound(Begin);
  if (After != Entries.begin()) {
    MapEntry &Candidate = std::prev(After)->second;
    // A zero-sized entry (zero-length section) is found at its own
    // address.
    if (containsBegin(Candidate, Begin))
      return lookupIn(Candidate, Begin, Size);
  }
  if (Size == 0) {
    // A zero-sized lookup (use_device_ptr/use_device_addr, a zero-length
    // section) also finds the entry whose extended range holds Begin: the
    // range between the entry and the base its map named. Clang passes the
    // base of `p[3:4]` (p's value) for use_device_addr(p[3:4]), and the
    // program adds the offset to the device address it gets back. The
    // entry before Begin counts when its base lies after Begin, the entry
    // after it when its base lies at or before Begin (as upstream's
    // runtime looks them up).
    if (After != Entries.begin()) {
      MapEntry &Before = std::prev(After)->second;
      if (Begin < Before.HstBase) {
        Result.Entry = &Before;
        Result.Status = LookupResult::Contained;
        return Result;
      }
    }
    if (After != Entries.end() && After->second.HstBase <= Begin) {
      Result.Entry = &After->second;
      Result.Status = LookupResult::Contained;
    }
    return Result;
  }
  // Begin is not covered; the range still overlaps if an entry starts inside
  // it.
  if (After != Entries.end() && After->first < End) {
    Result.Entry = &After->second;
    Result.Status = LookupResult::Overlap;
  }
  return Result;
}

MapEntry &MappingTable::insert(MapEntry Entry) {
  uintptr_t Key = Entry.HstBegin;
  auto [It, Inserted] = Entries.insert_or_assign(Key, std::move(Entry));
  if (!Inserted)
    ++Erasures; // the entry there was replaced
  return It->second;
}

void MappingTable::erase(uintptr_t HstBegin) {
  auto It = Entries.find(HstBegin);
  if (It != Entries.end())
    eraseAt(It);
}

void MappingTable::eraseAt(EntryMap::iterator It) {
  // The last entry of a struct block takes its record along.
  const std::shared_ptr<DeviceBlock> &Block = It->second.Block;
  if (Block && Block.use_count() == 1) {
    auto [First, Last] = StructBlocks.equal_range(Block->HstBegin);
    for (auto B = First; B != Last; ++B)
      if (B->second.lock() == Block) {
        StructBlocks.erase(B);
        break;
      }
  }
  Entries.erase(It);
  ++Erasures;
  if (Entries.empty())
    Nodes.releaseIfUnused();
}

void MappingTable::addStructBlock(const std::shared_ptr<DeviceBlock> &Block) {
  StructBlocks.emplace(Block->HstBegin, Block);
}

std::shared_ptr<DeviceBlock>
MappingTable::findStructBlock(uintptr_t Base, uintptr_t Begin,
                              uintptr_t End) const {
  auto [First, Last] = StructBlocks.equal_range(Base);
  for (auto It = First; It != Last; ++It)
    if (std::shared_ptr<DeviceBlock> Block = It->second.lock())
      if (Block->HstBegin <= Begin && End <= Block->HstEnd)
        return Block;
  return nullptr;
}

void MappingTable::forEach(
    const std::function<void(const MapEntry &)> &Fn) const {
  for (const auto &KV : Entries)
    Fn(KV.second);
}

void offload::notifySettled(LockedMappingTable &Table) {
  ++Table->Settlements;
  Table.notifyAll();
}

void offload::waitForSettlement(LockedMappingTable &Table) {
  InFlightWork *Work = Table->InFlight;
  if (Work && Work->hasPending()) {
    uint64_t Seen = Table->Settlements;
    bool Completed = false;
    Table.unlocked([&] { Completed = Work->completePending(); });
    if (Completed || Table->Settlements != Seen)
      return;
  }
  Table.wait();
}

LookupResult offload::lookupSettled(LockedMappingTable &Table, uintptr_t Begin,
                                    uint64_t Size, bool ToRemove) {
  for (;;) {
    LookupResult R = Table->lookup(Begin, Size);
    if (!R.Entry || !R.Entry->unsettled(ToRemove))
      return R;
    waitForSettlement(Table);
  }
}
