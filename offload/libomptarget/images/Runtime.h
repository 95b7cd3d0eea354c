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

#include "PluginInterface.h"
#include "images/EntryTable.h"
#include "images/Snapshot.h"
#include "indirect/IndirectCallTable.h"
#include "mapping/DeviceWork.h"
#include "mapping/MappingTable.h"

#include <array>
#include <atomic>
#include <deque>
#include <list>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

namespace offload {

/// One device image of a registered descriptor, unwrapped from its
/// OffloadBinary container when it had one.
struct ImageRecord {
  plugin::DeviceImageRef Ref;
  std::string Triple, Arch, Description;
  std::vector<ImageEntry> Entries;
};

struct PluginRecord {
  std::string Name;
  void *Handle = nullptr;
  plugin::GenericPlugin *Plugin = nullptr;
  bool Active = false;
  int32_t FirstDeviceId = 0;
  int32_t NumDevices = 0;
};

struct RegisteredLibrary;

/// What registration changes: reached only through Runtime::lockRegistry().
///
/// The lock is held briefly: by (un)registration, which runs inside a
/// dlopen/dlclose holding the dynamic loader's lock, so whoever holds it
/// must never wait for the loader: no image loading under it (the plugins
/// are dlopened under it, once, by the first registration). Lock order:
/// a device's Images, then its Mappings, then this.
struct Registry {
  /// Every registered library, for devices catching up.
  std::list<std::shared_ptr<RegisteredLibrary>> Libraries;
  std::vector<std::unique_ptr<PluginRecord>> Plugins;
  /// Whether a compilation unit registered its requires flags.
  bool RequiresRegistered = false;
};
using LockedRegistry = Guarded<Registry>::Access;

/// A registered descriptor. Its bytes (images, entry names) belong to the
/// executable or library that registered it and vanish with its dlclose, so
/// they are read only with the registry locked while the library is
/// registered (which unregistered() needs the lock to tell).
/// The record itself lives as long as a device still has its image loaded.
struct RegisteredLibrary {
  const __tgt_bin_desc *Desc = nullptr;
  std::vector<ImageEntry> HostEntries;
  std::vector<ImageRecord> Images;

  bool unregistered(const LockedRegistry &) const { return Unregistered; }
  void markUnregistered(const LockedRegistry &) { Unregistered = true; }

private:
  bool Unregistered = false;
};

/// One image loaded on a device, and the launches using its kernels.
///
/// The image is loaded from a private copy of the registered bytes and entry
/// names, taken with the registry locked: loading (dlopen for the CPU device)
/// takes the dynamic loader's lock, which a dlopen or dlclose on another
/// thread holds while its library registers or unregisters, so loading
/// must not hold the lock those wait for, nor read bytes they may unmap.
struct DeviceImage {
  plugin::LoadedImage *Image = nullptr;
  UseCount Launches;
  /// The image bytes and the plugin's view of them (strings point into the
  /// RegisteredLibrary, which outlives this).
  std::unique_ptr<char[]> Bytes;
  plugin::DeviceImageRef Ref;
  /// The image's entries, their names pointing into NameStorage.
  std::vector<ImageEntry> Entries;
  std::unique_ptr<char[]> NameStorage;
};

/// A kernel found for a launch. While it lives, its image stays loaded:
/// unloading the image waits for it.
class KernelLease {
public:
  KernelLease() = default;
  KernelLease(KernelLease &&Other)
      : Handle(Other.Handle), Name(Other.Name), Image(Other.Image) {
    Other.Image = nullptr;
  }
  KernelLease &operator=(KernelLease &&) = delete;
  ~KernelLease() {
    if (Image)
      Image->Launches.release();
  }
  explicit operator bool() const { return Image != nullptr; }
  plugin::KernelHandle handle() const { return Handle; }
  /// The entry name. It points into the loaded image's own copy of the
  /// names (DeviceImage::NameStorage), not the registered table, because a
  /// library may unregister and unmap its table while the lease keeps the
  /// image loaded.
  const char *name() const { return Name; }

private:
  friend class Device;
  KernelLease(plugin::KernelHandle Handle, const char *Name, DeviceImage *Image)
      : Handle(Handle), Name(Name), Image(Image) {
    Image->Launches.acquire();
  }
  plugin::KernelHandle Handle = nullptr;
  const char *Name = nullptr;
  DeviceImage *Image = nullptr;
};

/// libomptarget's view of one device.
///
/// Launches take no lock once the device is prepared: prepare() checks
/// atomics, and acquireKernel() reads a Snapshot of the kernels. What
/// changes images (loading and unloading libraries) holds the device's
/// Images lock, and the runtime's registry lock only while it copies what it
/// needs from the registry (never across a plugin call that may dlopen).
/// Unregistering a library only marks it; each device unloads its image in
/// its next prepare(), which every construct on the device runs first.
class Device : public DeviceWork {
public:
  Device(int32_t Id, PluginRecord &Plugin, int32_t PluginDeviceId)
      : DeviceWork(Id, /*Asynchronous=*/Plugin.Name != "host"),
        Plugin(Plugin), PluginDeviceId(PluginDeviceId) {}

  PluginRecord &Plugin;
  const int32_t PluginDeviceId;

  /// Makes the device usable, unloads the images of unregistered libraries
  /// and loads every registered image it has not loaded yet. Returns false
  /// (after printing why) on failure.
  bool prepare();
  /// Only creates the plugin's device (and tells tools), loading nothing:
  /// the start-up initialization tools that watch devices get (see
  /// Runtime::initializeDevicesForTools). Returns false on failure.
  bool initialize();
  /// Whether maps on this device use the host's memory instead of device
  /// copies: under `requires unified_shared_memory`, or when the plugin's
  /// device shares host memory and the user asked for it (OMPX_APU_MAPS).
  /// Only after prepare() returned true.
  bool zeroCopyMaps();

  /// The kernel registered for the host entry address \p HostId; an empty
  /// lease when there is none.
  KernelLease acquireKernel(const void *HostId);

  /// Device memory for the runtime's own use (maps, private copies,
  /// omp_target_alloc): the plugin's allocate and free, counted so that
  /// LIBOMPTARGET_ALLOCATION_REPORT can tell what was never freed.
  /// \p HostPtr, when the storage mirrors host data, is what OMPT tools
  /// are told the allocation is for.
  void *allocate(uint64_t Size, plugin::AllocKind Kind,
                 const void *HostPtr = nullptr);
  plugin::Status free(void *Ptr, plugin::AllocKind Kind);
  /// Prints the count of allocations not freed, when the device was used.
  void reportAllocations();

  void dumpMappingTable(LockedMappingTable &Table, const char *Why);

  /// omp_get_uid_from_device's answer; valid as long as the process.
  const char *uid();

private:
  struct LoadedLibrary {
    std::shared_ptr<const RegisteredLibrary> Lib;
    /// Null when the library has no image for this kind of device.
    std::unique_ptr<DeviceImage> Image;
    /// The registered image Image was copied from.
    const ImageRecord *Record = nullptr;
    std::vector<uintptr_t> GlobalHostAddresses;
    /// Map-name strings of the image's globals (stable: a deque).
    std::deque<std::string> GlobalNames;
  };
  struct ImageState {
    std::map<const RegisteredLibrary *, LoadedLibrary> Libraries;
    /// `declare target indirect` pairs of the loaded images.
    IndirectCallRegistry IndirectCalls;
    std::string UID;
    /// The thread telling tools about the device's events (see prepare);
    /// none when the id is the default one.
    std::thread::id Announcer;
  };
  /// A device event for OMPT tools, told them once the Images lock is
  /// released: a tool may call the OpenMP API from its callbacks.
  struct ToolEvent {
    enum Kind { Initialized, Loaded, Unloaded } What;
    const void *HostImage = nullptr;
    size_t Bytes = 0;
    const void *Module = nullptr;
  };
  using ToolEvents = std::vector<ToolEvent>;
  using LockedImages = Guarded<ImageState>::Access;
  struct KernelRecord {
    plugin::KernelHandle Handle;
    const char *Name;
    DeviceImage *Image;
  };
  using KernelIndex = std::unordered_map<const void *, KernelRecord>;

  /// Copies what loading \p Lib's image for this device needs; its bytes
  /// are read under \p Reg.
  LoadedLibrary stageLibrary(LockedRegistry &Reg,
                             const std::shared_ptr<RegisteredLibrary> &Lib);
  /// The slow path of prepare() and initialize(): update() under the
  /// Images lock, then the tools are told, with the lock released.
  bool settle(bool LoadImages);
  /// settle()'s work under the Images lock: creates the plugin's device
  /// and, with \p LoadImages, brings the loaded images up to the
  /// registry's \p Generation.
  bool update(LockedImages &State, ToolEvents &Events, uint64_t &Generation,
              bool LoadImages);
  /// Loads the image staged in \p Loaded, adding its kernels to
  /// \p NewKernels.
  void loadLibrary(LoadedLibrary &Loaded, LockedImages &State,
                   KernelIndex &NewKernels, ToolEvents &Events);
  /// Maps the global of entry \p E of the image loaded from \p Loaded.
  void mapGlobal(LoadedLibrary &Loaded, plugin::LoadedImage *PluginImage,
                 const ImageEntry &E);
  /// Maps each `declare target indirect` function of \p Loaded's image at
  /// its host address (\p Functions pairs them with device addresses).
  void mapIndirectFunctions(LoadedLibrary &Loaded,
                            const std::vector<IndirectCallPair> &Functions);
  /// Unloads the image of \p Loaded, after the launches of its kernels that
  /// are under way have returned.
  void unloadLibrary(LoadedLibrary &Loaded, LockedImages &State,
                     ToolEvents &Events);
  /// Tells OMPT tools about \p Events, without the Images lock.
  void announce(const ToolEvents &Events);

  Guarded<ImageState> Images;
  std::atomic<bool> Broken{false};
  /// The registry generation whose libraries are all loaded.
  std::atomic<uint64_t> LoadedGeneration{~0ull};
  /// Replaced (under Images' lock) when a library is loaded or unloaded.
  Snapshot<KernelIndex> Kernels{std::make_unique<const KernelIndex>()};
  std::atomic<int64_t> LiveAllocations{0};
  std::atomic<uint64_t> TotalAllocations{0};

  /// LIBOMPTARGET_LOCK_MAPPED_HOST_BUFFERS: locks the host range \p Size
  /// bytes at \p HostPtr that the new \p Block mirrors. False when the
  /// setting is "mandatory" and the lock failed (the message is printed).
  bool lockMappedHostBuffer(void *Block, const void *HostPtr, uint64_t Size);
  /// Unlocks what lockMappedHostBuffer locked for \p Block, if anything.
  void unlockMappedHostBuffer(void *Block);
  /// The host address locked for each such block.
  Guarded<std::unordered_map<void *, void *>> LockedForMaps;
};

class Runtime {
public:
  static Runtime &get();

  void registerLibrary(const __tgt_bin_desc *Desc);
  void unregisterLibrary(const __tgt_bin_desc *Desc);
  /// Once, at the first registration: connects to the OMPT tool and, when
  /// it watches devices (device_initialize), initializes every device, so
  /// that the tool sees them before the program runs, as with upstream.
  void initializeDevicesForTools();

  int32_t numDevices();
  /// Device \p Id, or null when there is no such device. Takes no lock.
  Device *device(int64_t Id);

  /// OMP_REQ_* flags from `#pragma omp requires`.
  void addRequires(int64_t Flags);
  int64_t requires() const { return RequiresFlags.load(); }
  bool unifiedSharedMemory() const {
    return requires() & OMP_REQ_UNIFIED_SHARED_MEMORY;
  }

  /// The registry, locked (see Registry for what may run under it).
  LockedRegistry lockRegistry() { return RegistryState.lock(); }
  std::atomic<uint64_t> Generation{0};
  /// Set once exit() has begun (see registerLibrary).
  std::atomic<bool> Exiting{false};

private:
  Runtime() = default;
  void loadPlugins(LockedRegistry &Reg);
  PluginRecord *pluginForImage(LockedRegistry &Reg, const ImageRecord &Image);
  void addRequires(LockedRegistry &Reg, int64_t Flags);

  Guarded<Registry> RegistryState;
  std::atomic<bool> PluginsLoaded{false};
  /// More devices than any machine has: the host plugin allows 1,024.
  static constexpr size_t MaxDevices = 4096;
  /// Appended to with the registry locked and read without it: a device never
  /// moves, and NumActiveDevices is stored (release) after the devices it
  /// counts.
  std::array<std::unique_ptr<Device>, MaxDevices> Devices;
  std::atomic<int32_t> NumActiveDevices{0};
  std::atomic<int64_t> RequiresFlags{0};
};

} // namespace offload

#endif // OFFLOAD_LIBOMPTARGET_RUNTIME_H
