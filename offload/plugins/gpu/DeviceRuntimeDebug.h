//===- DeviceRuntimeDebug.h - LIBOMPTARGET_DEVICE_RTL_DEBUG ------*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The GPU plugins copy LIBOMPTARGET_DEVICE_RTL_DEBUG into the DeviceDebugKind
// of each image's `__omp_rtl_device_environment`; bit 0 turns on the device
// runtime's checks of its own invariants (openmp/device/src/Debug.h).
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_PLUGINS_GPU_DEVICERUNTIMEDEBUG_H
#define OFFLOAD_PLUGINS_GPU_DEVICERUNTIMEDEBUG_H

#include <cstdint>
#include <cstdlib>

namespace offload {
namespace plugin {

/// The variable's value (decimal, or 0x hexadecimal); 0 when it is unset or
/// not a number.
inline uint32_t deviceRuntimeDebugKind() {
  const char *Value = std::getenv("LIBOMPTARGET_DEVICE_RTL_DEBUG");
  if (!Value || !*Value)
    return 0;
  char *End = nullptr;
  unsigned long Kind = std::strtoul(Value, &End, 0);
  return *End ? 0 : uint32_t(Kind);
}

} // namespace plugin
} // namespace offload

#endif // OFFLOAD_PLUGINS_GPU_DEVICERUNTIMEDEBUG_H
