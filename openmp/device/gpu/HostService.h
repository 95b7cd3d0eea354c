//===- HostService.h - Device side of the host-service channel --*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Requests from GPU threads to the host (offload/include/HostServiceABI.h):
// a thread claims a slot, writes its request into it and submits it; the
// plugin's server performs it.
//
//===----------------------------------------------------------------------===//

#ifndef OPENMP_DEVICE_GPU_HOSTSERVICE_H
#define OPENMP_DEVICE_GPU_HOSTSERVICE_H

#include "HostServiceABI.h"

namespace ompx {
namespace hostservice {

/// A claimed slot, or none (no server: the request is dropped).
struct Request {
  Slot *Claimed = nullptr;
  uint64_t Ticket = 0;
};

/// Claims the next slot for a request of \p Op, waiting while the host has
/// not yet served that slot's previous request.
Request claim(uint32_t Op);
/// Hands \p R to the host; the slot must not be touched afterwards.
void submit(Request &R);

/// Hands \p R to the host and waits for its answer; with \p Reply, copies
/// the first min(answer, \p ReplyBytes) bytes of the payload the host
/// wrote there before giving the slot back.
uint64_t call(Request &R, void *Reply = nullptr, uint32_t ReplyBytes = 0);

/// How the host knows the stream \p File (stdout, stderr, or a file the
/// host opened for fopen); Stream and Handle are 0 for a null \p File.
FileRef fileRefOf(const void *File);

/// Appends \p Bytes bytes to \p R's payload; marks it truncated (and
/// appends nothing) when they do not fit.
void append(Request &R, const void *Data, uint32_t Bytes);

} // namespace hostservice
} // namespace ompx

#endif // OPENMP_DEVICE_GPU_HOSTSERVICE_H
