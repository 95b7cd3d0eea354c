//===- InlineVector.h - A vector whose first elements live inside it ------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The lists a construct keeps while it maps (the copies it plans, the
// entries it creates, pins or removes, per-item flags) hold a few elements
// for most constructs: with room for N of them inside, a construct
// allocates nothing for them unless its list is long.
//
// Only for trivially copyable elements (pointers, flags, plain structs).
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_LIBOMPTARGET_INLINEVECTOR_H
#define OFFLOAD_LIBOMPTARGET_INLINEVECTOR_H

#include <cassert>
#include <cstddef>
#include <cstring>
#include <memory>
#include <type_traits>

namespace offload {

template <typename T, size_t N> class InlineVector {
  static_assert(std::is_trivially_copyable_v<T>,
                "elements are moved with memcpy");
  static_assert(N > 0, "room for at least one element inside");

public:
  InlineVector() = default;
  /// \p Count copies of \p Value.
  InlineVector(size_t Count, const T &Value) { assign(Count, Value); }
  InlineVector(const InlineVector &) = delete;
  InlineVector &operator=(const InlineVector &) = delete;

  void push_back(const T &Value) {
    if (Size == Capacity)
      reserve(Capacity * 2);
    Data[Size++] = Value;
  }
  /// Makes it \p Count copies of \p Value.
  void assign(size_t Count, const T &Value) {
    Size = 0;
    reserve(Count);
    for (size_t I = 0; I < Count; ++I)
      Data[I] = Value;
    Size = Count;
  }
  void clear() { Size = 0; }
  size_t size() const { return Size; }
  bool empty() const { return Size == 0; }
  T &operator[](size_t I) {
    assert(I < Size && "index out of range");
    return Data[I];
  }
  const T &operator[](size_t I) const {
    assert(I < Size && "index out of range");
    return Data[I];
  }
  T &back() {
    assert(Size && "back() of an empty vector");
    return Data[Size - 1];
  }
  T *begin() { return Data; }
  T *end() { return Data + Size; }
  const T *begin() const { return Data; }
  const T *end() const { return Data + Size; }

private:
  void reserve(size_t Count) {
    if (Count <= Capacity)
      return;
    std::unique_ptr<T[]> Grown(new T[Count]);
    if (Size)
      std::memcpy(static_cast<void *>(Grown.get()), Data, Size * sizeof(T));
    Heap = std::move(Grown);
    Data = Heap.get();
    Capacity = Count;
  }

  T Inline[N];
  T *Data = Inline;
  size_t Size = 0;
  size_t Capacity = N;
  std::unique_ptr<T[]> Heap;
};

} // namespace offload

#endif // OFFLOAD_LIBOMPTARGET_INLINEVECTOR_H
