//===- AMDGPUDeviceHeap.h - The heap behind malloc on AMD GPUs --*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// HSA gives kernels no malloc, so the plugin reserves LIBOMPTARGET_HEAP_SIZE
// bytes of device memory per device when the first image that uses our
// device runtime's heap is loaded, and tells every such image where it is
// (`__ompx_device_heap`, DeviceHeapABI.h). The device allocator lives in
// openmp/device. A host-visible word lets a kernel that ran out of heap in
// `operator new` say so before it traps, so the kernel's error can name the
// cause instead of only "a trap".
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_PLUGINS_AMDGPU_AMDGPUDEVICEHEAP_H
#define OFFLOAD_PLUGINS_AMDGPU_AMDGPUDEVICEHEAP_H

#include "DeviceHeapABI.h"
#include "PluginInterface.h"
#include "gpu/DeviceLimits.h"

#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace offload {
namespace plugin {

constexpr const char *HeapSizeVariable = "LIBOMPTARGET_HEAP_SIZE";

/// The heap of one device. \p DeviceT provides findGlobal (telling an absent
/// symbol from a failure), allocate and dataSubmit, as AMDGPUDevice does.
class AMDGPUDeviceHeap {
public:
  /// Gives \p Image the device's heap, reserving it first if this is the
  /// first image to ask. An image without `__ompx_device_heap` (not built
  /// with our runtime) is left alone.
  template <typename DeviceT>
  Status install(DeviceT &Device, LoadedImage *Image,
                 const std::string &DeviceText) {
    void *Address = nullptr;
    bool Absent = false;
    if (Status S =
            Device.findGlobal(Image, ompx::DeviceHeapSymbol,
                              sizeof(ompx::DeviceHeapLayout), Address, Absent))
      return Absent ? Status::ok() : S;
    std::lock_guard<std::mutex> Lock(Mutex);
    if (!Layout.Base)
      if (Status S = reserve(Device, DeviceText))
        return S;
    return Device.dataSubmit(Address, &Layout, sizeof(Layout), nullptr);
  }

  /// \p KernelFailure, with the heap named as its cause when a kernel said
  /// it could not allocate (the report is cleared for the next kernel).
  Status explain(Status KernelFailure) {
    std::lock_guard<std::mutex> Lock(Mutex);
    auto *Report = reinterpret_cast<uint64_t *>(Layout.ExhaustionReport);
    if (!KernelFailure || !Report)
      return KernelFailure;
    uint64_t Bytes = __atomic_exchange_n(Report, 0, __ATOMIC_ACQ_REL);
    if (!Bytes)
      return KernelFailure;
    return Status::error(
        "%s; cause: device heap exhausted (%s=%llu): operator new could not "
        "allocate %llu bytes",
        KernelFailure.message().c_str(), HeapSizeVariable,
        static_cast<unsigned long long>(Layout.Size),
        static_cast<unsigned long long>(Bytes));
  }

  /// Bytes of the heap, 0 until an image needed it.
  uint64_t size() const { return Layout.Size; }

private:
  template <typename DeviceT>
  Status reserve(DeviceT &Device, const std::string &DeviceText) {
    RequestedSize Request = requestedSizeFromEnvironment(HeapSizeVariable);
    if (!Request.Error.empty())
      return Status::error("%s: %s", DeviceText.c_str(), Request.Error.c_str());
    uint64_t Bytes =
        Request.Present ? Request.Bytes : ompx::DefaultDeviceHeapBytes;
    // Below the allocator's state there is no room for a single block.
    if (Bytes < 2 * ompx::DeviceHeapStateBytes)
      return Status::error(
          "%s: %s=%llu is too small for the device heap "
          "(at least %llu bytes)",
          DeviceText.c_str(), HeapSizeVariable,
          static_cast<unsigned long long>(Bytes),
          static_cast<unsigned long long>(2 * ompx::DeviceHeapStateBytes));
    void *Heap = Device.allocate(Bytes, AllocKind::Device);
    if (!Heap)
      return Status::error("%s: cannot reserve the device heap of %llu bytes "
                           "(%s)",
                           DeviceText.c_str(),
                           static_cast<unsigned long long>(Bytes),
                           HeapSizeVariable);
    std::vector<char> Empty(ompx::DeviceHeapStateBytes, 0);
    if (Status S = Device.dataSubmit(Heap, Empty.data(), int64_t(Empty.size()),
                                     nullptr))
      return S;
    // Without the report word a failing new still traps; only the message
    // is less precise, so its absence is not an error.
    auto *Report = static_cast<uint64_t *>(Device.allocate(8, AllocKind::Host));
    if (Report)
      *Report = 0;
    Layout.Base = reinterpret_cast<uint64_t>(Heap);
    Layout.Size = Bytes;
    Layout.ExhaustionReport = reinterpret_cast<uint64_t>(Report);
    return Status::ok();
  }

  std::mutex Mutex;
  ompx::DeviceHeapLayout Layout{};
};

} // namespace plugin
} // namespace offload

#endif // OFFLOAD_PLUGINS_AMDGPU_AMDGPUDEVICEHEAP_H
