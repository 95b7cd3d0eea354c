//===- IndirectCallInstall.h - Put an indirect-call table on a device -----===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Installing a `declare target indirect` table is the same for every plugin
// (the seed's `__tgt_rtl_set_function_ptr_map` contract): copy the sorted
// (host address, device address) pairs into device memory and point the
// image's device environment at them, so the device runtime's
// __llvm_omp_indirect_call_lookup finds them. This helper does it through
// the GenericDevice interface only (getGlobal, allocate, dataSubmit,
// dataRetrieve). Both ways in use it: GenericDevice::setIndirectCallTable
// (libomptarget, per image; see PluginDevice.h) and the exported
// __tgt_rtl_set_function_ptr_map (PluginEntryPoints.h).
//
// Tables are never freed while their image is loaded: a kernel of the image
// may still be reading the old table when a newly loaded library makes the
// runtime install a larger one. Installing zero pairs uninstalls the table
// and frees every table the image had; libomptarget does that before it
// unloads an image, and PluginDevice frees what is left when it unloads one.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_PLUGINS_COMMON_INDIRECTCALLINSTALL_H
#define OFFLOAD_PLUGINS_COMMON_INDIRECTCALLINSTALL_H

#include "FunctionPtrMap.h"
#include "Guarded.h"
#include "PluginInterface.h"

// The device runtime's own definitions of what is written here
// (freestanding; the plugins use its structures, never its code).
#include "DeviceABI.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

namespace offload {
namespace plugin {

/// The device runtime's `__omp_rtl_device_environment` (the same layout as
/// upstream's DeviceEnvironmentTy).
using DeviceEnvironmentLayout = ompx::DeviceEnvironmentTy;

/// The seed's table entry is what the device runtime binary-searches, so a
/// caller's table is copied to the device as it is.
static_assert(sizeof(__omp_offloading_fptr_map_ty) ==
                      sizeof(ompx::IndirectCallEntryTy) &&
                  offsetof(__omp_offloading_fptr_map_ty, host_ptr) ==
                      offsetof(ompx::IndirectCallEntryTy, HostPtr) &&
                  offsetof(__omp_offloading_fptr_map_ty, tgt_ptr) ==
                      offsetof(ompx::IndirectCallEntryTy, DevicePtr) &&
                  sizeof(__omp_offloading_fptr_map_ty::host_ptr) ==
                      sizeof(void *),
              "__omp_offloading_fptr_map_ty differs from the device "
              "runtime's IndirectCallEntryTy");

constexpr const char *DeviceEnvironmentSymbol = "__omp_rtl_device_environment";

namespace detail {
/// Tables installed per image and not yet freed.
using InstalledIndirectTables =
    std::map<const LoadedImage *, std::vector<void *>>;
/// The tables of every device, reachable only with their lock held.
inline Guarded<InstalledIndirectTables> &installedIndirectTables() {
  // Never destroyed: images are unregistered (and their tables freed)
  // from program destructors that can run after static destructors.
  static auto *Instance = new Guarded<InstalledIndirectTables>();
  return *Instance;
}
} // namespace detail

/// Frees every table installed into \p Image (which is going away) without
/// touching the image itself.
inline void releaseIndirectCallTables(GenericDevice &Device,
                                      const LoadedImage *Image) {
  auto Installed = detail::installedIndirectTables().lock();
  auto It = Installed->find(Image);
  if (It == Installed->end())
    return;
  for (void *Old : It->second)
    (void)Device.free(Old, AllocKind::Device);
  Installed->erase(It);
}

/// Checks what a caller of __tgt_rtl_set_function_ptr_map hands over: a
/// table for every non-zero size, host addresses strictly increasing (the
/// device runtime bisects the table; out of order, lookups would silently
/// miss).
inline Status checkFunctionPtrMap(const __omp_offloading_fptr_map_ty *Entries,
                                  uint64_t Count) {
  if (Count && !Entries)
    return Status::error("the table of %llu entries is a null pointer",
                         static_cast<unsigned long long>(Count));
  if (Count > SIZE_MAX / sizeof(__omp_offloading_fptr_map_ty))
    return Status::error("a table of %llu entries cannot be addressed",
                         static_cast<unsigned long long>(Count));
  for (uint64_t I = 1; I < Count; ++I) {
    uint64_t Previous = static_cast<uint64_t>(Entries[I - 1].host_ptr);
    uint64_t Current = static_cast<uint64_t>(Entries[I].host_ptr);
    if (Current <= Previous)
      return Status::error(
          "entry %llu (host_ptr 0x%llx) %s entry %llu (host_ptr 0x%llx): "
          "entries must be sorted by host_ptr, each host address once",
          static_cast<unsigned long long>(I),
          static_cast<unsigned long long>(Current),
          Current == Previous ? "repeats" : "is below",
          static_cast<unsigned long long>(I - 1),
          static_cast<unsigned long long>(Previous));
  }
  return Status::ok();
}

/// Installs the \p Count entries of \p Entries (sorted by host address)
/// into \p Image on \p Device; \p Count 0 removes the table and frees the
/// image's earlier tables. An image without a device environment (not
/// linked with our device runtime or upstream's) has no lookup to feed and
/// is left alone.
inline Status
installIndirectCallEntries(GenericDevice &Device, LoadedImage *Image,
                           const __omp_offloading_fptr_map_ty *Entries,
                           size_t Count) {
  void *EnvAddress = nullptr;
  if (Device.getGlobal(Image, DeviceEnvironmentSymbol,
                       sizeof(DeviceEnvironmentLayout), EnvAddress))
    return Status::ok();
  DeviceEnvironmentLayout Env;
  if (Status S = Device.dataRetrieve(&Env, EnvAddress, sizeof(Env), nullptr))
    return Status::error("cannot read %s: %s", DeviceEnvironmentSymbol,
                         S.message().c_str());

  void *Table = nullptr;
  if (Count) {
    uint64_t Bytes = Count * sizeof(__omp_offloading_fptr_map_ty);
    Table = Device.allocate(Bytes, AllocKind::Device);
    if (!Table)
      return Status::error("cannot allocate %llu bytes of device memory for "
                           "the indirect-call table (%zu functions)",
                           static_cast<unsigned long long>(Bytes), Count);
    if (Status S = Device.dataSubmit(Table, Entries,
                                     static_cast<int64_t>(Bytes), nullptr)) {
      (void)Device.free(Table, AllocKind::Device);
      return Status::error("cannot copy the indirect-call table: %s",
                           S.message().c_str());
    }
  }
  Env.IndirectCallTable = reinterpret_cast<uintptr_t>(Table);
  Env.IndirectCallTableSize = Count;
  if (Status S = Device.dataSubmit(EnvAddress, &Env, sizeof(Env), nullptr)) {
    if (Table)
      (void)Device.free(Table, AllocKind::Device);
    return Status::error("cannot write %s: %s", DeviceEnvironmentSymbol,
                         S.message().c_str());
  }

  if (!Table) {
    releaseIndirectCallTables(Device, Image);
    return Status::ok();
  }
  auto Installed = detail::installedIndirectTables().lock();
  (*Installed)[Image].push_back(Table);
  return Status::ok();
}

/// The same for a table given as two parallel arrays (\p HostAddresses[i]
/// -> \p DeviceAddresses[i]), as GenericDevice::setIndirectCallTable
/// receives it.
inline Status installIndirectCallTable(GenericDevice &Device,
                                       LoadedImage *Image,
                                       const void *const *HostAddresses,
                                       const void *const *DeviceAddresses,
                                       size_t Count) {
  std::vector<__omp_offloading_fptr_map_ty> Entries(Count);
  for (size_t I = 0; I < Count; ++I) {
    Entries[I].host_ptr = reinterpret_cast<intptr_t>(HostAddresses[I]);
    Entries[I].tgt_ptr = reinterpret_cast<intptr_t>(DeviceAddresses[I]);
  }
  return installIndirectCallEntries(Device, Image, Entries.data(), Count);
}

} // namespace plugin
} // namespace offload

#endif // OFFLOAD_PLUGINS_COMMON_INDIRECTCALLINSTALL_H
