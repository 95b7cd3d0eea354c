//===- PluginEntryPoints.h - C symbols of a plugin library ------*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Every plugin library exports the same two C functions:
//
// - __offload_plugin_create (OFFLOAD_PLUGIN_ENTRY_SYMBOL), which libomptarget
//   calls to get the plugin object. The object is allocated once and never
//   destroyed, so no plugin or device destructor (nor a driver's shutdown)
//   runs while exit() runs the program's destructors, some of which still
//   unregister images;
// - __tgt_rtl_set_function_ptr_map (FunctionPtrMap.h), the seed's
//   indirect-call table API, on the same plugin object.
//
// A plugin source ends with OFFLOAD_PLUGIN_ENTRY_POINTS(<plugin class>);
// the class must be default-constructible and its getDevice must return
// its own device type, derived from PluginDevice (a covariant override), so
// the table reaches the device's images without a cast.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_PLUGINS_COMMON_PLUGINENTRYPOINTS_H
#define OFFLOAD_PLUGINS_COMMON_PLUGINENTRYPOINTS_H

#include "FunctionPtrMap.h"
#include "IndirectCallInstall.h"
#include "PluginDevice.h"
#include "PluginInterface.h"

#include <cstdint>
#include <cstdio>

namespace offload {
namespace plugin {

/// What __tgt_rtl_set_function_ptr_map does for \p Plugin. Returns 0, or
/// prints the reason and returns -1.
template <typename PluginT>
int32_t setFunctionPtrMap(PluginT &Plugin, int32_t DeviceId, uint64_t TableSize,
                          const __omp_offloading_fptr_map_ty *Table) {
  Status Result;
  int32_t NumDevices = Plugin.getNumDevices();
  if (DeviceId < 0 || DeviceId >= NumDevices) {
    Result = Status::error(
        "the %s plugin has no device %d (it has %d; device numbers are the "
        "plugin's own, from 0, and a plugin has devices once libomptarget "
        "has initialized it for an image)",
        Plugin.getName(), DeviceId, NumDevices);
  } else if (Status Bad = checkFunctionPtrMap(Table, TableSize)) {
    Result = Bad;
  } else {
    Status Error;
    PluginDevice *Device = Plugin.getDevice(DeviceId, Error);
    Result = Device ? Device->installFunctionPtrMap(
                          Table, static_cast<size_t>(TableSize))
                    : Error;
    if (Result && Device)
      Result = Status::error("%s plugin device %d: %s", Plugin.getName(),
                             DeviceId, Result.message().c_str());
  }
  if (!Result)
    return 0;
  std::fprintf(stderr, "omptarget error: __tgt_rtl_set_function_ptr_map: %s\n",
               Result.message().c_str());
  return -1;
}

} // namespace plugin
} // namespace offload

#define OFFLOAD_PLUGIN_EXPORT __attribute__((visibility("default")))

/// Defines the exported C functions of a plugin library whose plugin class
/// is \p PluginClass (at global scope, once per library).
#define OFFLOAD_PLUGIN_ENTRY_POINTS(PluginClass)                               \
  static PluginClass &offloadPluginInstance() {                                \
    static PluginClass *const Instance = new PluginClass();                    \
    return *Instance;                                                          \
  }                                                                            \
  extern "C" OFFLOAD_PLUGIN_EXPORT ::offload::plugin::GenericPlugin *          \
  __offload_plugin_create(uint32_t Version) {                                  \
    if (Version != ::offload::plugin::InterfaceVersion)                        \
      return nullptr;                                                          \
    return &offloadPluginInstance();                                           \
  }                                                                            \
  extern "C" int32_t __tgt_rtl_set_function_ptr_map(                           \
      int32_t DeviceId, uint64_t TableSize,                                    \
      __omp_offloading_fptr_map_ty *Table) {                                   \
    return ::offload::plugin::setFunctionPtrMap(offloadPluginInstance(),       \
                                                DeviceId, TableSize, Table);   \
  }

#endif // OFFLOAD_PLUGINS_COMMON_PLUGINENTRYPOINTS_H
