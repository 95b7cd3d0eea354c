//===- DeviceMemory.cpp - The emulated device's memory --------------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "DeviceMemory.h"
#include "Checkers.h"
#include "MemoryShadow.h"

#include <cstdio>
#include <cstdlib>
#include <sys/mman.h>

namespace gpuemu {
namespace {
constexpr size_t Alignment = 256;
constexpr size_t DefaultCapacity = size_t(16) << 30;
} // namespace

DeviceMemory &DeviceMemory::get() {
  static DeviceMemory *Memory = new DeviceMemory(); // never destroyed
  return *Memory;
}

DeviceMemory::DeviceMemory() {
  Capacity = DefaultCapacity;
  if (const char *Env = std::getenv("GPUEMU_MEMORY"))
    Capacity = size_t(std::strtoull(Env, nullptr, 10));
  Capacity = (Capacity + Alignment - 1) / Alignment * Alignment;
  void *Range = mmap(nullptr, Capacity, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (Range == MAP_FAILED) {
    fprintf(stderr,
            "gpu-emulator: cannot reserve %zu bytes of device "
            "memory (GPUEMU_MEMORY)\n",
            Capacity);
    Capacity = 0;
    return;
  }
  Base = static_cast<char *>(Range);
  Free[uintptr_t(Base)] = Capacity;
  MemoryShadow::create(Base, Capacity);
}

void *DeviceMemory::allocate(size_t Bytes) {
  void *P = allocateRounded(Bytes);
  if (MemoryShadow *Shadow = MemoryShadow::get())
    if (P)
      Shadow->allocated(P, Bytes);
  return P;
}

void *DeviceMemory::allocateRounded(size_t Bytes) {
  Bytes = (Bytes ? Bytes + Alignment - 1 : Alignment) / Alignment * Alignment;
  std::lock_guard<std::mutex> Guard(Lock);
  for (auto It = Free.begin(); It != Free.end(); ++It) {
    if (It->second < Bytes)
      continue;
    uintptr_t Start = It->first;
    size_t Left = It->second - Bytes;
    Free.erase(It);
    if (Left)
      Free[Start + Bytes] = Left;
    Allocated[Start] = Bytes;
    return reinterpret_cast<void *>(Start);
  }
  return nullptr;
}

bool DeviceMemory::free(void *Ptr) {
  MemoryShadow *Shadow = MemoryShadow::get();
  if (Shadow && checking(MemCheck))
    checkFree(*Shadow, Ptr);
  std::lock_guard<std::mutex> Guard(Lock);
  auto It = Allocated.find(uintptr_t(Ptr));
  if (It == Allocated.end())
    return false;
  uintptr_t Start = It->first;
  size_t Bytes = It->second;
  Allocated.erase(It);
  if (Shadow)
    Shadow->freed(Ptr, Bytes);
  // Give large blocks' pages back; a new allocation sees zeros, as many
  // GPUs' fresh allocations do, but programs must not rely on it.
  if (Bytes >= (size_t(1) << 20))
    madvise(Ptr, Bytes, MADV_DONTNEED);
  auto Next = Free.lower_bound(Start);
  if (Next != Free.end() && Start + Bytes == Next->first) {
    Bytes += Next->second;
    Next = Free.erase(Next);
  }
  if (Next != Free.begin()) {
    auto Prev = std::prev(Next);
    if (Prev->first + Prev->second == Start) {
      Prev->second += Bytes;
      return true;
    }
  }
  Free[Start] = Bytes;
  return true;
}

void DeviceMemory::checkFree(MemoryShadow &Shadow, void *Ptr) {
  {
    std::lock_guard<std::mutex> Guard(Lock);
    if (Allocated.count(uintptr_t(Ptr)) || !Shadow.covers(Ptr))
      return;
  }
  // The drivers answer CUDA_ERROR_INVALID_VALUE anyway; memcheck says why
  // (in a kernel, where free has no result, it ends the launch).
  std::string What = Shadow.describe(Ptr);
  bool Twice = What.find("freed") != std::string::npos;
  char Address[32];
  snprintf(Address, sizeof(Address), "%p", Ptr);
  reportCheck("memcheck",
              std::string(Twice ? "double free" : "free") +
                  " of device memory at " + Address +
                  (Twice ? "" : ", which is not an allocation: " + What),
              nullptr);
}

bool DeviceMemory::inside(const std::map<uintptr_t, size_t> &Ranges,
                          uintptr_t P, size_t Bytes) {
  auto It = Ranges.upper_bound(P);
  if (It == Ranges.begin())
    return false;
  --It;
  return P >= It->first && P + Bytes <= It->first + It->second;
}

bool DeviceMemory::isDevice(const void *Ptr, size_t Bytes) const {
  std::lock_guard<std::mutex> Guard(Lock);
  return inside(Allocated, uintptr_t(Ptr), Bytes) ||
         inside(Registered, uintptr_t(Ptr), Bytes);
}

void DeviceMemory::addRange(const void *Start, size_t Bytes) {
  std::lock_guard<std::mutex> Guard(Lock);
  Registered[uintptr_t(Start)] = Bytes;
}

void DeviceMemory::removeRange(const void *Start) {
  std::lock_guard<std::mutex> Guard(Lock);
  Registered.erase(uintptr_t(Start));
}

} // namespace gpuemu
