//===- GPUPlugin.h - The plugin object of the GPU plugins -------*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The CUDA and AMDGPU plugins differ in their devices and drivers, not in
// how the plugin object manages them: the driver is loaded on the first
// initialize() (saying why there is no device when that matters), a device
// is created and initialized on first use, and an image is theirs when its
// OffloadBinary triple says so or, without a container, when it is an ELF
// file for their machine. GPUPlugin does that once for both.
//
// DriverT provides: static std::string defaultLibrary();
//   static std::unique_ptr<DriverT> load(const std::string &);
//   int32_t numDevices() const; const std::string &unavailableReason() const.
// DeviceT provides: DeviceT(const DriverT &, int32_t Id, int32_t NumDevices);
//   Status initialize(); Status checkUnifiedMemory() (whether the device
//   can read pageable host memory, else an error naming
//   unified_shared_memory, the device and what it lacks).
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_PLUGINS_GPU_GPUPLUGIN_H
#define OFFLOAD_PLUGINS_GPU_GPUPLUGIN_H

#include "Guarded.h"
#include "KernelGrid.h"
#include "LaunchKnobs.h"
#include "NoDeviceReport.h"
#include "PluginInterface.h"

#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace offload {
namespace plugin {

/// The grid \p Params ask for, as chooseLaunchGrid reads it.
inline GridRequest gridRequestOf(const KernelLaunchParams &Params) {
  GridRequest Request;
  Request.NumTeams = Params.NumTeams;
  Request.ThreadLimit = Params.ThreadLimit;
  Request.Tripcount = Params.Tripcount;
  for (int D = 0; D < 2; ++D) {
    Request.NumTeamsYZ[D] = Params.NumTeamsYZ[D];
    Request.ThreadLimitYZ[D] = Params.ThreadLimitYZ[D];
  }
  return Request;
}

/// The grid of a launch of \p Kernel (named \p KernelName), within the
/// device's \p Limits once the user's launch knobs applied; or an error
/// naming the device (\p DeviceText) and the kernel. Both GPU plugins
/// choose their grids so, from limits of their own.
inline Status chooseGridWithin(GridLimits Limits, const LaunchKnobs &Knobs,
                               const KernelConfiguration &Config,
                               const KernelLaunchParams &Params,
                               const std::string &DeviceText,
                               const std::string &KernelName, Grid &Out) {
  applyLaunchKnobs(Knobs, Limits);
  std::string Refused =
      chooseLaunchGrid(Config, gridRequestOf(Params), Limits, Out);
  if (!Refused.empty())
    return Status::error("%s: cannot launch kernel '%s': %s",
                         DeviceText.c_str(), KernelName.c_str(),
                         Refused.c_str());
  return Status::ok();
}

/// checkUnifiedMemory's answer for a device that lacks \p Missing (what
/// the driver said the device cannot do; empty when it lacks nothing).
inline Status unifiedMemoryRefusal(const std::string &DeviceText,
                                   const std::string &Missing) {
  if (Missing.empty())
    return Status::ok();
  return Status::error("'#pragma omp requires unified_shared_memory' "
                       "cannot be honoured on %s: %s",
                       DeviceText.c_str(), Missing.c_str());
}

/// What tells one GPU plugin from the other.
struct GPUPluginTraits {
  /// Plugin name, as in libomptarget.rtl.<Name>.so and in messages.
  const char *Name;
  /// Start of the OffloadBinary triple of compatible images ("nvptx64").
  const char *TriplePrefix;
  /// ELF e_machine of compatible images that come without a container.
  uint16_t ELFMachine;
};

template <typename DriverT, typename DeviceT>
class GPUPlugin : public GenericPlugin {
public:
  explicit GPUPlugin(const GPUPluginTraits &Traits) : Traits(Traits) {}

  const char *getName() const override { return Traits.Name; }

  int32_t initialize() override {
    LockedState Locked = State.lock();
    if (!Locked->Driver) {
      Locked->Driver = DriverT::load(DriverT::defaultLibrary());
      if (Locked->Driver->numDevices() == 0)
        reportNoDevice(Traits.Name, Locked->Driver->unavailableReason());
      Locked->Devices.resize(size_t(Locked->Driver->numDevices()));
    }
    return Locked->Driver->numDevices();
  }

  int32_t getNumDevices() const override {
    LockedState Locked = State.lock();
    return Locked->Driver ? Locked->Driver->numDevices() : 0;
  }

  bool isImageCompatible(const DeviceImageRef &Image) const override {
    std::string Triple = Image.Triple ? Image.Triple : "";
    if (!Triple.empty())
      return Triple.rfind(Traits.TriplePrefix, 0) == 0;
    // Without a container: an ELF file for the GPU's machine.
    const auto *Bytes = static_cast<const unsigned char *>(Image.Start);
    return Image.Size > 20 &&
           std::memcmp(Bytes,
                       "\x7f"
                       "ELF",
                       4) == 0 &&
           (Bytes[18] | (Bytes[19] << 8)) == Traits.ELFMachine;
  }

  DeviceT *getDevice(int32_t Id, Status &Error) override {
    LockedState Locked = State.lock();
    const std::unique_ptr<DriverT> &Driver = Locked->Driver;
    if (!Driver || Id < 0 || Id >= Driver->numDevices()) {
      Error = Status::error("the %s plugin has no device %d", Traits.Name, Id);
      return nullptr;
    }
    std::unique_ptr<DeviceT> &Slot = Locked->Devices[size_t(Id)];
    if (!Slot) {
      auto Device =
          std::make_unique<DeviceT>(*Driver, Id, Driver->numDevices());
      if (Status S = Device->initialize()) {
        Error = S;
        return nullptr;
      }
      Slot = std::move(Device);
    }
    return Slot.get();
  }

  void setRequiresFlags(int64_t) override {}

  /// `requires unified_shared_memory`: every device must read the host's
  /// pageable memory (DeviceT::checkUnifiedMemory asks its driver), or
  /// libomptarget stops the program with this error.
  Status checkRequiresFlags(int64_t Flags) override {
    if (!(Flags & OMP_REQ_UNIFIED_SHARED_MEMORY))
      return Status::ok();
    for (int32_t Id = 0, E = getNumDevices(); Id < E; ++Id) {
      Status Error;
      DeviceT *Device = getDevice(Id, Error);
      if (!Device)
        return Error;
      if (Status S = Device->checkUnifiedMemory())
        return S;
    }
    return Status::ok();
  }

  std::string getUnavailableReason() const override {
    LockedState Locked = State.lock();
    return Locked->Driver ? Locked->Driver->unavailableReason() : std::string();
  }

private:
  /// The driver, loaded by the first initialize(), and the devices made so
  /// far; devices never move once made.
  struct PluginState {
    std::unique_ptr<DriverT> Driver;
    std::vector<std::unique_ptr<DeviceT>> Devices;
  };
  using LockedState = typename Guarded<PluginState>::Access;

  const GPUPluginTraits Traits;
  mutable Guarded<PluginState> State;
};

} // namespace plugin
} // namespace offload

#endif // OFFLOAD_PLUGINS_GPU_GPUPLUGIN_H
