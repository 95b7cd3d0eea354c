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
// and queue layouts are those of the public API.
//
// HSARuntime::load never fails hard: a missing library or symbol, hsa_init
// refusing (as Debian's runtime does on a machine without /dev/kfd), or no
// GPU agent, leaves zero devices and a reason naming it.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_PLUGINS_AMDGPU_HSARUNTIME_H
#define OFFLOAD_PLUGINS_AMDGPU_HSARUNTIME_H

#include "gpu/DriverLibrary.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace offload {
namespace plugin {
namespace hsa {

typedef int hsa_status_t;
typedef int64_t hsa_signal_value_t;
struct hsa_agent_t {
  uint64_t handle;
};
struct hsa_signal_t {
  uint64_t handle;
};
struct hsa_amd_memory_pool_t {
  uint64_t handle;
};
struct hsa_code_object_reader_t {
  uint64_t handle;
};
struct hsa_executable_t {
  uint64_t handle;
};
struct hsa_executable_symbol_t {
  uint64_t handle;
};
struct hsa_loaded_code_object_t {
  uint64_t handle;
};

/// hsa_queue_t.
struct hsa_queue_t {
  uint32_t type;
  uint32_t features;
  void *base_address;
  hsa_signal_t doorbell_signal;
  uint32_t size;
  uint32_t reserved1;
  uint64_t id;
};

/// hsa_kernel_dispatch_packet_t (64 bytes).
struct hsa_kernel_dispatch_packet_t {
  uint16_t header;
  uint16_t setup;
  uint16_t workgroup_size_x;
  uint16_t workgroup_size_y;
  uint16_t workgroup_size_z;
  uint16_t reserved0;
  uint32_t grid_size_x;
  uint32_t grid_size_y;
  uint32_t grid_size_z;
  uint32_t private_segment_size;
  uint32_t group_segment_size;
  uint64_t kernel_object;
  void *kernarg_address;
  uint64_t reserved2;
  hsa_signal_t completion_signal;
};
static_assert(sizeof(hsa_kernel_dispatch_packet_t) == 64,
              "AQL packets are 64 bytes");

/// hsa_barrier_and_packet_t (64 bytes): completes when every dependency
/// signal is 0.
struct hsa_barrier_and_packet_t {
  uint16_t header;
  uint16_t reserved0;
  uint32_t reserved1;
  hsa_signal_t dep_signal[5];
  uint64_t reserved2;
  hsa_signal_t completion_signal;
};
static_assert(sizeof(hsa_barrier_and_packet_t) == 64,
              "AQL packets are 64 bytes");

enum : hsa_status_t {
  HSA_STATUS_SUCCESS = 0x0,
  HSA_STATUS_INFO_BREAK = 0x1,
  HSA_STATUS_ERROR = 0x1000,
  HSA_STATUS_ERROR_INVALID_SYMBOL_NAME = 0x1013,
};

enum : int {
  // hsa_system_info_t
  HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY = 3,
  HSA_AMD_SYSTEM_INFO_SVM_SUPPORTED = 0x201,
  HSA_AMD_SYSTEM_INFO_XNACK_ENABLED = 0x206,
  // hsa_agent_info_t
  HSA_AGENT_INFO_NAME = 0,
  HSA_AGENT_INFO_VENDOR_NAME = 1,
  HSA_AGENT_INFO_WAVEFRONT_SIZE = 6,
  HSA_AGENT_INFO_WORKGROUP_MAX_DIM = 7,
  HSA_AGENT_INFO_WORKGROUP_MAX_SIZE = 8,
  HSA_AGENT_INFO_GRID_MAX_DIM = 9,
  HSA_AGENT_INFO_QUEUE_MAX_SIZE = 14,
  HSA_AGENT_INFO_DEVICE = 17,
  HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT = 0xA002,
  HSA_AMD_AGENT_INFO_MAX_CLOCK_FREQUENCY = 0xA003,
  HSA_AMD_AGENT_INFO_MEMORY_MAX_FREQUENCY = 0xA008,
  HSA_AMD_AGENT_INFO_PRODUCT_NAME = 0xA009,
  // hsa_device_type_t
  HSA_DEVICE_TYPE_CPU = 0,
  HSA_DEVICE_TYPE_GPU = 1,
  // hsa_amd_memory_pool_info_t
  HSA_AMD_MEMORY_POOL_INFO_SEGMENT = 0,
  HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS = 1,
  HSA_AMD_MEMORY_POOL_INFO_SIZE = 2,
  HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED = 5,
  // hsa_amd_segment_t
  HSA_AMD_SEGMENT_GLOBAL = 0,
  // hsa_amd_memory_pool_global_flag_t
  HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT = 1,
  HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED = 2,
  HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED = 4,
  // hsa_executable_symbol_info_t
  HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SIZE = 9,
  HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE = 11,
  HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE = 13,
  HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE = 14,
  HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS = 21,
  HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT = 22,
  // hsa_profile_t, hsa_default_float_rounding_mode_t
  HSA_PROFILE_FULL = 1,
  HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT = 0,
  // hsa_queue_type32_t
  HSA_QUEUE_TYPE_MULTIPLE = 0,
  // hsa_signal_condition_t, hsa_wait_state_t
  HSA_SIGNAL_CONDITION_EQ = 0,
  HSA_SIGNAL_CONDITION_LT = 2,
  HSA_WAIT_STATE_BLOCKED = 0,
  HSA_WAIT_STATE_ACTIVE = 1,
  // Packet header fields.
  HSA_PACKET_TYPE_KERNEL_DISPATCH = 2,
  HSA_PACKET_TYPE_BARRIER_AND = 3,
  HSA_PACKET_HEADER_TYPE = 0,
  HSA_PACKET_HEADER_BARRIER = 8,
  HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE = 9,
  HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE = 11,
  HSA_FENCE_SCOPE_SYSTEM = 2,
  HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS = 0,
};

typedef hsa_status_t (*hsa_agent_callback_t)(hsa_agent_t, void *);
typedef hsa_status_t (*hsa_pool_callback_t)(hsa_amd_memory_pool_t, void *);
typedef void (*hsa_queue_callback_t)(hsa_status_t, hsa_queue_t *, void *);

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
