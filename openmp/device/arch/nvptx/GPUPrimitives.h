//===- GPUPrimitives.h - NVIDIA GPU hardware primitives ---------*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The NVIDIA side of the small hardware vocabulary the shared GPU layer
// (openmp/device/gpu) is written in: special registers, named barriers,
// warp shuffles, fences, clocks. Everything is an inline wrapper over a clang
// NVPTX builtin, so the library stays generic bitcode: the instruction
// selection for a given sm_XX happens when the application is compiled.
//
// Requires sm_70 or newer (independent thread scheduling): a thread may spin
// on memory while other threads of its warp make progress.
//
//===----------------------------------------------------------------------===//

#ifndef OPENMP_DEVICE_ARCH_NVPTX_GPUPRIMITIVES_H
#define OPENMP_DEVICE_ARCH_NVPTX_GPUPRIMITIVES_H

#include <stddef.h>
#include <stdint.h>

/// Team-shared ("CTA shared") memory.
#define OMPX_SHARED __attribute__((address_space(3)))
/// Device-global memory.
#define OMPX_GLOBAL __attribute__((address_space(1)))

// PTX system calls, resolved by the CUDA driver when the module is loaded.
extern "C" int vprintf(const char *Format, void *Arguments);
extern "C" void *malloc(size_t Size);
extern "C" void free(void *Ptr);

namespace ompx {
namespace gpu {

constexpr const char *ArchName = "nvptx";

inline uint32_t threadId() { return __nvvm_read_ptx_sreg_tid_x(); }
inline uint32_t blockSize() { return __nvvm_read_ptx_sreg_ntid_x(); }
inline uint32_t blockId() { return __nvvm_read_ptx_sreg_ctaid_x(); }
inline uint32_t gridSize() { return __nvvm_read_ptx_sreg_nctaid_x(); }
inline uint32_t laneId() { return __nvvm_read_ptx_sreg_laneid(); }

/// The same in dimension \p Dim (0: x, 1: y, 2: z), for the ompx kernel
/// language; the OpenMP runtime itself launches one-dimensional grids.
inline uint32_t threadId(int Dim) {
  return Dim == 2   ? __nvvm_read_ptx_sreg_tid_z()
         : Dim == 1 ? __nvvm_read_ptx_sreg_tid_y()
                    : __nvvm_read_ptx_sreg_tid_x();
}
inline uint32_t blockSize(int Dim) {
  return Dim == 2   ? __nvvm_read_ptx_sreg_ntid_z()
         : Dim == 1 ? __nvvm_read_ptx_sreg_ntid_y()
                    : __nvvm_read_ptx_sreg_ntid_x();
}
inline uint32_t blockId(int Dim) {
  return Dim == 2   ? __nvvm_read_ptx_sreg_ctaid_z()
         : Dim == 1 ? __nvvm_read_ptx_sreg_ctaid_y()
                    : __nvvm_read_ptx_sreg_ctaid_x();
}
inline uint32_t gridSize(int Dim) {
  return Dim == 2   ? __nvvm_read_ptx_sreg_nctaid_z()
         : Dim == 1 ? __nvvm_read_ptx_sreg_nctaid_y()
                    : __nvvm_read_ptx_sreg_nctaid_x();
}
constexpr uint32_t WarpSize = 32;
inline uint32_t warpSize() { return WarpSize; }

/// Lanes of the calling warp executing this instruction together.
inline uint64_t activeMask() { return __nvvm_activemask(); }
/// Waits until the lanes of \p Mask have all reached a syncWarp with the same
/// mask, and orders their memory accesses.
inline void syncWarp(uint64_t Mask) { __nvvm_bar_warp_sync(uint32_t(Mask)); }
/// One bit per lane of \p Mask whose \p Predicate is non-zero.
inline uint64_t ballot(uint64_t Mask, bool Predicate) {
  return __nvvm_vote_ballot_sync(uint32_t(Mask), Predicate);
}

/// Hardware barrier \p Id (0..15) over the whole block; the non-aligned
/// form, which threads may reach from different points of the code.
inline void blockBarrier(uint32_t Id) { __nvvm_barrier_sync(Id); }
/// Hardware barrier over the first \p Count threads; \p Count must be a
/// multiple of the warp size.
inline bool hasCountedBarrier() { return true; }
inline void countedBarrier(uint32_t Id, uint32_t Count) {
  __nvvm_barrier_sync_cnt(Id, Count);
}

inline void fenceBlock() { __nvvm_membar_cta(); }
inline void fenceDevice() { __nvvm_membar_gl(); }

/// shfl.down within groups of \p Width lanes: lane L receives the value of
/// lane L + Delta when that lane is in its group, else its own value.
inline int32_t shuffleDown(uint64_t Mask, int32_t Value, uint32_t Delta,
                           uint32_t Width) {
  // The clamp operand: segment mask in bits 8..12, last lane in bits 0..4.
  int32_t Clamp = int32_t(((WarpSize - Width) << 8) | 0x1f);
  return __nvvm_shfl_sync_down_i32(uint32_t(Mask), Value, Delta, Clamp);
}

/// The global timer: a wall clock counting nanoseconds (updated about every
/// microsecond on most parts). Its rate is fixed, so a frequency the plugin
/// reports (the SM clock) does not apply to it.
inline uint64_t clockTicks() { return __nvvm_read_ptx_sreg_globaltimer(); }
inline uint64_t clockHz(uint64_t /*ReportedHz*/) { return 1000000000u; }

inline void pause() { __nvvm_nanosleep(32); }

/// Bytes of dynamic shared memory the launch requested (no clang builtin
/// reads this special register). The start of the area is not needed here.
inline uint32_t dynamicSharedBytes(uint32_t /*DynamicStart*/) {
  uint32_t Bytes;
  asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(Bytes));
  return Bytes;
}

/// Streaming multiprocessors of the device.
inline uint32_t multiprocessors() { return __nvvm_read_ptx_sreg_nsmid(); }

/// Prints "ompdevice: fatal error (nvptx, block B thread T): Message".
inline void printFatal(const char *Message) {
  // vprintf reads its arguments from a buffer laid out like a struct whose
  // fields are naturally aligned.
  struct {
    uint32_t Block;
    uint32_t Thread;
    const char *Message;
  } Arguments = {blockId(), threadId(), Message};
  vprintf("ompdevice: fatal error (nvptx, block %u thread %u): %s\n",
          &Arguments);
}

/// Prints "File:Line: Function: block [x,y,z], thread [x,y,z]: device
/// assertion `Expression` failed." (the trap that follows stops the kernel,
/// and the plugin reports that naming it). The driver's own __assertfail
/// would print much the same, but vprintf is the one PTX system call every
/// host of the runtime provides (the GPU emulator's __assertfail does not
/// link).
inline void assertFail(const char *Expression, const char *File,
                       unsigned Line, const char *Function) {
  struct {
    const char *File;
    uint32_t Line;
    const char *Function;
    uint32_t Block[3];
    uint32_t Thread[3];
    const char *Expression;
  } Arguments = {File,
                 Line,
                 Function,
                 {blockId(0), blockId(1), blockId(2)},
                 {threadId(0), threadId(1), threadId(2)},
                 Expression};
  vprintf("%s:%u: %s: block [%u,%u,%u], thread [%u,%u,%u]: device assertion "
          "`%s` failed.\n",
          &Arguments);
}

inline void *allocate(size_t Size) { return malloc(Size); }
inline void deallocate(void *Ptr) { free(Ptr); }

} // namespace gpu
} // namespace ompx

#endif // OPENMP_DEVICE_ARCH_NVPTX_GPUPRIMITIVES_H
