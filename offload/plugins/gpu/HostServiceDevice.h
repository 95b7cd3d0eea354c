//===- HostServiceDevice.h - One GPU's host-service channel -----*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What a GPU plugin keeps per device for the host-service channel: the
// ring, made on the first image that links the device side (one whose
// __omp_rtl_host_service the plugin finds), its server and the handlers.
// The plugin calls ring() when it loads such an image and writes the
// address into that global, kernelQueued() after each launch and
// kernelsCompleted() when it has waited for launches, before it reports
// their completion (or failure).
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_PLUGINS_GPU_HOSTSERVICEDEVICE_H
#define OFFLOAD_PLUGINS_GPU_HOSTSERVICEDEVICE_H

#include "HostServiceFiles.h"
#include "HostServiceFortran.h"
#include "HostServiceServer.h"
#include "HostServiceStdio.h"
#include "PluginInterface.h"

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

namespace offload {
namespace plugin {

class DeviceHostService {
public:
  /// Host memory of \p Bytes bytes the device reads and writes at the same
  /// address, or null with \p Error set.
  using AllocateFn = std::function<void *(size_t Bytes, Status &Error)>;

  /// The ring for an image's __omp_rtl_host_service, made with \p Allocate
  /// on first use; \p Device names the device in messages.
  Status ring(const std::string &Device, const AllocateFn &Allocate,
              void *&Out);

  /// ring() for a plugin whose device has findGlobal (telling an image
  /// without the global from a failing runtime), host memory the device
  /// can access from allocate(AllocKind::Host), and dataSubmit: writes the
  /// ring's address into \p Image's global, if it has one.
  template <typename DeviceT>
  Status attach(DeviceT &Device, LoadedImage *Image,
                const std::string &DeviceText) {
    void *Address = nullptr;
    bool Absent = false;
    if (Status S = Device.findGlobal(Image, OMPX_HOST_SERVICE_SYMBOL,
                                     sizeof(void *), Address, Absent))
      return Absent ? Status::ok() : S;
    void *Ring = nullptr;
    auto Allocate = [&](size_t Bytes, Status &Error) -> void * {
      void *Memory = Device.allocate(Bytes, AllocKind::Host);
      if (!Memory)
        Error = Status::error("no host memory the device can access");
      return Memory;
    };
    if (Status S = ring(DeviceText, Allocate, Ring))
      return S;
    return Device.dataSubmit(Address, &Ring, sizeof(Ring), nullptr);
  }

  void kernelQueued() {
    if (HostServiceServer *S = Server.load(std::memory_order_acquire))
      S->kernelQueued();
  }
  void kernelsCompleted(uint32_t Kernels, bool Failed) {
    if (HostServiceServer *S = Server.load(std::memory_order_acquire))
      S->kernelsCompleted(Kernels, Failed);
  }

private:
  std::mutex Mutex;
  /// Sends each request to the handler of its kind.
  class Router : public HostServiceHandler {
  public:
    explicit Router(const std::string &Device)
        : Fortran(nullptr, Device), Stdio(Device), Files(Device) {
      // fprintf and fputs to a file the device opened.
      Stdio.resolveFilesWith(
          [this](const ompx::hostservice::FileRef &Ref,
                 const ompx::hostservice::SlotHeader &Header) {
            return Files.fileOf(Ref, Header);
          });
    }
    uint64_t perform(const ompx::hostservice::SlotHeader &Header,
                     unsigned char *Payload) override;
    void afterKernel() override {
      Fortran.afterKernel();
      Files.afterKernel();
    }

  private:
    FortranHostService Fortran;
    StdioHostService Stdio;
    FileHostService Files;
  };
  std::unique_ptr<Router> Handler;
  std::unique_ptr<HostServiceServer> Owned;
  std::atomic<HostServiceServer *> Server{nullptr};
};

} // namespace plugin
} // namespace offload

#endif // OFFLOAD_PLUGINS_GPU_HOSTSERVICEDEVICE_H
