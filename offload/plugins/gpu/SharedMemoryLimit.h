//===- SharedMemoryLimit.h - Does a launch's shared memory fit --*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A block (work-group) has the kernel's static shared memory (LDS) plus the
// dynamic shared memory of its launch: ompx_dyn_cgroup_mem plus
// LIBOMPTARGET_SHARED_MEMORY_SIZE. Both GPU plugins check the sum against
// the device's limit before the launch, so that a launch that cannot fit
// fails with the kernel, the bytes and the limit named, rather than with
// the driver's bare CUDA_ERROR_INVALID_VALUE or a stopped HSA queue.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_PLUGINS_GPU_SHAREDMEMORYLIMIT_H
#define OFFLOAD_PLUGINS_GPU_SHAREDMEMORYLIMIT_H

#include "PluginInterface.h"

#include <cstdint>
#include <string>

namespace offload {
namespace plugin {

/// What a device allows a block: \p Bytes of shared memory, \p Name for it
/// ("shared memory", "LDS") and for a block ("block", "work-group").
struct SharedMemoryLimit {
  uint64_t Bytes = 0;
  const char *Name = "shared memory";
  const char *Block = "block";
};

/// An error when \p StaticBytes plus \p DynamicBytes are over \p Limit:
/// "<device>: cannot launch kernel 'K': it needs N bytes of shared memory
/// (S static + D dynamic), more than the L a block may have"; else ok.
inline Status checkSharedMemory(const std::string &DeviceText,
                                const std::string &KernelName,
                                uint64_t StaticBytes, uint64_t DynamicBytes,
                                const SharedMemoryLimit &Limit) {
  uint64_t Total = StaticBytes + DynamicBytes;
  if (Total <= Limit.Bytes)
    return Status::ok();
  return Status::error(
      "%s: cannot launch kernel '%s': it needs %llu bytes of %s (%llu static "
      "+ %llu dynamic: ompx_dyn_cgroup_mem and LIBOMPTARGET_SHARED_MEMORY_SIZE)"
      ", more than the %llu a %s may have",
      DeviceText.c_str(), KernelName.c_str(), (unsigned long long)Total,
      Limit.Name, (unsigned long long)StaticBytes,
      (unsigned long long)DynamicBytes, (unsigned long long)Limit.Bytes,
      Limit.Block);
}

} // namespace plugin
} // namespace offload

#endif // OFFLOAD_PLUGINS_GPU_SHAREDMEMORYLIMIT_H
