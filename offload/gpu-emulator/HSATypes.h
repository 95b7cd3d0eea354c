//===- HSATypes.h - The emulated HSA runtime's types ------------*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The part of the HSA runtime API (hsa.h, hsa_ext_amd.h) the emulated
// libhsa-runtime64.so.1 implements: the public API's handle types,
// enumerator values and packet and queue layouts (the AMDGPU plugin's
// offload/plugins/gpu/HSAABI.h), and the emulator's own objects behind the
// handles. A handle is the address of its object.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_GPU_EMULATOR_HSATYPES_H
#define OFFLOAD_GPU_EMULATOR_HSATYPES_H

#include "ModuleLoader.h"
#include "gpu/HSAABI.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <vector>

namespace gpuemu {
namespace hsa {

// The API's types and values (shared with the AMDGPU plugin).
using namespace ::offload::hsa_abi;

class Queue;

/// A signal: a value that waits observe, and, for a queue's doorbell, the
/// queue to wake when it is written.
struct Signal {
  std::atomic<hsa_signal_value_t> Value{0};
  std::mutex Lock;
  std::condition_variable Changed;
  Queue *Doorbell = nullptr;
  /// What runs once the value drops below 1 (whenBelowOne); guarded by
  /// Lock.
  std::vector<std::function<void()>> BelowOne;

  static Signal *of(hsa_signal_t S) {
    return reinterpret_cast<Signal *>(S.handle);
  }
  /// Stores \p V (or adds it, \p Add) and wakes the waiters.
  void update(hsa_signal_value_t V, bool Add);
  /// Runs \p Action once the value is below 1: at once if it is, else in
  /// the thread of the update that brings it there.
  void whenBelowOne(std::function<void()> Action);
};

/// The kernel a dispatch packet names by its descriptor (kernel_object).
/// Records \p Descriptor as kernel \p Kernel's; forgets it when \p Kernel
/// is null.
void registerKernelObject(uint64_t Descriptor, KernelFunction *Kernel);
KernelFunction *kernelForObject(uint64_t Descriptor);
/// Whether [Ptr, Ptr+Bytes) is memory an agent can copy: device memory, an
/// image's data, or an allocation from a host pool.
bool isAgentMemory(const void *Ptr, size_t Bytes);

} // namespace hsa
} // namespace gpuemu

#endif // OFFLOAD_GPU_EMULATOR_HSATYPES_H
