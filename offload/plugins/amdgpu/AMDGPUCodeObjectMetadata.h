//===- AMDGPUCodeObjectMetadata.h - Kernel limits from a code object ------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What the HSA runtime does not say about a kernel but its code object does:
// the AMDHSA metadata note (ELF note "AMDGPU", type NT_AMDGPU_METADATA, a
// MessagePack map) gives each kernel's largest work-group
// (.max_flat_workgroup_size, which the compiler assumed: a larger dispatch
// is invalid) and its wavefront size.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_PLUGINS_AMDGPU_AMDGPUCODEOBJECTMETADATA_H
#define OFFLOAD_PLUGINS_AMDGPU_AMDGPUCODEOBJECTMETADATA_H

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>

namespace offload {
namespace amdgpu {

/// ELF note type of the AMDHSA metadata (code object v3 and later).
constexpr uint32_t NoteTypeAMDGPUMetadata = 32;

/// What a code object's metadata says about one kernel; 0: not stated.
struct KernelMetadata {
  uint32_t MaxFlatWorkgroupSize = 0;
  uint32_t WavefrontSize = 0;
  /// Registers per work-item (.vgpr_count, .agpr_count), per wavefront
  /// (.sgpr_count), and those spilled to scratch (.*_spill_count).
  uint32_t VGPRCount = 0;
  uint32_t AGPRCount = 0;
  uint32_t SGPRCount = 0;
  uint32_t VGPRSpillCount = 0;
  uint32_t SGPRSpillCount = 0;
  /// Static LDS per work-group (.group_segment_fixed_size) and scratch per
  /// work-item (.private_segment_fixed_size), in bytes.
  uint32_t GroupSegmentFixedSize = 0;
  uint32_t PrivateSegmentFixedSize = 0;
  /// Whether the note gave .vgpr_count (a code generator's note always
  /// does; the GPU emulator's does not).
  bool HasRegisterCounts = false;
};

/// Each kernel's metadata in the ELF64 image \p Image of \p Size bytes,
/// by kernel name (the metadata's .name). An image without the note gives
/// an empty map. Returns an error message (empty on success) when the image
/// or its note is malformed.
std::string readKernelMetadata(const void *Image, size_t Size,
                               std::map<std::string, KernelMetadata> &Out);

} // namespace amdgpu
} // namespace offload

#endif // OFFLOAD_PLUGINS_AMDGPU_AMDGPUCODEOBJECTMETADATA_H
