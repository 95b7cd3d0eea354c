//===- MapItems.cpp - A construct's map list as the planners read it ------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mapping/MapItems.h"

using namespace offload;

namespace {

/// Calls a user-defined mapper and returns the components it pushed.
MapperComponents runMapper(const MapItem &Item) {
  using MapperFn = void (*)(void *Handle, void *Base, void *Begin, int64_t Size,
                            int64_t Type, const void *Name);
  MapperComponents Components;
  reinterpret_cast<MapperFn>(Item.Mapper)(&Components, Item.Base, Item.Begin,
                                          Item.Size, Item.Type, Item.Name);
  return Components;
}

MapList listOf(std::vector<MapItem> &Items, std::vector<void *> &Bases,
               std::vector<void *> &Begins, std::vector<int64_t> &Sizes,
               std::vector<int64_t> &Types, std::vector<void *> &Names,
               std::vector<void *> &Mappers) {
  for (const MapItem &I : Items) {
    Bases.push_back(I.Base);
    Begins.push_back(I.Begin);
    Sizes.push_back(I.Size);
    Types.push_back(I.Type);
    Names.push_back(const_cast<void *>(I.Name));
    Mappers.push_back(I.Mapper);
  }
  return {static_cast<int32_t>(Items.size()),
          Bases.data(),
          Begins.data(),
          Sizes.data(),
          Types.data(),
          Names.data(),
          Mappers.data()};
}

} // namespace

void offload::expandInto(ExpandedList &L, const MapList &Maps) {
  L.List = Maps;
  for (int32_t I = 0; I < Maps.Count; ++I) {
    MapItem Item = Maps.item(I);
    if (!Item.Mapper)
      continue;
    if (L.Mapped.empty())
      L.Mapped.resize(Maps.Count);
    auto Child = std::make_unique<ExpandedList>();
    Child->Components = runMapper(Item);
    ExpandedList &C = *Child;
    MapList ChildList = listOf(C.Components.Items, C.Bases, C.Begins, C.Sizes,
                               C.Types, C.Names, C.Mappers);
    // The components carry no mappers of their own, but expanding keeps
    // the shape uniform.
    auto Expanded = std::make_unique<ExpandedList>();
    expandInto(*Expanded, ChildList);
    Expanded->Components = std::move(C.Components);
    Expanded->Bases = std::move(C.Bases);
    Expanded->Begins = std::move(C.Begins);
    Expanded->Sizes = std::move(C.Sizes);
    Expanded->Types = std::move(C.Types);
    Expanded->Names = std::move(C.Names);
    Expanded->Mappers = std::move(C.Mappers);
    L.Mapped[I] = std::move(Expanded);
  }
}

bool offload::forEachPiece(const MapItem &Item,
                           const std::function<bool(const MapItem &)> &Fn) {
  const auto *Dims = static_cast<const __tgt_target_non_contig *>(Item.Begin);
  int64_t NumDims = Item.Size;
  std::function<bool(int64_t, uint64_t)> Visit = [&](int64_t Dim,
                                                     uint64_t Offset) {
    const __tgt_target_non_contig &DimInfo = Dims[Dim];
    if (Dim == NumDims - 1) {
      // The innermost dimension is one contiguous run.
      MapItem Piece = Item;
      Piece.Begin = static_cast<char *>(Item.Base) + Offset +
                    DimInfo.Offset * DimInfo.Stride;
      Piece.Size = static_cast<int64_t>(DimInfo.Count * DimInfo.Stride);
      return Fn(Piece);
    }
    for (uint64_t I = 0; I < DimInfo.Count; ++I)
      if (!Visit(Dim + 1, Offset + (DimInfo.Offset + I) * DimInfo.Stride))
        return false;
    return true;
  };
  return Visit(0, 0);
}
