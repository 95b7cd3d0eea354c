//===- IndirectCallDevice.cpp - Indirect-call tables of a device ----------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "indirect/IndirectCallDevice.h"

#include "diagnostics/Diagnostics.h"

#include <cinttypes>

namespace offload {

namespace {

/// Hands the device's table to the plugin for each image in \p Images.
bool installTable(plugin::GenericDevice &Device, int32_t DeviceId,
                  const std::vector<const void *> &Images,
                  const IndirectCallRegistry &Registry) {
  std::vector<IndirectCallPair> Table = Registry.table();
  std::vector<const void *> Hosts, Devices;
  Hosts.reserve(Table.size());
  Devices.reserve(Table.size());
  for (const IndirectCallPair &Pair : Table) {
    Hosts.push_back(reinterpret_cast<const void *>(Pair.Host));
    Devices.push_back(reinterpret_cast<const void *>(Pair.Device));
  }
  bool Ok = true;
  for (const void *Key : Images) {
    auto *Image = const_cast<plugin::LoadedImage *>(
        static_cast<const plugin::LoadedImage *>(Key));
    if (plugin::Status S = Device.setIndirectCallTable(
            Image, Hosts.data(), Devices.data(), Table.size())) {
      errorMessage("device %d: cannot install the indirect-call table (%zu "
                   "functions): %s",
                   DeviceId, Table.size(), S.message().c_str());
      Ok = false;
    }
  }
  OFFLOAD_DEBUG("device %d: indirect-call table of %zu functions installed "
                "in %zu image(s)",
                DeviceId, Table.size(), Images.size());
  return Ok;
}

} // namespace

bool addImageIndirectCalls(plugin::GenericDevice &Device, int32_t DeviceId,
                           plugin::LoadedImage *Image, const char *Description,
                           const std::vector<ImageEntry> &Entries,
                           IndirectCallRegistry &Registry,
                           std::vector<IndirectCallPair> &ImagePairs) {
  IndirectCallDeviceAccess Access;
  Access.FindGlobal = [&](const char *Name, uint64_t Size, void *&Address,
                          std::string &Error) {
    plugin::Status S = Device.getGlobal(Image, Name, Size, Address);
    Error = S.message();
    return !S;
  };
  Access.Read = [&](void *HostDst, const void *DeviceSrc, uint64_t Size,
                    std::string &Error) {
    // A copy like any other, reported as upstream reports it.
    if (infoFlags() & InfoDataTransfers)
      infoMessage(DeviceId,
                  "Copying data from device to host, TgtPtr=0x%016" PRIxPTR
                  ", HstPtr=0x%016" PRIxPTR ", Size=%" PRIu64 ", Name=unknown",
                  reinterpret_cast<uintptr_t>(DeviceSrc),
                  reinterpret_cast<uintptr_t>(HostDst), Size);
    plugin::Status S = Device.dataRetrieve(HostDst, DeviceSrc,
                                           static_cast<int64_t>(Size), nullptr);
    Error = S.message();
    return !S;
  };
  std::vector<IndirectCallPair> Pairs;
  std::string Error;
  if (!collectIndirectCallPairs(Entries, Access, Pairs, Error)) {
    errorMessage("device %d: %s: %s", DeviceId, Description, Error.c_str());
    return false;
  }
  bool Contributes = !Pairs.empty();
  ImagePairs.insert(ImagePairs.end(), Pairs.begin(), Pairs.end());
  Registry.addImage(Image, std::move(Pairs));
  if (Registry.numPairs() == 0)
    return true; // No image has indirect functions: nothing to look up.
  // New pairs change every image's table; otherwise only the new image
  // needs the existing one.
  std::vector<const void *> Targets =
      Contributes ? Registry.images() : std::vector<const void *>{Image};
  return installTable(Device, DeviceId, Targets, Registry);
}

void removeImageIndirectCalls(plugin::GenericDevice &Device, int32_t DeviceId,
                              plugin::LoadedImage *Image,
                              IndirectCallRegistry &Registry) {
  size_t Before = Registry.numPairs();
  Registry.removeImage(Image);
  if (Before == 0)
    return; // Nothing was ever installed.
  // Uninstall from the image going away (frees its tables), then give the
  // others a table without its functions.
  if (plugin::Status S =
          Device.setIndirectCallTable(Image, nullptr, nullptr, 0))
    OFFLOAD_DEBUG("device %d: removing an indirect-call table: %s", DeviceId,
                  S.message().c_str());
  if (Registry.numPairs() != Before && !Registry.images().empty())
    (void)installTable(Device, DeviceId, Registry.images(), Registry);
}

} // namespace offload
