//===- Runtime.cpp - Registered libraries, plugins and devices -----------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Runtime.h"
#include "Diagnostics.h"
#include "IndirectCallDevice.h"
#include "OffloadContainer.h"
#include "Profiler.h"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

using namespace offload;

/// Plugins in the order their devices are preferred when several have a
/// compatible image.
static const char *const PluginNames[] = {"cuda", "amdgpu", "host"};

Runtime &Runtime::get() {
  // Never destroyed: executables and libraries unregister their images from
  // their own destructors, which may run after ours.
  static Runtime *Instance = new Runtime();
  return *Instance;
}

static std::string ownDirectory() {
  Dl_info Info;
  if (!dladdr(reinterpret_cast<void *>(&ownDirectory), &Info) ||
      !Info.dli_fname)
    return ".";
  std::string Path = Info.dli_fname;
  size_t Slash = Path.rfind('/');
  return Slash == std::string::npos ? "." : Path.substr(0, Slash);
}

void Runtime::loadPluginsLocked() {
  if (PluginsLoaded.load(std::memory_order_relaxed))
    return;
  std::string Dir = ownDirectory();
  for (const char *Name : PluginNames) {
    std::string Path = Dir + "/libomptarget.rtl." + Name + ".so";
    if (access(Path.c_str(), F_OK) != 0) {
      OFFLOAD_DEBUG("no %s plugin at %s", Name, Path.c_str());
      continue;
    }
    void *Handle = dlopen(Path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!Handle) {
      errorMessage("cannot load the %s plugin %s: %s", Name, Path.c_str(),
                   dlerror());
      continue;
    }
    auto Create = reinterpret_cast<offload_plugin_create_fn>(
        dlsym(Handle, OFFLOAD_PLUGIN_ENTRY_SYMBOL));
    plugin::GenericPlugin *Plugin =
        Create ? Create(plugin::InterfaceVersion) : nullptr;
    if (!Plugin) {
      errorMessage("%s does not provide plugin interface version %u (%s)",
                   Path.c_str(), plugin::InterfaceVersion,
                   Create ? "version mismatch"
                          : "missing " OFFLOAD_PLUGIN_ENTRY_SYMBOL);
      dlclose(Handle);
      continue;
    }
    auto Record = std::make_unique<PluginRecord>();
    Record->Name = Name;
    Record->Handle = Handle;
    Record->Plugin = Plugin;
    OFFLOAD_DEBUG("loaded the %s plugin from %s", Name, Path.c_str());
    Plugins.push_back(std::move(Record));
  }
  PluginsLoaded.store(true, std::memory_order_release);
}

PluginRecord *Runtime::pluginForImage(const ImageRecord &Image) {
  for (auto &Record : Plugins) {
    if (!Record->Plugin->isImageCompatible(Image.Ref))
      continue;
    if (!Record->Active) {
      Record->Active = true;
      Record->NumDevices = Record->Plugin->initialize();
      Record->Plugin->setRequiresFlags(requires());
      Record->FirstDeviceId = static_cast<int32_t>(Devices.size());
      for (int32_t I = 0; I < Record->NumDevices; ++I)
        Devices.push_back(std::make_unique<Device>(
            static_cast<int32_t>(Devices.size()), *Record, I));
      NumActiveDevices.store(static_cast<int32_t>(Devices.size()));
      OFFLOAD_DEBUG("the %s plugin provides %d device(s)", Record->Name.c_str(),
                    Record->NumDevices);
    }
    if (Record->NumDevices > 0)
      return Record.get();
  }
  return nullptr;
}

/// Fills \p Image from the bytes of a descriptor's device image, looking
/// inside an OffloadBinary container when there is one. The string fields
/// of Image.Ref are left for the caller (see registerLibrary).
static bool describeImage(const __tgt_device_image &Raw, size_t Index,
                          ImageRecord &Image) {
  const char *Start = static_cast<const char *>(Raw.ImageStart);
  const char *End = static_cast<const char *>(Raw.ImageEnd);
  Image.Description = "device image " + std::to_string(Index);
  if (!Start || End <= Start) {
    errorMessage("%s of a registered library is empty; it is ignored",
                 Image.Description.c_str());
    return false;
  }
  Image.Ref.Start = Start;
  Image.Ref.Size = End - Start;
  std::string_view Bytes(Start, End - Start);
  if (offload::hasOffloadContainerMagic(Bytes)) {
    offload::OffloadContainer Container;
    std::string Why;
    if (!offload::readOffloadContainer(Bytes, Container, Why)) {
      errorMessage("%s has a corrupt offload-binary container: %s",
                   Image.Description.c_str(), Why.c_str());
      return false;
    }
    Image.Ref.Start = Container.Image.data();
    Image.Ref.Size = Container.Image.size();
    Image.Triple = std::string(Container.Triple);
    Image.Arch = std::string(Container.Arch);
  }
  Image.Description += " (" +
                       (Image.Triple.empty() ? "no triple" : Image.Triple) +
                       (Image.Arch.empty() ? "" : " " + Image.Arch) + ")";
  std::string Error;
  if (!readEntryTable(Raw.EntriesBegin, Raw.EntriesEnd, Image.Entries, Error)) {
    errorMessage("%s: %s", Image.Description.c_str(), Error.c_str());
    return false;
  }
  return true;
}

void Runtime::registerLibrary(const __tgt_bin_desc *Desc) {
  if (!Desc)
    return;
  TraceScope Trace("register library", "");
  std::lock_guard<std::recursive_mutex> Guard(Lock);
  loadPluginsLocked();
  // Programs unregister from atexit handlers or from .fini_array, and the
  // latter runs after every static destructor, plugins' included. From the
  // moment exit starts, images are left to die with the process.
  static bool ExitHookInstalled = [] {
    atexit([] { Runtime::get().Exiting.store(true); });
    return true;
  }();
  (void)ExitHookInstalled;
  Libraries.emplace_back();
  RegisteredLibrary &Lib = Libraries.back();
  Lib.Desc = Desc;
  std::string Error;
  if (!readEntryTable(Desc->HostEntriesBegin, Desc->HostEntriesEnd,
                      Lib.HostEntries, Error))
    errorMessage("registered library: host entry table: %s", Error.c_str());
  for (int32_t I = 0; I < Desc->NumDeviceImages; ++I) {
    ImageRecord Image;
    if (!describeImage(Desc->DeviceImages[I], I, Image))
      continue;
    if (Image.Entries.empty())
      Image.Entries = Lib.HostEntries;
    for (const OffloadEntry &E : Image.Entries)
      if (E.EntryKind == OffloadEntry::Requires)
        addRequires(static_cast<int64_t>(E.Data));
    Lib.Images.push_back(std::move(Image));
  }
  // The image references point into the records' strings, so they are set
  // here, once the records have stopped moving.
  for (ImageRecord &Image : Lib.Images) {
    Image.Ref.Triple = Image.Triple.c_str();
    Image.Ref.Arch = Image.Arch.c_str();
    Image.Ref.Description = Image.Description.c_str();
    PluginRecord *Plugin = pluginForImage(Image);
    OFFLOAD_DEBUG("registered %s: %zu entries, plugin %s",
                  Image.Description.c_str(), Image.Entries.size(),
                  Plugin ? Plugin->Name.c_str() : "(none)");
  }
  ++Generation;
}

void Runtime::unregisterLibrary(const __tgt_bin_desc *Desc) {
  if (Exiting.load())
    return;
  std::lock_guard<std::recursive_mutex> Guard(Lock);
  for (auto It = Libraries.begin(); It != Libraries.end(); ++It) {
    if (It->Desc != Desc)
      continue;
    for (auto &D : Devices)
      D->unloadLibrary(*It);
    Libraries.erase(It);
    ++Generation;
    return;
  }
}

int32_t Runtime::numDevices() {
  // Asked on every construct and by omp_get_num_devices: take the lock only
  // until the plugins have been looked for once.
  if (!PluginsLoaded.load(std::memory_order_acquire)) {
    std::lock_guard<std::recursive_mutex> Guard(Lock);
    loadPluginsLocked();
  }
  return NumActiveDevices.load();
}

Device *Runtime::device(int64_t Id) {
  if (Id < 0 || Id >= NumActiveDevices.load())
    return nullptr;
  std::lock_guard<std::recursive_mutex> Guard(Lock);
  return Devices[Id].get();
}

void Runtime::addRequires(int64_t Flags) {
  Flags &= ~static_cast<int64_t>(OMP_REQ_NONE);
  int64_t Old = RequiresFlags.fetch_or(Flags);
  if ((Old | Flags) != Old) {
    std::lock_guard<std::recursive_mutex> Guard(Lock);
    for (auto &P : Plugins)
      if (P->Active)
        P->Plugin->setRequiresFlags(Old | Flags);
  }
}

//===----------------------------------------------------------------------===//
// Device
//===----------------------------------------------------------------------===//

bool Device::prepare() {
  Runtime &RT = Runtime::get();
  {
    std::lock_guard<std::mutex> Guard(ImageLock);
    if (Broken)
      return false;
    if (LoadedGeneration == RT.Generation.load() && PluginDevice)
      return true;
  }
  // Slow path: the registry lock comes first, as in unregisterLibrary.
  std::lock_guard<std::recursive_mutex> RTGuard(RT.Lock);
  std::lock_guard<std::mutex> Guard(ImageLock);
  if (!PluginDevice) {
    plugin::Status Error;
    PluginDevice = Plugin.Plugin->getDevice(PluginDeviceId, Error);
    if (!PluginDevice) {
      errorMessage("device %d (%s plugin): %s", Id, Plugin.Name.c_str(),
                   Error.message().c_str());
      Broken = true;
      return false;
    }
    PluginDevice->setDeviceNumbering(Id, RT.numDevices());
  }
  for (RegisteredLibrary &Lib : RT.Libraries)
    if (!Libraries.count(&Lib))
      loadLibrary(Lib);
  LoadedGeneration = RT.Generation.load();
  return !Broken;
}

void Device::loadLibrary(RegisteredLibrary &Lib) {
  LoadedLibrary &Loaded = Libraries[&Lib];
  const ImageRecord *Image = nullptr;
  for (const ImageRecord &Candidate : Lib.Images)
    if (Plugin.Plugin->isImageCompatible(Candidate.Ref)) {
      Image = &Candidate;
      break;
    }
  if (!Image)
    return; // Nothing for this kind of device in that library.
  TraceScope Trace("load image", Image->Description);
  if (plugin::Status S = PluginDevice->loadImage(Image->Ref, Loaded.Image)) {
    errorMessage("device %d: %s", Id, S.message().c_str());
    Broken = true;
    return;
  }
  if (infoFlags() & InfoPluginKernel)
    infoMessage(Id, "Loaded %s with %zu entries", Image->Description.c_str(),
                Image->Entries.size());
  bool USM = Runtime::get().unifiedSharedMemory();
  for (const OffloadEntry &E : Image->Entries) {
    switch (E.EntryKind) {
    case OffloadEntry::Kernel: {
      plugin::KernelHandle Handle;
      if (plugin::Status S =
              PluginDevice->getKernel(Loaded.Image, E.Name, Handle)) {
        errorMessage("device %d: %s", Id, S.message().c_str());
        Broken = true;
        continue;
      }
      Kernels[E.Address] = {Handle, E.Name};
      Loaded.KernelIds.push_back(E.Address);
      break;
    }
    case OffloadEntry::Global:
    case OffloadEntry::LinkGlobal: {
      void *DeviceAddress = nullptr;
      if (plugin::Status S = PluginDevice->getGlobal(Loaded.Image, E.Name,
                                                     E.Size, DeviceAddress)) {
        errorMessage("device %d: %s", Id, S.message().c_str());
        Broken = true;
        continue;
      }
      std::lock_guard<std::mutex> MapGuard(MapLock);
      uintptr_t Host = reinterpret_cast<uintptr_t>(E.Address);
      if (Table.lookup(Host, E.Size).Status != LookupResult::Absent)
        continue; // The same global registered by another library.
      MapEntry Entry;
      Entry.HstBegin = Entry.HstBase = Host;
      Entry.HstEnd = Host + E.Size;
      Entry.TgtBegin = reinterpret_cast<uintptr_t>(DeviceAddress);
      Entry.Permanent = true;
      Entry.Name = nullptr;
      Table.insert(Entry);
      Loaded.GlobalHostAddresses.push_back(Host);
      // Under unified shared memory the device refers to the host copy of
      // a link variable directly.
      if (USM && E.EntryKind == OffloadEntry::LinkGlobal)
        std::memcpy(DeviceAddress, E.Address, sizeof(void *));
      break;
    }
    case OffloadEntry::Indirect:
      // Collected below into the device's indirect-call table.
      break;
    case OffloadEntry::Requires:
    case OffloadEntry::Other:
      break;
    }
  }
  if (!addImageIndirectCalls(*PluginDevice, Id, Loaded.Image,
                             Image->Description.c_str(), Image->Entries,
                             IndirectCalls))
    Broken = true;
}

void Device::unloadLibrary(RegisteredLibrary &Lib) {
  std::lock_guard<std::mutex> Guard(ImageLock);
  auto It = Libraries.find(&Lib);
  if (It == Libraries.end())
    return;
  for (const void *KernelId : It->second.KernelIds)
    Kernels.erase(KernelId);
  {
    std::lock_guard<std::mutex> MapGuard(MapLock);
    for (uintptr_t Host : It->second.GlobalHostAddresses)
      Table.erase(Host);
  }
  if (It->second.Image) {
    removeImageIndirectCalls(*PluginDevice, Id, It->second.Image,
                             IndirectCalls);
    (void)PluginDevice->unloadImage(It->second.Image);
  }
  Libraries.erase(It);
}

plugin::KernelHandle Device::findKernel(const void *HostId, const char *&Name) {
  std::lock_guard<std::mutex> Guard(ImageLock);
  auto It = Kernels.find(HostId);
  if (It == Kernels.end())
    return nullptr;
  Name = It->second.Name;
  return It->second.Handle;
}

void Device::dumpMappingTable(const char *Why) {
  if (Table.empty()) {
    infoMessage(Id, "OpenMP Host-Device pointer mappings table empty");
    return;
  }
  // Laid out as upstream's runtime prints it.
  infoMessage(Id, "OpenMP Host-Device pointer mappings %s:", Why);
  infoMessage(Id, "Host Ptr           Target Ptr         Size (B) DynRefCount "
                  "HoldRefCount Declaration");
  Table.forEach([&](const MapEntry &E) {
    infoMessage(Id, "0x%016lx 0x%016lx %-8lu %-11s %-12lu %s at %s",
                static_cast<unsigned long>(E.HstBegin),
                static_cast<unsigned long>(E.TgtBegin),
                static_cast<unsigned long>(E.size()),
                E.Permanent ? "INF" : std::to_string(E.DynRefCount).c_str(),
                static_cast<unsigned long>(E.HoldRefCount),
                mapName(E.Name).c_str(), mapLocation(E.Name).c_str());
  });
}

const char *Device::uid() {
  if (!prepare())
    return nullptr;
  std::lock_guard<std::mutex> Guard(ImageLock);
  if (UID.empty()) {
    UID = PluginDevice->getUID();
    if (UID.empty())
      UID = Plugin.Name + "-" + std::to_string(PluginDeviceId);
  }
  return UID.c_str();
}
