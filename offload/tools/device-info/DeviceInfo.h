//===- DeviceInfo.h - What llvm-offload-device-info reports -----*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// llvm-offload-device-info (also llvm-omp-device-info, upstream's older name)
// loads every plugin libomptarget would load, from the same folder and
// through the same entry point, and prints each device's properties
// (GenericDevice::getProperties) or, for a plugin without devices, why
// (GenericPlugin::getUnavailableReason): the first thing to run when a GPU
// is not used. Collecting and printing are separate so that the output can
// be tested without plugins.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_TOOLS_DEVICEINFO_DEVICEINFO_H
#define OFFLOAD_TOOLS_DEVICEINFO_DEVICEINFO_H

#include "PluginInterface.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>
#include <vector>

namespace offload {
namespace deviceinfo {

/// One device of a plugin: its properties, or why it could not be set up.
struct DeviceEntry {
  int32_t Index = 0;
  plugin::DeviceProperties Properties;
  std::string Error;
};

/// One plugin library: whether it loaded, its devices, and why it has
/// none.
struct PluginEntry {
  std::string Name; ///< "cuda" for libomptarget.rtl.cuda.so
  std::string Path;
  std::string LoadError;
  std::string NoDeviceReason;
  std::vector<DeviceEntry> Devices;
};

/// The plugin libraries (libomptarget.rtl.<name>.so) in \p LibDir, in the
/// order libomptarget tries them: GPU plugins first, the host plugin last.
std::vector<std::string> findPlugins(const std::string &LibDir);

/// Loads the plugin at \p Path and asks it about every device.
PluginEntry queryPlugin(const std::string &Name, const std::string &Path);

/// The report: per plugin, each device's properties, or one line saying why
/// it has none.
void printReport(llvm::ArrayRef<PluginEntry> Plugins, llvm::raw_ostream &OS);

} // namespace deviceinfo
} // namespace offload

#endif // OFFLOAD_TOOLS_DEVICEINFO_DEVICEINFO_H
