//===- DeviceMemory.cpp - A device's memory -------------------------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The device memory the runtime allocates for its own use (maps, private
// copies, omp_target_alloc), counted for LIBOMPTARGET_ALLOCATION_REPORT,
// and the page-locking of the host ranges that maps mirror
// (LIBOMPTARGET_LOCK_MAPPED_HOST_BUFFERS).
//
//===----------------------------------------------------------------------===//

#include "diagnostics/Diagnostics.h"
#include "images/Runtime.h"
#include "ompt/OMPT.h"

#include <cstdlib>
#include <cstring>
#include <strings.h>

using namespace offload;

namespace {
/// LIBOMPTARGET_LOCK_MAPPED_HOST_BUFFERS, read as upstream's runtime reads
/// it: a boolean (on: best effort, a range the driver will not lock is
/// copied as it is) or "mandatory" (a lock failure fails the map).
enum class LockMapped { Off, BestEffort, Mandatory };

LockMapped lockMappedSetting() {
  static const LockMapped Setting = [] {
    const char *Env = getenv("LIBOMPTARGET_LOCK_MAPPED_HOST_BUFFERS");
    if (!Env || !*Env)
      return LockMapped::Off;
    std::string Value = Env;
    for (char &C : Value)
      C = char(std::tolower(static_cast<unsigned char>(C)));
    if (Value == "mandatory")
      return LockMapped::Mandatory;
    for (const char *On : {"1", "on", "true", "yes"})
      if (Value == On)
        return LockMapped::BestEffort;
    for (const char *Off : {"0", "off", "false", "no"})
      if (Value == Off)
        return LockMapped::Off;
    errorMessage("LIBOMPTARGET_LOCK_MAPPED_HOST_BUFFERS='%s' is not on, off "
                 "or mandatory: mapped host buffers are not locked",
                 Env);
    return LockMapped::Off;
  }();
  return Setting;
}
} // namespace

bool Device::lockMappedHostBuffer(void *Block, const void *HostPtr,
                                  uint64_t Size) {
  LockMapped Setting = lockMappedSetting();
  if (Setting == LockMapped::Off)
    return true;
  void *Host = const_cast<void *>(HostPtr);
  void *Locked = nullptr;
  if (plugin::Status S = plugin().lockHostMemory(Host, Size, Locked)) {
    if (Setting == LockMapped::BestEffort)
      return true;
    errorMessage("device %d: LIBOMPTARGET_LOCK_MAPPED_HOST_BUFFERS=mandatory: "
                 "%s",
                 Id, S.message().c_str());
    return false;
  }
  LockedForMaps.lock()->emplace(Block, Host);
  return true;
}

void Device::unlockMappedHostBuffer(void *Block) {
  if (lockMappedSetting() == LockMapped::Off)
    return;
  void *Host = nullptr;
  {
    auto Locked = LockedForMaps.lock();
    auto It = Locked->find(Block);
    if (It == Locked->end())
      return;
    Host = It->second;
    Locked->erase(It);
  }
  if (plugin::Status S = plugin().unlockHostMemory(Host))
    errorMessage("device %d: %s", Id, S.message().c_str());
}

void *Device::allocate(uint64_t Size, plugin::AllocKind Kind,
                       const void *HostPtr) {
  ompt::DataOpScope Op(ompt::DataAlloc, HostPtr, /*SrcDevice=*/-1, nullptr, Id,
                       Size);
  void *Ptr = plugin().allocate(Size, Kind);
  Op.setDest(Ptr);
  if (Ptr) {
    LiveAllocations.fetch_add(1, std::memory_order_relaxed);
    TotalAllocations.fetch_add(1, std::memory_order_relaxed);
    // Storage that mirrors host data (a map): its copies go faster from
    // locked memory.
    if (HostPtr && Kind == plugin::AllocKind::Device &&
        !lockMappedHostBuffer(Ptr, HostPtr, Size)) {
      (void)free(Ptr, Kind);
      return nullptr;
    }
  }
  return Ptr;
}

plugin::Status Device::free(void *Ptr, plugin::AllocKind Kind) {
  ompt::DataOpScope Op(ompt::DataDelete, Ptr, Id, nullptr, /*DestDevice=*/-1,
                       0);
  if (Ptr && Kind == plugin::AllocKind::Device)
    unlockMappedHostBuffer(Ptr);
  plugin::Status S = plugin().free(Ptr, Kind);
  if (!S && Ptr)
    LiveAllocations.fetch_sub(1, std::memory_order_relaxed);
  return S;
}

void Device::reportAllocations() {
  static const bool Wanted = [] {
    const char *Env = getenv("LIBOMPTARGET_ALLOCATION_REPORT");
    return Env && *Env && std::strcmp(Env, "0") != 0;
  }();
  if (!Wanted || !PluginDevice.load())
    return;
  int64_t Live = LiveAllocations.load();
  infoMessage(Id, "%lld device allocation%s outstanding at exit (%llu made)",
              static_cast<long long>(Live), Live == 1 ? "" : "s",
              static_cast<unsigned long long>(TotalAllocations.load()));
}
