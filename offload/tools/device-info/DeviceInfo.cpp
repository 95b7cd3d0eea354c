//===- DeviceInfo.cpp - What llvm-offload-device-info reports -------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "DeviceInfo.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"

#include <dlfcn.h>

using namespace offload;
using namespace offload::deviceinfo;

static constexpr llvm::StringLiteral Prefix = "libomptarget.rtl.";
static constexpr llvm::StringLiteral Suffix = ".so";

std::vector<std::string> deviceinfo::findPlugins(const std::string &LibDir) {
  std::vector<std::string> Names;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(LibDir, EC), End; It != End && !EC;
       It.increment(EC)) {
    llvm::StringRef File = llvm::sys::path::filename(It->path());
    if (File.consume_front(Prefix) && File.consume_back(Suffix) &&
        !File.empty())
      Names.push_back(File.str());
  }
  // libomptarget gives GPU plugins the first device numbers and the host
  // plugin the last; list them that way.
  llvm::sort(Names, [](const std::string &A, const std::string &B) {
    bool HostA = A == "host", HostB = B == "host";
    return HostA != HostB ? HostB : A < B;
  });
  return Names;
}

PluginEntry deviceinfo::queryPlugin(const std::string &Name,
                                    const std::string &Path) {
  PluginEntry Entry;
  Entry.Name = Name;
  Entry.Path = Path;
  // Never closed: a plugin's driver threads may outlive any attempt to
  // unload it, as in libomptarget.
  void *Handle = dlopen(Path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!Handle) {
    const char *Message = dlerror();
    Entry.LoadError = Message ? Message : "dlopen failed";
    return Entry;
  }
  auto Create = reinterpret_cast<offload_plugin_create_fn>(
      dlsym(Handle, OFFLOAD_PLUGIN_ENTRY_SYMBOL));
  plugin::GenericPlugin *Plugin =
      Create ? Create(plugin::InterfaceVersion) : nullptr;
  if (!Plugin) {
    Entry.LoadError = Create ? "it does not provide plugin interface version " +
                                   std::to_string(plugin::InterfaceVersion)
                             : "it has no " OFFLOAD_PLUGIN_ENTRY_SYMBOL;
    return Entry;
  }
  int32_t Count = Plugin->initialize();
  if (Count <= 0)
    Entry.NoDeviceReason = Plugin->getUnavailableReason();
  for (int32_t I = 0; I < Count; ++I) {
    DeviceEntry Device;
    Device.Index = I;
    plugin::Status Error;
    if (plugin::GenericDevice *D = Plugin->getDevice(I, Error))
      Device.Properties = D->getProperties();
    else
      Device.Error = Error.message();
    Entry.Devices.push_back(std::move(Device));
  }
  return Entry;
}

/// "80.0 GiB (85899345920 bytes)".
static std::string bytes(uint64_t Value) {
  static const char *const Units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
  double Scaled = double(Value);
  unsigned Unit = 0;
  while (Scaled >= 1024 && Unit + 1 < std::size(Units)) {
    Scaled /= 1024;
    ++Unit;
  }
  if (Unit == 0)
    return std::to_string(Value) + " bytes";
  std::string Text;
  llvm::raw_string_ostream(Text)
      << llvm::format("%.1f %s (%llu bytes)", Scaled, Units[Unit],
                      static_cast<unsigned long long>(Value));
  return Text;
}

static std::string megahertz(uint32_t KHz) {
  std::string Text;
  llvm::raw_string_ostream(Text) << llvm::format("%.0f MHz", KHz / 1000.0);
  return Text;
}

template <typename T> static std::string extents(const T (&Dims)[3]) {
  return std::to_string(Dims[0]) + " x " + std::to_string(Dims[1]) + " x " +
         std::to_string(Dims[2]);
}

static void printDevice(const PluginEntry &Plugin, const DeviceEntry &Device,
                        llvm::raw_ostream &OS) {
  // "[<name>]" opens a device as in upstream's tool, whose output people
  // and upstream's own test grep.
  if (!Device.Error.empty()) {
    OS << "  " << Plugin.Name << " device " << Device.Index
       << ":\n    cannot be used: " << Device.Error << "\n";
    return;
  }
  OS << "  [" << (Device.Properties.Name.empty() ? "unnamed device"
                                                : Device.Properties.Name)
     << "] " << Plugin.Name << " device " << Device.Index << ":\n";
  const plugin::DeviceProperties &P = Device.Properties;
  // Properties the plugin does not know (0 or empty) are left out.
  auto Line = [&](llvm::StringRef Key, const std::string &Value) {
    if (!Value.empty())
      OS << "    " << llvm::left_justify(Key, 28) << Value << "\n";
  };
  auto Number = [](uint64_t Value) {
    return Value ? std::to_string(Value) : std::string();
  };
  Line("Name", P.Name);
  Line("Vendor", P.Vendor);
  Line("Architecture", P.Architecture);
  Line("Driver", P.DriverVersion);
  Line("Global memory", P.GlobalMemoryBytes ? bytes(P.GlobalMemoryBytes) : "");
  Line("Shared memory per block",
       P.SharedMemoryPerBlockBytes ? bytes(P.SharedMemoryPerBlockBytes) : "");
  Line("Clock", P.ClockKHz ? megahertz(P.ClockKHz) : "");
  Line("Memory clock", P.MemoryClockKHz ? megahertz(P.MemoryClockKHz) : "");
  Line("Multiprocessors", Number(P.Multiprocessors));
  Line("Warp size", Number(P.WarpSize));
  Line("Max threads per block", Number(P.MaxThreadsPerBlock));
  Line("Max block dimensions",
       P.MaxBlockDims[0] ? extents(P.MaxBlockDims) : "");
  Line("Max grid dimensions", P.MaxGridDims[0] ? extents(P.MaxGridDims) : "");
  std::string Unified = P.UnifiedMemory ? "yes" : "no";
  if (!P.UnifiedMemoryDetail.empty())
    Unified += " (" + P.UnifiedMemoryDetail + ")";
  Line("Unified shared memory", Unified);
  for (const auto &[Key, Value] : P.Extra)
    Line(Key, Value);
}

void deviceinfo::printReport(llvm::ArrayRef<PluginEntry> Plugins,
                             llvm::raw_ostream &OS) {
  if (Plugins.empty()) {
    OS << "no offload plugin found\n";
    return;
  }
  // Upstream's first line, with the same words: the devices programs can
  // use, every plugin's together.
  size_t Usable = 0;
  for (const PluginEntry &Plugin : Plugins)
    Usable += llvm::count_if(Plugin.Devices, [](const DeviceEntry &Device) {
      return Device.Error.empty();
    });
  OS << "Num Devices: " << Usable << "\n";
  for (const PluginEntry &Plugin : Plugins) {
    if (!Plugin.LoadError.empty()) {
      OS << Plugin.Name << " plugin: cannot be loaded: " << Plugin.LoadError
         << "\n";
      continue;
    }
    if (Plugin.Devices.empty()) {
      OS << Plugin.Name << " plugin: no device: "
         << (Plugin.NoDeviceReason.empty() ? std::string("zero devices")
                                           : Plugin.NoDeviceReason)
         << "\n";
      continue;
    }
    OS << Plugin.Name << " plugin: " << Plugin.Devices.size()
       << (Plugin.Devices.size() == 1 ? " device\n" : " devices\n");
    for (const DeviceEntry &Device : Plugin.Devices)
      printDevice(Plugin, Device, OS);
  }
}
