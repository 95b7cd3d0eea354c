//===- Device.cpp - A device: its images, globals and kernels -------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What a device does with the registered libraries (images/Runtime.h): it
// prepares itself, loads the image of every library it has not loaded,
// maps the images' globals and indirect-call pairs, unloads the images of
// unregistered libraries, and finds a launch's kernel; also its UID and
// its mapping table's dump.
//
//===----------------------------------------------------------------------===//

#include "diagnostics/Diagnostics.h"
#include "diagnostics/Profiler.h"
#include "images/ImageTriple.h"
#include "images/OffloadContainer.h"
#include "images/Runtime.h"
#include "indirect/IndirectCallDevice.h"
#include "ompt/OMPT.h"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <strings.h>

using namespace offload;

/// Whether \p E is the reference pointer clang makes for a `declare target`
/// variable under `requires unified_shared_memory`: a pointer-sized global
/// named `<variable>_decl_tgt_ref_ptr` that holds the variable's host
/// address on the host and through which device code reaches the variable.
static bool isReferencePointer(const ImageEntry &E) {
  static constexpr char Suffix[] = "_decl_tgt_ref_ptr";
  constexpr size_t SuffixLength = sizeof(Suffix) - 1;
  if (E.EntryKind != ImageEntry::Global || E.Size != sizeof(void *) || !E.Name)
    return false;
  size_t Length = std::strlen(E.Name);
  return Length > SuffixLength &&
         std::strcmp(E.Name + Length - SuffixLength, Suffix) == 0;
}

//===----------------------------------------------------------------------===//
// Device
//===----------------------------------------------------------------------===//

bool Device::zeroCopyMaps() {
  return Runtime::get().unifiedSharedMemory() || plugin().useZeroCopyMaps();
}

bool Device::prepare() {
  Runtime &RT = Runtime::get();
  // What every construct asks: lock-free once the device is up to date.
  if (Broken.load(std::memory_order_acquire))
    return false;
  if (PluginDevice.load(std::memory_order_acquire) &&
      LoadedGeneration.load(std::memory_order_acquire) == RT.Generation.load())
    return true;
  return settle(/*LoadImages=*/true);
}

bool Device::initialize() {
  if (Broken.load(std::memory_order_acquire))
    return false;
  if (PluginDevice.load(std::memory_order_acquire))
    return true;
  return settle(/*LoadImages=*/false);
}

bool Device::settle(bool LoadImages) {
  // Slow path, under the Images lock; the registry lock only while the
  // registry is read (see Registry).
  LockedImages State = Images.lock();
  // While a thread tells tools what happened to the device, with the lock
  // released, others wait: device_initialize and device_load come before
  // any other event on the device. The announcing thread itself goes on,
  // so that a tool may use the device from those callbacks.
  std::thread::id Self = std::this_thread::get_id();
  while (State->Announcer != std::thread::id() && State->Announcer != Self)
    State.wait();
  bool Nested = State->Announcer == Self;
  ToolEvents Events;
  uint64_t Generation = 0;
  bool Ok = update(State, Events, Generation, LoadImages);
  if (!Events.empty()) {
    State->Announcer = Self;
    State.unlocked([&] { announce(Events); });
    if (!Nested) {
      State->Announcer = std::thread::id();
      State.notifyAll();
    }
  }
  // A prepare() inside a tool callback leaves the fast path closed until
  // the announcements are done.
  if (Ok && !Nested && LoadImages)
    LoadedGeneration.store(Generation, std::memory_order_release);
  return Ok && !Broken.load();
}

bool Device::update(LockedImages &State, ToolEvents &Events,
                    uint64_t &Generation, bool LoadImages) {
  Runtime &RT = Runtime::get();
  if (Broken.load())
    return false;
  if (!PluginDevice.load()) {
    // Every OMPT event concerns a device, and comes after this.
    ompt::connect();
    plugin::Status Error;
    plugin::GenericDevice *Created =
        Plugin.Plugin->getDevice(PluginDeviceId, Error);
    if (!Created) {
      errorMessage("device %d (%s plugin): %s", Id, Plugin.Name.c_str(),
                   Error.message().c_str());
      Broken.store(true);
      return false;
    }
    Created->setDeviceNumbering(Id, RT.numDevices());
    PluginDevice.store(Created, std::memory_order_release);
    Events.push_back({ToolEvent::Initialized});
  }
  if (!LoadImages)
    return true;
  std::vector<LoadedLibrary> Staged;
  std::vector<const RegisteredLibrary *> Unregistered;
  {
    LockedRegistry Reg = RT.lockRegistry();
    Generation = RT.Generation.load();
    for (auto &[Lib, Loaded] : State->Libraries)
      if (Loaded.Lib->unregistered(Reg))
        Unregistered.push_back(Lib);
    for (const std::shared_ptr<RegisteredLibrary> &Lib : Reg->Libraries)
      if (!State->Libraries.count(Lib.get()))
        Staged.push_back(stageLibrary(Reg, Lib));
  }
  // Unloads first: a library loaded next may reuse the host addresses of
  // one unloaded (its kernels' and globals' keys).
  for (const RegisteredLibrary *Lib : Unregistered) {
    auto It = State->Libraries.find(Lib);
    unloadLibrary(It->second, State, Events);
    State->Libraries.erase(It);
  }
  KernelIndex NewKernels;
  for (LoadedLibrary &Loaded : Staged) {
    const RegisteredLibrary *Key = Loaded.Lib.get();
    LoadedLibrary &Slot = State->Libraries[Key] = std::move(Loaded);
    loadLibrary(Slot, State, NewKernels, Events);
  }
  if (!NewKernels.empty()) {
    auto Next = std::make_unique<KernelIndex>(*Kernels.read());
    // A kernel of a later library replaces one with the same host entry.
    for (auto &[HostId, Record] : NewKernels)
      (*Next)[HostId] = Record;
    Kernels.replace(std::move(Next));
  }
  return true;
}

void Device::announce(const ToolEvents &Events) {
  for (const ToolEvent &E : Events)
    switch (E.What) {
    case ToolEvent::Initialized:
      ompt::deviceInitialized(*this, Plugin.Name);
      break;
    case ToolEvent::Loaded:
      ompt::imageLoaded(*this, E.HostImage, E.Bytes, E.Module);
      break;
    case ToolEvent::Unloaded:
      ompt::imageUnloaded(*this, E.Module);
      break;
    }
}

Device::LoadedLibrary
Device::stageLibrary(LockedRegistry &,
                     const std::shared_ptr<RegisteredLibrary> &Lib) {
  LoadedLibrary Loaded;
  Loaded.Lib = Lib;
  for (const ImageRecord &Candidate : Lib->Images)
    if (Plugin.Plugin->isImageCompatible(Candidate.Ref)) {
      Loaded.Record = &Candidate;
      break;
    }
  if (!Loaded.Record)
    return Loaded; // Nothing for this kind of device in that library.
  const ImageRecord &Record = *Loaded.Record;
  auto Image = std::make_unique<DeviceImage>();
  Image->Bytes.reset(new char[Record.Ref.Size]);
  std::memcpy(Image->Bytes.get(), Record.Ref.Start, Record.Ref.Size);
  Image->Ref = Record.Ref;
  Image->Ref.Start = Image->Bytes.get();
  size_t NameBytes = 0;
  for (const ImageEntry &E : Record.Entries)
    NameBytes += E.Name ? std::strlen(E.Name) + 1 : 0;
  Image->NameStorage.reset(new char[NameBytes]);
  Image->Entries = Record.Entries;
  char *Next = Image->NameStorage.get();
  for (ImageEntry &E : Image->Entries) {
    if (!E.Name)
      continue;
    size_t Length = std::strlen(E.Name) + 1;
    std::memcpy(Next, E.Name, Length);
    E.Name = Next;
    Next += Length;
  }
  Loaded.Image = std::move(Image);
  return Loaded;
}

void Device::loadLibrary(LoadedLibrary &Loaded, LockedImages &State,
                         KernelIndex &NewKernels, ToolEvents &Events) {
  if (!Loaded.Image)
    return; // Nothing for this kind of device in that library.
  DeviceImage &Image = *Loaded.Image;
  const ImageRecord &Record = *Loaded.Record;
  TraceScope Trace("load image", Record.Description);
  plugin::GenericDevice &Dev = plugin();
  plugin::LoadedImage *PluginImage = nullptr;
  if (plugin::Status S = Dev.loadImage(Image.Ref, PluginImage)) {
    errorMessage("device %d: %s", Id, S.message().c_str());
    Broken.store(true);
    Loaded.Image.reset();
    return;
  }
  Image.Image = PluginImage;
  // Tools are told where the registered image is, as upstream does.
  Events.push_back(
      {ToolEvent::Loaded, Record.Ref.Start, Record.Ref.Size, PluginImage});
  if (infoFlags() & InfoPluginKernel)
    infoMessage(Id, "Loaded %s with %zu entries", Record.Description.c_str(),
                Image.Entries.size());
  for (const ImageEntry &E : Image.Entries) {
    switch (E.EntryKind) {
    case ImageEntry::Kernel: {
      plugin::KernelHandle Handle;
      if (plugin::Status S = Dev.getKernel(PluginImage, E.Name, Handle)) {
        errorMessage("device %d: %s", Id, S.message().c_str());
        Broken.store(true);
        continue;
      }
      NewKernels[E.Address] = {Handle, E.Name, &Image};
      break;
    }
    case ImageEntry::Global:
    case ImageEntry::LinkGlobal:
      mapGlobal(Loaded, PluginImage, E);
      break;
    case ImageEntry::Indirect:
      // Collected below into the device's indirect-call table.
      break;
    case ImageEntry::Requires:
    case ImageEntry::Other:
      break;
    }
  }
  std::vector<IndirectCallPair> Functions;
  if (!addImageIndirectCalls(Dev, Id, PluginImage, Record.Description.c_str(),
                             Image.Entries, State->IndirectCalls, Functions))
    Broken.store(true);
  mapIndirectFunctions(Loaded, Functions);
}

void Device::mapGlobal(LoadedLibrary &Loaded, plugin::LoadedImage *PluginImage,
                       const ImageEntry &E) {
  void *DeviceAddress = nullptr;
  if (plugin::Status S =
          plugin().getGlobal(PluginImage, E.Name, E.Size, DeviceAddress)) {
    errorMessage("device %d: %s", Id, S.message().c_str());
    Broken.store(true);
    return;
  }
  LockedMappingTable Table = Mappings.lock();
  uintptr_t Host = reinterpret_cast<uintptr_t>(E.Address);
  if (lookupSettled(Table, Host, E.Size, /*ToRemove=*/false).Status !=
      LookupResult::Absent)
    return; // The same global registered by another library.
  MapEntry Entry;
  Entry.HstBegin = Entry.HstBase = Host;
  Entry.HstEnd = Host + E.Size;
  Entry.TgtBegin = reinterpret_cast<uintptr_t>(DeviceAddress);
  Entry.Permanent = true;
  // Named in mapping tables by its symbol, as upstream names it.
  Loaded.GlobalNames.push_back(std::string(";") + E.Name + ";unknown;0;0;;");
  Entry.Name = Loaded.GlobalNames.back().c_str();
  Table->insert(Entry);
  Loaded.GlobalHostAddresses.push_back(Host);
  // Under unified shared memory the device refers to the host copy of
  // a link variable directly, and so to that of a `declare target to`
  // variable, which clang then reaches through a reference pointer.
  // The host copy belongs to the library: read it only while the
  // library is registered.
  if (zeroCopyMaps() &&
      (E.EntryKind == ImageEntry::LinkGlobal || isReferencePointer(E))) {
    LockedRegistry Reg = Runtime::get().lockRegistry();
    if (!Loaded.Lib->unregistered(Reg))
      std::memcpy(DeviceAddress, E.Address, sizeof(void *));
  }
}

void Device::mapIndirectFunctions(
    LoadedLibrary &Loaded, const std::vector<IndirectCallPair> &Functions) {
  // A host function pointer passed to a region (clang passes it as a
  // zero-size item) becomes its device function: each `declare target
  // indirect` function is mapped at its host address, with its entry's
  // size, as upstream maps it (vtables are not: their slots are only
  // looked up by __llvm_omp_indirect_call_lookup).
  LockedMappingTable Table = Mappings.lock();
  for (const ImageEntry &E : Loaded.Image->Entries) {
    if (!(E.Flags & OMP_DECLARE_TARGET_INDIRECT) ||
        (E.Flags & OMP_DECLARE_TARGET_INDIRECT_VTABLE) || !E.Size)
      continue;
    uintptr_t Host = reinterpret_cast<uintptr_t>(E.Address);
    auto Function =
        std::find_if(Functions.begin(), Functions.end(),
                     [&](const IndirectCallPair &P) { return P.Host == Host; });
    if (Function == Functions.end() ||
        lookupSettled(Table, Host, E.Size, /*ToRemove=*/false).Status !=
            LookupResult::Absent)
      continue; // The same function registered by another library.
    MapEntry Entry;
    Entry.HstBegin = Entry.HstBase = Host;
    Entry.HstEnd = Host + E.Size;
    Entry.TgtBegin = Function->Device;
    Entry.Permanent = true;
    Table->insert(Entry);
    Loaded.GlobalHostAddresses.push_back(Host);
  }
}

void Device::unloadLibrary(LoadedLibrary &Loaded, LockedImages &State,
                           ToolEvents &Events) {
  {
    LockedMappingTable Table = Mappings.lock();
    for (uintptr_t Host : Loaded.GlobalHostAddresses) {
      // A `target update` of the global may be copying it.
      LookupResult R = lookupSettled(Table, Host, 0, /*ToRemove=*/true);
      if (R.Entry && R.Entry->HstBegin == Host && R.Entry->Permanent)
        Table->erase(Host);
    }
    notifySettled(Table);
  }
  if (DeviceImage *Image = Loaded.Image.get()) {
    // New launches stop finding the image's kernels once the index no
    // longer has them; those already holding one are waited for.
    auto Next = std::make_unique<KernelIndex>(*Kernels.read());
    for (auto KernelIt = Next->begin(); KernelIt != Next->end();)
      KernelIt = KernelIt->second.Image == Image ? Next->erase(KernelIt)
                                                 : std::next(KernelIt);
    Kernels.replace(std::move(Next));
    Image->Launches.waitUntilUnused();
    removeImageIndirectCalls(plugin(), Id, Image->Image, State->IndirectCalls);
    (void)plugin().unloadImage(Image->Image);
    Events.push_back({ToolEvent::Unloaded, nullptr, 0, Image->Image});
  }
}

KernelLease Device::acquireKernel(const void *HostId) {
  Snapshot<KernelIndex>::Reader Index = Kernels.read();
  auto It = Index->find(HostId);
  if (It == Index->end())
    return KernelLease();
  const KernelRecord &K = It->second;
  return KernelLease(K.Handle, K.Name, K.Image);
}

void Device::dumpMappingTable(LockedMappingTable &Table, const char *Why) {
  if (Table->empty()) {
    infoMessage(Id, "OpenMP Host-Device pointer mappings table empty");
    return;
  }
  // Laid out as upstream's runtime prints it.
  infoMessage(Id, "OpenMP Host-Device pointer mappings %s:", Why);
  infoMessage(Id, "Host Ptr           Target Ptr         Size (B) DynRefCount "
                  "HoldRefCount Declaration");
  Table->forEach([&](const MapEntry &E) {
    std::string Where = mapLocation(E.Name);
    infoMessage(Id, "0x%016lx 0x%016lx %-8lu %-11s %-12lu %s at %s",
                static_cast<unsigned long>(E.HstBegin),
                static_cast<unsigned long>(E.TgtBegin),
                static_cast<unsigned long>(E.size()),
                E.Permanent ? "INF" : std::to_string(E.DynRefCount).c_str(),
                static_cast<unsigned long>(E.HoldRefCount),
                mapName(E.Name).c_str(), Where.c_str());
  });
}

const char *Device::uid() {
  if (!prepare())
    return nullptr;
  LockedImages State = Images.lock();
  if (State->UID.empty()) {
    State->UID = plugin().getUID();
    if (State->UID.empty())
      State->UID = Plugin.Name + "-" + std::to_string(PluginDeviceId);
  }
  return State->UID.c_str();
}
