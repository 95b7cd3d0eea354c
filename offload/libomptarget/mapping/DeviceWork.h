//===- DeviceWork.h - What a device owns of its mapping work ---*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The part of a device (images/Runtime.h) that the queues of its
// constructs (AsyncContext.h) use: its mapping table, its `nowait` work in
// flight and its plugin device. The device owns them; the mapping code
// reaches them here, so it never reaches back into the runtime that
// registers libraries and loads images.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_LIBOMPTARGET_MAPPING_DEVICEWORK_H
#define OFFLOAD_LIBOMPTARGET_MAPPING_DEVICEWORK_H

#include "Guarded.h"
#include "PluginInterface.h"
#include "mapping/MappingTable.h"

#include <atomic>
#include <memory>
#include <vector>

namespace offload {

class AsyncContext;

/// The contexts of `nowait` constructs left in flight on one device. A
/// construct that waits for an entry such a context will settle completes
/// the context itself (completePending) instead of waiting for the thread
/// that polls it, which may be the waiting thread itself.
class InFlightConstructs final : public InFlightWork {
public:
  void add(const std::shared_ptr<AsyncContext> &Context);
  void remove(const AsyncContext *Context);
  bool hasPending() override { return Count.load() != 0; }
  bool completePending() override;

private:
  Guarded<std::vector<std::shared_ptr<AsyncContext>>> Contexts;
  std::atomic<size_t> Count{0};
};

/// Base of every device: what its constructs' queues need.
class DeviceWork {
public:
  DeviceWork(int32_t Id, bool Asynchronous)
      : Id(Id), Asynchronous(Asynchronous) {
    Mappings.lock()->InFlight = &InFlight;
  }

  /// The device number of the OpenMP API.
  const int32_t Id;

  /// The plugin's device; only once the device was prepared.
  plugin::GenericDevice &plugin() {
    return *PluginDevice.load(std::memory_order_acquire);
  }
  /// Whether the device's operations may complete after their call (a
  /// GPU's queues); the CPU device's complete in it (AsyncContext.h).
  bool asynchronous() const { return Asynchronous; }

  /// Host ranges mapped on the device (see MappingTable.h).
  Guarded<MappingTable> Mappings;
  /// `nowait` constructs whose device work is still in flight.
  InFlightConstructs InFlight;

protected:
  /// Set once by the device's preparation; null before.
  std::atomic<plugin::GenericDevice *> PluginDevice{nullptr};

private:
  const bool Asynchronous;
};

} // namespace offload

#endif // OFFLOAD_LIBOMPTARGET_MAPPING_DEVICEWORK_H
