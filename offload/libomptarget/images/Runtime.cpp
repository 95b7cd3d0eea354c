//===- Runtime.cpp - Registered libraries, plugins and devices -----------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "images/Runtime.h"
#include "diagnostics/Diagnostics.h"
#include "diagnostics/Profiler.h"
#include "images/ImageTriple.h"
#include "images/OffloadContainer.h"
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

void Runtime::loadPlugins(LockedRegistry &Reg) {
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
    Reg->Plugins.push_back(std::move(Record));
  }
  PluginsLoaded.store(true, std::memory_order_release);
}

/// A requirement a device cannot meet (`requires unified_shared_memory` on
/// a GPU that cannot read host memory) stops the program here, at
/// registration, rather than letting a kernel read garbage later.
/// With OMP_TARGET_OFFLOAD=disabled no device is used, so none is refused.
/// The variable is read here rather than through libomp (api/Policy.h):
/// asking libomp initialises it, which must not happen this early (see
/// api/TargetTasks.h).
static void stopUnlessHonoured(PluginRecord &Record, int64_t Flags) {
  plugin::Status S = Record.Plugin->checkRequiresFlags(Flags);
  const char *Policy = std::getenv("OMP_TARGET_OFFLOAD");
  if (S && !(Policy && strcasecmp(Policy, "disabled") == 0))
    fatalErrorCode(1, nullptr, "%s", S.message().c_str());
}

PluginRecord *Runtime::pluginForImage(LockedRegistry &Reg,
                                      const ImageRecord &Image) {
  for (auto &Record : Reg->Plugins) {
    if (!Record->Plugin->isImageCompatible(Image.Ref))
      continue;
    if (!Record->Active) {
      Record->Active = true;
      int32_t First = NumActiveDevices.load(std::memory_order_relaxed);
      int32_t Wanted = Record->Plugin->initialize();
      if (Wanted > static_cast<int32_t>(MaxDevices) - First) {
        errorMessage("the %s plugin offers %d devices; only %d are used "
                     "(this runtime handles at most %zu devices)",
                     Record->Name.c_str(), Wanted,
                     static_cast<int32_t>(MaxDevices) - First, MaxDevices);
        Wanted = static_cast<int32_t>(MaxDevices) - First;
      }
      Record->NumDevices = Wanted;
      Record->Plugin->setRequiresFlags(requires());
      stopUnlessHonoured(*Record, requires());
      Record->FirstDeviceId = First;
      for (int32_t I = 0; I < Record->NumDevices; ++I)
        Devices[First + I] = std::make_unique<Device>(First + I, *Record, I);
      NumActiveDevices.store(First + Record->NumDevices,
                             std::memory_order_release);
      OFFLOAD_DEBUG("the %s plugin provides %d device(s)", Record->Name.c_str(),
                    Record->NumDevices);
    }
    if (Record->NumDevices > 0)
      return Record.get();
  }
  return nullptr;
}

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
  // A bare image (our wrapper registers no container) is named by its ELF
  // header; plugins still see no triple for it, as their interface says.
  std::string Triple =
      Image.Triple.empty() ? elfImageTriple(Bytes) : Image.Triple;
  Image.Description += " (" + (Triple.empty() ? "no triple" : Triple) +
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
  LockedRegistry Reg = lockRegistry();
  loadPlugins(Reg);
  // Programs unregister from atexit handlers or from .fini_array, and the
  // latter runs after every static destructor, plugins' included. From the
  // moment exit starts, images are left to die with the process.
  static bool ExitHookInstalled = [] {
    atexit([] {
      Runtime &RT = Runtime::get();
      RT.Exiting.store(true);
      // Device work of `nowait` constructs no one will poll any more (exit
      // from inside a parallel region or a task: api/TargetTasks.cpp) is
      // waited for here, so that no stream still runs it while the drivers'
      // libraries are torn down; its owner finds it done if it polls.
      for (int32_t I = 0, E = RT.NumActiveDevices.load(); I < E; ++I)
        while (RT.Devices[I]->InFlight.completePending()) {
        }
      for (int32_t I = 0, E = RT.NumActiveDevices.load(); I < E; ++I)
        RT.Devices[I]->reportAllocations();
      // Upstream's devices dump their tables as they are destroyed at
      // exit, the last device first, at a location of its own.
      if (infoFlags() & InfoDumpTable)
        for (int32_t I = RT.NumActiveDevices.load(); I-- > 0;) {
          LockedMappingTable Table = RT.Devices[I]->Mappings.lock();
          RT.Devices[I]->dumpMappingTable(Table,
                                          "after block at libomptarget:0:0");
        }
    });
    return true;
  }();
  (void)ExitHookInstalled;
  Reg->Libraries.push_back(std::make_shared<RegisteredLibrary>());
  RegisteredLibrary &Lib = *Reg->Libraries.back();
  Lib.Desc = Desc;
  std::string Error;
  if (!readEntryTable(Desc->HostEntriesBegin, Desc->HostEntriesEnd,
                      Lib.HostEntries, Error))
    errorMessage("registered library: host entry table: %s", Error.c_str());
  // The requires flags of the compilation units, from the host entries as
  // upstream reads them (also when an image is unusable), else from the
  // images' own tables.
  bool HostRequires = false;
  for (const ImageEntry &E : Lib.HostEntries)
    if (E.EntryKind == ImageEntry::Requires) {
      addRequires(Reg, static_cast<int64_t>(E.Data));
      HostRequires = true;
    }
  for (int32_t I = 0; I < Desc->NumDeviceImages; ++I) {
    ImageRecord Image;
    if (!describeImage(Desc->DeviceImages[I], I, Image))
      continue;
    if (Image.Entries.empty())
      Image.Entries = Lib.HostEntries;
    if (!HostRequires)
      for (const ImageEntry &E : Image.Entries)
        if (E.EntryKind == ImageEntry::Requires)
          addRequires(Reg, static_cast<int64_t>(E.Data));
    Lib.Images.push_back(std::move(Image));
  }
  // The image references point into the records' strings, so they are set
  // here, once the records have stopped moving.
  for (ImageRecord &Image : Lib.Images) {
    Image.Ref.Triple = Image.Triple.c_str();
    Image.Ref.Arch = Image.Arch.c_str();
    Image.Ref.Description = Image.Description.c_str();
    PluginRecord *Plugin = pluginForImage(Reg, Image);
    OFFLOAD_DEBUG("registered %s: %zu entries, plugin %s",
                  Image.Description.c_str(), Image.Entries.size(),
                  Plugin ? Plugin->Name.c_str() : "(none)");
  }
  ++Generation;
}

void Runtime::unregisterLibrary(const __tgt_bin_desc *Desc) {
  if (Exiting.load())
    return;
  LockedRegistry Reg = lockRegistry();
  for (auto It = Reg->Libraries.begin(); It != Reg->Libraries.end(); ++It) {
    if ((*It)->Desc != Desc)
      continue;
    // Devices unload the image in their next prepare(): waiting for them
    // here, inside the library's dlclose, would wait for a device that is
    // loading an image and so waiting for the loader this thread holds.
    (*It)->markUnregistered(Reg);
    Reg->Libraries.erase(It);
    ++Generation;
    return;
  }
}

int ompt::initialDeviceNumber() { return Runtime::get().numDevices(); }

int32_t Runtime::numDevices() {
  // Asked on every construct and by omp_get_num_devices: take the lock only
  // until the plugins have been looked for once.
  if (!PluginsLoaded.load(std::memory_order_acquire)) {
    LockedRegistry Reg = lockRegistry();
    loadPlugins(Reg);
  }
  return NumActiveDevices.load();
}

Device *Runtime::device(int64_t Id) {
  if (Id < 0 || Id >= NumActiveDevices.load(std::memory_order_acquire))
    return nullptr;
  return Devices[Id].get();
}

void Runtime::addRequires(int64_t Flags) {
  LockedRegistry Reg = lockRegistry();
  addRequires(Reg, Flags);
}

void Runtime::addRequires(LockedRegistry &Reg, int64_t Flags) {
  // The clauses every compilation unit of a program must agree on (OpenMP
  // 5.2, 8.2): the first registration sets them, later ones are checked,
  // as upstream checks them.
  static constexpr std::pair<int64_t, const char *> Consistent[] = {
      {OMP_REQ_REVERSE_OFFLOAD, "reverse_offload"},
      {OMP_REQ_UNIFIED_ADDRESS, "unified_address"},
      {OMP_REQ_UNIFIED_SHARED_MEMORY, "unified_shared_memory"},
      {OMP_REQ_DYNAMIC_ALLOCATORS, "dynamic_allocators"},
  };
  Flags &= ~static_cast<int64_t>(OMP_REQ_NONE);
  int64_t Old = RequiresFlags.load();
  if (Reg->RequiresRegistered) {
    for (const auto &[Flag, Clause] : Consistent)
      if ((Old & Flag) != (Flags & Flag))
        fatalErrorCode(2, nullptr,
                       "'#pragma omp requires %s' not used consistently! (a "
                       "registered compilation unit %s it, an earlier one %s)",
                       Clause, (Flags & Flag) ? "uses" : "does not use",
                       (Old & Flag) ? "did" : "did not");
  }
  Reg->RequiresRegistered = true;
  if ((Old | Flags) == Old)
    return;
  RequiresFlags.store(Old | Flags);
  for (auto &P : Reg->Plugins)
    if (P->Active) {
      P->Plugin->setRequiresFlags(Old | Flags);
      stopUnlessHonoured(*P, Old | Flags);
    }
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
  bool Ok = update(State, Events, Generation);
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
  if (Ok && !Nested)
    LoadedGeneration.store(Generation, std::memory_order_release);
  return Ok && !Broken.load();
}

bool Device::update(LockedImages &State, ToolEvents &Events,
                    uint64_t &Generation) {
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
