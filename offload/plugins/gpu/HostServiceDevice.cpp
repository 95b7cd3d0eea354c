//===- HostServiceDevice.cpp - One GPU's host-service channel -------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "HostServiceDevice.h"

using namespace offload::plugin;
using namespace ompx::hostservice;

Status DeviceHostService::ring(const std::string &Device,
                               const AllocateFn &Allocate, void *&Out) {
  std::lock_guard<std::mutex> Lock(Mutex);
  if (!Owned) {
    Status Error;
    void *Memory = Allocate(ringBytes(DefaultSlots), Error);
    if (!Memory)
      return Status::error("%s: cannot allocate the %zu-byte host-service "
                           "ring (device printf and Fortran I/O): %s",
                           Device.c_str(), ringBytes(DefaultSlots),
                           Error.message().c_str());
    // The Flang runtime is looked up on the first Fortran request, so
    // programs that never print from the device do not load it.
    Handler = std::make_unique<Router>(Device);
    Owned = std::make_unique<HostServiceServer>(Memory, DefaultSlots, *Handler);
    Server.store(Owned.get(), std::memory_order_release);
  }
  Out = Owned->ring();
  return Status::ok();
}

uint64_t DeviceHostService::Router::perform(const SlotHeader &Header,
                                            unsigned char *Payload) {
  if (Header.Opcode == OpPrintf || Header.Opcode == OpPuts)
    return Stdio.perform(Header, Payload);
  if (Header.Opcode >= OpFopen && Header.Opcode <= OpExit)
    return Files.perform(Header, Payload);
  // Fortran's requests, and the message for unknown ones.
  return Fortran.perform(Header, Payload);
}
