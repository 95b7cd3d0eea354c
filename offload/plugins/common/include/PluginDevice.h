//===- PluginDevice.h - What every plugin's device does alike ---*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The devices of the host, CUDA and AMDGPU plugins derive from PluginDevice,
// which implements the parts of GenericDevice that do not depend on the
// hardware:
//
// - the `declare target indirect` table (IndirectCallInstall.h), installed
//   per image by libomptarget or, through __tgt_rtl_set_function_ptr_map,
//   into every image loaded on the device; for the latter the device keeps
//   the list of its loaded images;
// - SynchronousPluginDevice: the `nowait` bookkeeping of a device whose
//   operations all complete before they return (host, AMDGPU).
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_PLUGINS_COMMON_PLUGINDEVICE_H
#define OFFLOAD_PLUGINS_COMMON_PLUGINDEVICE_H

#include "Guarded.h"
#include "IndirectCallInstall.h"
#include "PluginInterface.h"

#include <algorithm>
#include <mutex>
#include <string>
#include <vector>

namespace offload {
namespace plugin {

class PluginDevice : public GenericDevice {
public:
  /// Loads through loadDeviceImage and remembers the image.
  Status loadImage(const DeviceImageRef &Image, LoadedImage *&Out) final {
    if (Status S = loadDeviceImage(Image, Out))
      return S;
    Images.lock()->push_back(
        {Out, Image.Description ? Image.Description : ""});
    return Status::ok();
  }

  /// Forgets the image, frees the indirect-call tables still installed in
  /// it (libomptarget removes its own first, but a table installed through
  /// __tgt_rtl_set_function_ptr_map may remain) and unloads it.
  Status unloadImage(LoadedImage *Image) final {
    {
      // Once out of the list, no installFunctionPtrMap reaches the image;
      // taking the lock also waits for an installation under way in it.
      ImageList::Access List = Images.lock();
      List->erase(std::remove_if(List->begin(), List->end(),
                                 [&](const ImageRecord &Record) {
                                   return Record.Image == Image;
                                 }),
                  List->end());
    }
    releaseIndirectCallTables(*this, Image);
    return unloadDeviceImage(Image);
  }

  Status setIndirectCallTable(LoadedImage *Image,
                              const void *const *HostAddresses,
                              const void *const *DeviceAddresses,
                              size_t Count) final {
    std::vector<__omp_offloading_fptr_map_ty> Entries(Count);
    for (size_t I = 0; I < Count; ++I) {
      Entries[I].host_ptr = reinterpret_cast<intptr_t>(HostAddresses[I]);
      Entries[I].tgt_ptr = reinterpret_cast<intptr_t>(DeviceAddresses[I]);
    }
    ImageList::Access List = Images.lock();
    return install(List, Image, Entries.data(), Count);
  }

  /// Installs \p Count entries (checked with checkFunctionPtrMap) into every
  /// image loaded on this device; \p Count 0 removes their tables. Images
  /// loaded later do not get this table (libomptarget installs its own into
  /// the images it loads). Every image is tried; the first failure is
  /// returned.
  Status installFunctionPtrMap(const __omp_offloading_fptr_map_ty *Entries,
                               size_t Count) {
    // Held throughout, so no image is unloaded while its table is written.
    ImageList::Access List = Images.lock();
    Status First;
    for (const ImageRecord &Record : *List) {
      Status S = install(List, Record.Image, Entries, Count);
      if (S && !First)
        First = Status::error("%s: %s", Record.Description.c_str(),
                              S.message().c_str());
    }
    return First;
  }

  size_t numLoadedImages() const { return Images.lock()->size(); }

protected:
  /// The plugin's own image loading and unloading (see GenericDevice).
  virtual Status loadDeviceImage(const DeviceImageRef &Image,
                                 LoadedImage *&Out) = 0;
  virtual Status unloadDeviceImage(LoadedImage *Image) = 0;

private:
  struct ImageRecord {
    LoadedImage *Image;
    std::string Description; ///< for messages
  };
  using ImageList = Guarded<std::vector<ImageRecord>>;

  /// The one way to a table installation. Installing reads, changes and
  /// writes the image's device environment; libomptarget
  /// (setIndirectCallTable) and __tgt_rtl_set_function_ptr_map
  /// (installFunctionPtrMap) may do it from two threads at once, so it
  /// requires the image list's lock (\p Held), which both take.
  Status install(ImageList::Access &Held, LoadedImage *Image,
                 const __omp_offloading_fptr_map_ty *Entries, size_t Count) {
    (void)Held;
    return installIndirectCallEntries(*this, Image, Entries, Count);
  }

  mutable ImageList Images; ///< in load order
};

/// A device whose every operation, `nowait` ones included, has completed
/// when it returns: there is never anything to wait for.
class SynchronousPluginDevice : public PluginDevice {
public:
  Status synchronize(__tgt_async_info *Async) override {
    if (Async)
      Async->Queue = nullptr;
    return Status::ok();
  }
  Status queryAsync(__tgt_async_info *, bool &Done) override {
    Done = true;
    return Status::ok();
  }
};

} // namespace plugin
} // namespace offload

#endif // OFFLOAD_PLUGINS_COMMON_PLUGINDEVICE_H
