//===- HSARuntime.h - The HSA runtime API, loaded at run time ---*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The part of the HSA runtime API (hsa.h, hsa_ext_amd.h) the AMDGPU plugin
// uses, declared here so the plugin builds without ROCm headers and loads
// libhsa-runtime64.so.1 with dlopen. Handle types, enumerator values, packet
// and queue layouts are the public API's (gpu/HSAABI.h).
//
// HSARuntime::load never fails hard: a missing library or symbol, hsa_init
// refusing (as Debian's runtime does on a machine without /dev/kfd), or no
// GPU agent, leaves zero devices and a reason naming it.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_PLUGINS_AMDGPU_HSARUNTIME_H
#define OFFLOAD_PLUGINS_AMDGPU_HSARUNTIME_H

#include "gpu/DriverLibrary.h"
#include "gpu/HSAABI.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace offload {
namespace plugin {
namespace hsa {

// The API's types and values (shared with the GPU emulator's runtime).
using namespace ::offload::hsa_abi;

// Every entry point the plugin calls: member, exported symbol, result,
// parameters.
#define OFFLOAD_HSA_FUNCTIONS(F)                                               \
  F(hsa_init, hsa_status_t, ())                                                \
  F(hsa_shut_down, hsa_status_t, ())                                           \
  F(hsa_status_string, hsa_status_t, (hsa_status_t, const char **))            \
  F(hsa_system_get_info, hsa_status_t, (int, void *))                          \
  F(hsa_iterate_agents, hsa_status_t, (hsa_agent_callback_t, void *))          \
  F(hsa_agent_get_info, hsa_status_t, (hsa_agent_t, int, void *))              \
  F(hsa_amd_agent_iterate_memory_pools, hsa_status_t,                          \
    (hsa_agent_t, hsa_pool_callback_t, void *))                                \
  F(hsa_amd_memory_pool_get_info, hsa_status_t,                                \
    (hsa_amd_memory_pool_t, int, void *))                                      \
  F(hsa_amd_memory_pool_allocate, hsa_status_t,                                \
    (hsa_amd_memory_pool_t, size_t, uint32_t, void **))                        \
  F(hsa_amd_memory_pool_free, hsa_status_t, (void *))                          \
  F(hsa_amd_agents_allow_access, hsa_status_t,                                 \
    (uint32_t, const hsa_agent_t *, const uint32_t *, const void *))           \
  F(hsa_amd_memory_async_copy, hsa_status_t,                                   \
    (void *, hsa_agent_t, const void *, hsa_agent_t, size_t, uint32_t,         \
     const hsa_signal_t *, hsa_signal_t))                                      \
  F(hsa_amd_memory_fill, hsa_status_t, (void *, uint32_t, size_t))             \
  F(hsa_signal_create, hsa_status_t,                                           \
    (hsa_signal_value_t, uint32_t, const hsa_agent_t *, hsa_signal_t *))       \
  F(hsa_signal_destroy, hsa_status_t, (hsa_signal_t))                          \
  F(hsa_signal_store_screlease, void, (hsa_signal_t, hsa_signal_value_t))      \
  F(hsa_signal_load_scacquire, hsa_signal_value_t, (hsa_signal_t))             \
  F(hsa_signal_wait_scacquire, hsa_signal_value_t,                             \
    (hsa_signal_t, int, hsa_signal_value_t, uint64_t, int))                    \
  F(hsa_queue_create, hsa_status_t,                                            \
    (hsa_agent_t, uint32_t, uint32_t, hsa_queue_callback_t, void *, uint32_t,  \
     uint32_t, hsa_queue_t **))                                                \
  F(hsa_queue_destroy, hsa_status_t, (hsa_queue_t *))                          \
  F(hsa_queue_add_write_index_relaxed, uint64_t,                               \
    (const hsa_queue_t *, uint64_t))                                           \
  F(hsa_queue_load_read_index_scacquire, uint64_t, (const hsa_queue_t *))      \
  F(hsa_code_object_reader_create_from_memory, hsa_status_t,                   \
    (const void *, size_t, hsa_code_object_reader_t *))                        \
  F(hsa_code_object_reader_destroy, hsa_status_t, (hsa_code_object_reader_t))  \
  F(hsa_executable_create_alt, hsa_status_t,                                   \
    (int, int, const char *, hsa_executable_t *))                              \
  F(hsa_executable_load_agent_code_object, hsa_status_t,                       \
    (hsa_executable_t, hsa_agent_t, hsa_code_object_reader_t, const char *,    \
     hsa_loaded_code_object_t *))                                              \
  F(hsa_executable_freeze, hsa_status_t, (hsa_executable_t, const char *))     \
  F(hsa_executable_get_symbol_by_name, hsa_status_t,                           \
    (hsa_executable_t, const char *, const hsa_agent_t *,                      \
     hsa_executable_symbol_t *))                                               \
  F(hsa_executable_symbol_get_info, hsa_status_t,                              \
    (hsa_executable_symbol_t, int, void *))                                    \
  F(hsa_executable_destroy, hsa_status_t, (hsa_executable_t))

// Entry points the plugin works without (null when the library lacks
// them): page-locking host memory (llvm_omp_target_lock_mem).
#define OFFLOAD_HSA_OPTIONAL_FUNCTIONS(F)                                      \
  F(hsa_amd_memory_lock, hsa_status_t,                                         \
    (void *, size_t, hsa_agent_t *, int, void **))                             \
  F(hsa_amd_memory_unlock, hsa_status_t, (void *))

/// The resolved entry points.
struct HSAAPI {
#define OFFLOAD_HSA_DECLARE(Name, Result, Params)                              \
  Result(*Name) Params = nullptr;
  OFFLOAD_HSA_FUNCTIONS(OFFLOAD_HSA_DECLARE)
  OFFLOAD_HSA_OPTIONAL_FUNCTIONS(OFFLOAD_HSA_DECLARE)
#undef OFFLOAD_HSA_DECLARE
};

class HSARuntime : public LoadedDriver<HSAAPI> {
public:
  /// $LIBOMPTARGET_HSA_RUNTIME when set, else libhsa-runtime64.so.1.
  static std::string defaultLibrary();

  /// Loads \p Library, initializes HSA and finds the GPU agents. Always
  /// returns a runtime; check numDevices() and unavailableReason().
  static std::unique_ptr<HSARuntime> load(const std::string &Library);
  ~HSARuntime();

  int32_t numDevices() const { return int32_t(GPUAgents.size()); }
  const std::vector<hsa_agent_t> &gpuAgents() const { return GPUAgents; }
  const std::vector<hsa_agent_t> &cpuAgents() const { return CPUAgents; }

  /// The runtime's description of \p Status, with its number.
  std::string statusString(hsa_status_t Status) const;

private:
  HSARuntime() = default;
  bool Initialized = false;
  std::vector<hsa_agent_t> GPUAgents, CPUAgents;
};

} // namespace hsa
} // namespace plugin
} // namespace offload

#endif // OFFLOAD_PLUGINS_AMDGPU_HSARUNTIME_H
