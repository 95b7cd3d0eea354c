//===- Runtime.cpp - Registered libraries and plugins ---------------------===//
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

void Runtime::initializeDevicesForTools() {
  // Not a guarded static: a tool's device_initialize may register a
  // library (dlopen) and so come back here.
  static std::atomic<bool> Started{false};
  if (Started.exchange(true))
    return;
  // Upstream connects to the tool and initializes its devices at start-up,
  // and tools (upstream's tests among them) expect device_initialize before
  // the program's first line. Without a tool that watches devices, devices
  // stay uninitialized until first used.
  ompt::connect();
  if (!ompt::watchesDevices())
    return;
  for (int32_t I = 0, E = numDevices(); I < E; ++I)
    if (Device *D = device(I))
      (void)D->initialize(); // A failure is printed; its first use fails.
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
