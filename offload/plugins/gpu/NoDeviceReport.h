//===- NoDeviceReport.h - Say why a GPU plugin has no device ----*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A GPU plugin is initialized only when the program has an image for its
// devices. When it then finds none, the user should learn why (no driver,
// the CUDA stub library, no /dev/kfd...) whenever that matters: offloading is
// mandatory, or information/debug output was requested. The plugin
// interface returns only a count, so the plugin prints the reason itself.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_PLUGINS_GPU_NODEVICEREPORT_H
#define OFFLOAD_PLUGINS_GPU_NODEVICEREPORT_H

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <strings.h>

namespace offload {
namespace plugin {

inline bool shouldReportNoDevice() {
  const char *Policy = std::getenv("OMP_TARGET_OFFLOAD");
  if (Policy && strcasecmp(Policy, "mandatory") == 0)
    return true;
  for (const char *Name : {"LIBOMPTARGET_INFO", "LIBOMPTARGET_DEBUG"}) {
    const char *Value = std::getenv(Name);
    if (Value && *Value && std::strcmp(Value, "0") != 0)
      return true;
  }
  return false;
}

/// Prints "omptarget: the <Plugin> plugin has no device: <Reason>".
inline void reportNoDevice(const char *Plugin, const std::string &Reason) {
  if (shouldReportNoDevice())
    std::fprintf(stderr, "omptarget: the %s plugin has no device: %s\n", Plugin,
                 Reason.c_str());
}

} // namespace plugin
} // namespace offload

#endif // OFFLOAD_PLUGINS_GPU_NODEVICEREPORT_H
