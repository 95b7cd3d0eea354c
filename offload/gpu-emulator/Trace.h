//===- Trace.h - GPUEMU_TRACE: what the emulated drivers print --*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// With GPUEMU_TRACE set, both emulated drivers print each launch and each
// copy they are asked for, when they are asked (not when the work runs), so
// a test can see what a plugin sends to the GPU per launch.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_GPU_EMULATOR_TRACE_H
#define OFFLOAD_GPU_EMULATOR_TRACE_H

#include "DeviceMemory.h"

#include <cstdio>
#include <cstdlib>

namespace gpuemu {

/// Whether GPUEMU_TRACE is set.
inline bool tracing() {
  static const bool On = std::getenv("GPUEMU_TRACE") != nullptr;
  return On;
}

/// "gpu-emulator: copying 16 bytes, host to device" for a copy the driver
/// is asked for, when tracing.
inline void traceCopy(void *Dst, const void *Src, size_t Bytes) {
  if (!tracing())
    return;
  auto Side = [Bytes](const void *P) {
    return DeviceMemory::get().isDevice(P, Bytes) ? "device" : "host";
  };
  std::fprintf(stderr, "gpu-emulator: copying %zu bytes, %s to %s\n", Bytes,
               Side(Src), Side(Dst));
}

} // namespace gpuemu

#endif // OFFLOAD_GPU_EMULATOR_TRACE_H
