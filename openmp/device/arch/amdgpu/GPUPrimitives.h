//===- GPUPrimitives.h - AMD GPU hardware primitives ------------*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The AMD side of the hardware vocabulary of openmp/device/gpu: work-item
// and work-group ids, the work-group barrier, wavefront permutes, fences and
// the constant-rate clock. The library is built without a -mcpu, so only
// builtins every gfx9+ target has are used; the application's gfx target
// selects the instructions when it is linked.
//
// Sizes are read from the HSA kernel dispatch packet (hsa.h's
// hsa_kernel_dispatch_packet_t), which every launch fills in, rather than
// from the implicit kernel arguments whose layout depends on the code object
// version.
//
//===----------------------------------------------------------------------===//

#ifndef OPENMP_DEVICE_ARCH_AMDGPU_GPUPRIMITIVES_H
#define OPENMP_DEVICE_ARCH_AMDGPU_GPUPRIMITIVES_H

#include <stddef.h>
#include <stdint.h>

/// Team-shared memory (LDS).
#define OMPX_SHARED __attribute__((address_space(3)))
/// Device-global memory.
#define OMPX_GLOBAL __attribute__((address_space(1)))

namespace ompx {
namespace gpu {

constexpr const char *ArchName = "amdgpu";

namespace detail {
/// Field offsets in hsa_kernel_dispatch_packet_t.
constexpr size_t PacketWorkgroupSizeX = 4;    // uint16_t
constexpr size_t PacketGridSizeX = 12;        // uint32_t, in work-items
constexpr size_t PacketGroupSegmentSize = 28; // uint32_t, bytes of LDS
inline const uint8_t *dispatchPacket() {
  return reinterpret_cast<const uint8_t *>(__builtin_amdgcn_dispatch_ptr());
}
} // namespace detail

inline uint32_t threadId() { return __builtin_amdgcn_workitem_id_x(); }
inline uint32_t blockSize() {
  return *reinterpret_cast<const uint16_t *>(detail::dispatchPacket() +
                                             detail::PacketWorkgroupSizeX);
}
inline uint32_t blockId() { return __builtin_amdgcn_workgroup_id_x(); }
inline uint32_t gridSize() {
  uint32_t WorkItems = *reinterpret_cast<const uint32_t *>(
      detail::dispatchPacket() + detail::PacketGridSizeX);
  uint32_t Block = blockSize();
  return Block ? (WorkItems + Block - 1) / Block : 0;
}
/// The same in dimension \p Dim (0: x, 1: y, 2: z), for the ompx kernel
/// language; the OpenMP runtime itself launches one-dimensional grids. The
/// packet has the three work-group sizes (uint16_t) and then the three grid
/// sizes (uint32_t, in work-items) side by side.
inline uint32_t threadId(int Dim) {
  return Dim == 2   ? __builtin_amdgcn_workitem_id_z()
         : Dim == 1 ? __builtin_amdgcn_workitem_id_y()
                    : __builtin_amdgcn_workitem_id_x();
}
inline uint32_t blockSize(int Dim) {
  return reinterpret_cast<const uint16_t *>(
      detail::dispatchPacket() + detail::PacketWorkgroupSizeX)[Dim];
}
inline uint32_t blockId(int Dim) {
  return Dim == 2   ? __builtin_amdgcn_workgroup_id_z()
         : Dim == 1 ? __builtin_amdgcn_workgroup_id_y()
                    : __builtin_amdgcn_workgroup_id_x();
}
inline uint32_t gridSize(int Dim) {
  uint32_t WorkItems = reinterpret_cast<const uint32_t *>(
      detail::dispatchPacket() + detail::PacketGridSizeX)[Dim];
  uint32_t Block = blockSize(Dim);
  return Block ? (WorkItems + Block - 1) / Block : 0;
}
inline uint32_t laneId() {
  return __builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u));
}
inline uint32_t warpSize() { return __builtin_amdgcn_wavefrontsize(); }

/// Lanes of the calling wavefront executing this instruction together.
inline uint64_t activeMask() { return __builtin_amdgcn_read_exec(); }
/// A wavefront executes in lockstep: only the compiler must be kept from
/// moving memory accesses across this point.
inline void syncWarp(uint64_t) { __builtin_amdgcn_wave_barrier(); }
/// One bit per active lane of \p Mask whose \p Predicate is non-zero.
inline uint64_t ballot(uint64_t Mask, bool Predicate) {
  return __builtin_amdgcn_ballot_w64(Predicate) & Mask;
}

/// The work-group barrier (s_barrier) with work-group scope fences. AMD has
/// one hardware barrier per work-group and no counted form.
inline void blockBarrier(uint32_t) {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}
inline bool hasCountedBarrier() { return false; }
inline void countedBarrier(uint32_t Id, uint32_t) { blockBarrier(Id); }

inline void fenceBlock() {
  __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "workgroup");
}
inline void fenceDevice() { __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "agent"); }

/// Lane L receives the value of lane L + Delta when that lane is in the same
/// group of \p Width lanes, else its own value (ds_bpermute addresses lanes
/// in bytes).
inline int32_t shuffleDown(uint64_t, int32_t Value, uint32_t Delta,
                           uint32_t Width) {
  uint32_t Lane = laneId();
  uint32_t GroupEnd = (Lane & ~(Width - 1)) + Width;
  uint32_t Source = Lane + Delta < GroupEnd ? Lane + Delta : Lane;
  return __builtin_amdgcn_ds_bpermute(int32_t(Source << 2), Value);
}

/// The constant-rate counter (s_memrealtime on gfx9: 100 MHz unless the
/// plugin reports another frequency in the device environment).
inline uint64_t clockTicks() { return __builtin_readsteadycounter(); }
inline uint64_t clockHz(uint64_t ReportedHz) {
  return ReportedHz ? ReportedHz : 100000000u;
}

inline void pause() { __builtin_amdgcn_s_sleep(1); }

/// Bytes of dynamic team-shared memory: what the launch reserved beyond the
/// kernel's static allocation, which ends where dynamic memory starts
/// (\p DynamicStart, the LDS offset of the dynamic area).
inline uint32_t dynamicSharedBytes(uint32_t DynamicStart) {
  uint32_t Total = *reinterpret_cast<const uint32_t *>(
      detail::dispatchPacket() + detail::PacketGroupSegmentSize);
  return Total > DynamicStart ? Total - DynamicStart : 0;
}

/// Streaming multiprocessors are not visible to device code; the plugin
/// reports the device's parallelism in the device environment.
inline uint32_t multiprocessors() { return 1; }

/// The device heap the plugin reserves (AMDGPUHeap.cpp), shared with
/// malloc/free in user code; null when it is exhausted.
void *allocate(size_t Size);
void deallocate(void *Ptr);

/// Prints "ompdevice: fatal error (amdgpu, block B thread T): Message" on
/// the host's stderr through the host-service channel (AMDGPUMessages.cpp;
/// nothing where the plugin serves none); the trap that follows stops the
/// kernel, and the plugin reports that with the kernel's name.
void printFatal(const char *Message);
/// Prints a failed assertion as NVIDIA's assertFail does.
void assertFail(const char *Expression, const char *File, unsigned Line,
                const char *Function);

} // namespace gpu
} // namespace ompx

#endif // OPENMP_DEVICE_ARCH_AMDGPU_GPUPRIMITIVES_H
