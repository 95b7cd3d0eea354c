//===- Runtime.h - Registered libraries, plugins and devices -------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The process-wide state of libomptarget: the plugins it found next to
// itself, the devices they provide (numbered in the order their plugin got
// its first compatible image, as upstream does), and the binary descriptors
// registered by executables and dlopen'ed libraries.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_LIBOMPTARGET_RUNTIME_H
#define OFFLOAD_LIBOMPTARGET_RUNTIME_H

#include "EntryTable.h"
#include "IndirectCallTable.h"
#include "MappingTable.h"
#include "PluginInterface.h"

#include <atomic>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace offload {

/// One device image of a registered descriptor, unwrapped from its
/// OffloadBinary container when it had one.
struct ImageRecord {
  plugin::DeviceImageRef Ref;
  std::string Triple, Arch, Description;
  std::vector<OffloadEntry> Entries;
};

struct RegisteredLibrary {
  const __tgt_bin_desc *Desc = nullptr;
  std::vector<OffloadEntry> HostEntries;
  std::vector<ImageRecord> Images;
};

struct PluginRecord {
  std::string Name;
  void *Handle = nullptr;
  plugin::GenericPlugin *Plugin = nullptr;
  bool Active = false;
  int32_t FirstDeviceId = 0;
  int32_t NumDevices = 0;
};

/// libomptarget's view of one device.
class Device {
public:
  Device(int32_t Id, PluginRecord &Plugin, int32_t PluginDeviceId)
      : Id(Id), Plugin(Plugin), PluginDeviceId(PluginDeviceId) {}

  const int32_t Id;
  PluginRecord &Plugin;
  const int32_t PluginDeviceId;

  /// Makes the device usable and loads every registered image it has not
  /// loaded yet. Returns false (after printing why) on failure.
  bool prepare();
  plugin::GenericDevice &plugin() { return *PluginDevice; }

  /// The kernel registered for the host entry address \p HostId, or null.
  /// \p Name points into the registered entry table, which outlives the
  /// kernel handle.
  plugin::KernelHandle findKernel(const void *HostId, const char *&Name);

  void loadLibrary(RegisteredLibrary &Lib);
  void unloadLibrary(RegisteredLibrary &Lib);

  /// Guards Table and every map/unmap sequence.
  std::mutex MapLock;
  MappingTable Table;

  void dumpMappingTable(const char *Why);

  /// omp_get_uid_from_device's answer; valid as long as the process.
  const char *uid();

private:
  struct LoadedLibrary {
    plugin::LoadedImage *Image = nullptr;
    std::vector<const void *> KernelIds;
    std::vector<uintptr_t> GlobalHostAddresses;
  };
  std::mutex ImageLock;
  std::string UID;
  plugin::GenericDevice *PluginDevice = nullptr;
  bool Broken = false;
  uint64_t LoadedGeneration = ~0ull;
  std::map<const RegisteredLibrary *, LoadedLibrary> Libraries;
  /// `declare target indirect` pairs of the loaded images.
  IndirectCallRegistry IndirectCalls;
  struct KernelRecord {
    plugin::KernelHandle Handle;
    const char *Name;
  };
  std::unordered_map<const void *, KernelRecord> Kernels;
};

class Runtime {
public:
  static Runtime &get();

  void registerLibrary(const __tgt_bin_desc *Desc);
  void unregisterLibrary(const __tgt_bin_desc *Desc);

  int32_t numDevices();
  /// Device \p Id, or null when there is no such device.
  Device *device(int64_t Id);

  /// OMP_REQ_* flags from `#pragma omp requires`.
  void addRequires(int64_t Flags);
  int64_t requires() const { return RequiresFlags.load(); }
  bool unifiedSharedMemory() const {
    return requires() & OMP_REQ_UNIFIED_SHARED_MEMORY;
  }

  /// Every registered library, for devices catching up. Callers hold Lock.
  std::list<RegisteredLibrary> Libraries;
  std::recursive_mutex Lock;
  std::atomic<uint64_t> Generation{0};
  /// Set once exit() has begun (see registerLibrary).
  std::atomic<bool> Exiting{false};

private:
  Runtime() = default;
  void loadPluginsLocked();
  PluginRecord *pluginForImage(const ImageRecord &Image);

  std::atomic<bool> PluginsLoaded{false};
  std::vector<std::unique_ptr<PluginRecord>> Plugins;
  std::vector<std::unique_ptr<Device>> Devices;
  std::atomic<int32_t> NumActiveDevices{0};
  std::atomic<int64_t> RequiresFlags{0};
};

} // namespace offload

#endif // OFFLOAD_LIBOMPTARGET_RUNTIME_H
