//===- IndirectCallInstall.h - Put an indirect-call table on a device -*- C++
//-*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What GenericDevice::setIndirectCallTable has to do is the same for every
// plugin (the seed's `__tgt_rtl_set_function_ptr_map` contract): copy the
// sorted (host address, device address) pairs into device memory and point
// the image's device environment at them, so the device runtime's
// __llvm_omp_indirect_call_lookup finds them. This helper does it through
// the GenericDevice interface only (getGlobal, allocate, dataSubmit,
// dataRetrieve), so a plugin's setIndirectCallTable is one call.
//
// Tables are never freed while their image is loaded: a kernel of the image
// may still be reading the old table when a newly loaded library makes the
// runtime install a larger one. Installing zero pairs uninstalls the table
// and frees every table the image had; libomptarget does that before it
// unloads an image.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_PLUGINS_COMMON_INDIRECTCALLINSTALL_H
#define OFFLOAD_PLUGINS_COMMON_INDIRECTCALLINSTALL_H

#include "PluginInterface.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <vector>

namespace offload {
namespace plugin {

/// The device runtime's `__omp_rtl_device_environment` (the same layout as
/// upstream's DeviceEnvironmentTy; openmp/device/include/DeviceABI.h).
struct DeviceEnvironmentLayout {
  uint32_t DeviceDebugKind;
  uint32_t NumDevices;
  uint32_t DeviceNum;
  uint32_t DynamicMemSize;
  uint64_t ClockFrequency;
  uintptr_t IndirectCallTable;
  uint64_t IndirectCallTableSize;
  uint64_t HardwareParallelism;
};
static_assert(offsetof(DeviceEnvironmentLayout, IndirectCallTable) == 24 &&
                  sizeof(DeviceEnvironmentLayout) == 48,
              "layout of __omp_rtl_device_environment changed");

constexpr const char *DeviceEnvironmentSymbol = "__omp_rtl_device_environment";

namespace detail {
/// Tables installed per image and not yet freed.
struct InstalledIndirectTables {
  std::mutex Lock;
  std::map<const LoadedImage *, std::vector<void *>> Tables;
  static InstalledIndirectTables &get() {
    // Never destroyed: images are unregistered (and their tables freed)
    // from program destructors that can run after static destructors.
    static InstalledIndirectTables *Instance = new InstalledIndirectTables();
    return *Instance;
  }
};
} // namespace detail

/// Installs \p Count pairs (\p HostAddresses[i] -> \p DeviceAddresses[i],
/// sorted by host address) into \p Image on \p Device; \p Count 0 removes
/// the table and frees the image's earlier tables. An image without a
/// device environment (not linked with our device runtime or upstream's)
/// has no lookup to feed and is left alone.
inline Status installIndirectCallTable(GenericDevice &Device,
                                       LoadedImage *Image,
                                       const void *const *HostAddresses,
                                       const void *const *DeviceAddresses,
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
    std::vector<uintptr_t> Pairs(2 * Count);
    for (size_t I = 0; I < Count; ++I) {
      Pairs[2 * I] = reinterpret_cast<uintptr_t>(HostAddresses[I]);
      Pairs[2 * I + 1] = reinterpret_cast<uintptr_t>(DeviceAddresses[I]);
    }
    uint64_t Bytes = Pairs.size() * sizeof(uintptr_t);
    Table = Device.allocate(Bytes, AllocKind::Device);
    if (!Table)
      return Status::error("cannot allocate %llu bytes of device memory for "
                           "the indirect-call table (%zu functions)",
                           static_cast<unsigned long long>(Bytes), Count);
    if (Status S = Device.dataSubmit(Table, Pairs.data(),
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

  auto &Installed = detail::InstalledIndirectTables::get();
  std::lock_guard<std::mutex> Guard(Installed.Lock);
  if (Table) {
    Installed.Tables[Image].push_back(Table);
    return Status::ok();
  }
  auto It = Installed.Tables.find(Image);
  if (It != Installed.Tables.end()) {
    for (void *Old : It->second)
      (void)Device.free(Old, AllocKind::Device);
    Installed.Tables.erase(It);
  }
  return Status::ok();
}

} // namespace plugin
} // namespace offload

#endif // OFFLOAD_PLUGINS_COMMON_INDIRECTCALLINSTALL_H
