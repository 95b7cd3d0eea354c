//===- AMDGPUOperatorNew.cpp - C++ new and delete on AMD GPUs -------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The replaceable global operators new and delete of the C++ standard, all
// of them, on the device heap (AMDGPUHeap.cpp). Device code has no
// exceptions: a new that cannot allocate ends the kernel, and the plugin
// reports the heap as exhausted. The nothrow forms return null.
//
// The runtime is built without the C++ library, so the two standard types
// the signatures need are declared here; their mangled names are what
// matters to the user code that calls these functions.
//
//===----------------------------------------------------------------------===//

#include "AMDGPUHeap.h"

namespace std {
enum class align_val_t : size_t {};
struct nothrow_t {
  explicit nothrow_t() = default;
};
} // namespace std

using namespace ompx;

// Out of line for the reason AMDGPUHeap.cpp gives.
namespace {
[[gnu::noinline]] void *allocateOrNull(size_t Size, size_t Align) {
  return gpu::deviceHeap().allocateAligned(Align, Size);
}
[[gnu::noinline]] void *allocateOrTrap(size_t Size, size_t Align) {
  if (void *Ptr = allocateOrNull(Size, Align))
    return Ptr;
  gpu::heapExhausted(Size);
}
} // namespace

void *operator new(size_t Size) { return allocateOrTrap(Size, 16); }
void *operator new[](size_t Size) { return allocateOrTrap(Size, 16); }
void *operator new(size_t Size, std::align_val_t Align) {
  return allocateOrTrap(Size, size_t(Align));
}
void *operator new[](size_t Size, std::align_val_t Align) {
  return allocateOrTrap(Size, size_t(Align));
}
void *operator new(size_t Size, const std::nothrow_t &) noexcept {
  return allocateOrNull(Size, 16);
}
void *operator new[](size_t Size, const std::nothrow_t &) noexcept {
  return allocateOrNull(Size, 16);
}
void *operator new(size_t Size, std::align_val_t Align,
                   const std::nothrow_t &) noexcept {
  return allocateOrNull(Size, size_t(Align));
}
void *operator new[](size_t Size, std::align_val_t Align,
                     const std::nothrow_t &) noexcept {
  return allocateOrNull(Size, size_t(Align));
}

void operator delete(void *Ptr) noexcept { ompx_heap_free(Ptr); }
void operator delete[](void *Ptr) noexcept { ompx_heap_free(Ptr); }
void operator delete(void *Ptr, size_t) noexcept { ompx_heap_free(Ptr); }
void operator delete[](void *Ptr, size_t) noexcept { ompx_heap_free(Ptr); }
void operator delete(void *Ptr, std::align_val_t) noexcept {
  ompx_heap_free(Ptr);
}
void operator delete[](void *Ptr, std::align_val_t) noexcept {
  ompx_heap_free(Ptr);
}
void operator delete(void *Ptr, size_t, std::align_val_t) noexcept {
  ompx_heap_free(Ptr);
}
void operator delete[](void *Ptr, size_t, std::align_val_t) noexcept {
  ompx_heap_free(Ptr);
}
void operator delete(void *Ptr, const std::nothrow_t &) noexcept {
  ompx_heap_free(Ptr);
}
void operator delete[](void *Ptr, const std::nothrow_t &) noexcept {
  ompx_heap_free(Ptr);
}
void operator delete(void *Ptr, std::align_val_t,
                     const std::nothrow_t &) noexcept {
  ompx_heap_free(Ptr);
}
void operator delete[](void *Ptr, std::align_val_t,
                       const std::nothrow_t &) noexcept {
  ompx_heap_free(Ptr);
}
