//===- ompx.h - clang's <ompx.h>, with warp functions for CPUs ----*- C -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The clang shims put this directory ahead of clang's own headers. For CPU
// code (the CPU device and the host fallback) clang-22's <ompx.h> defines
// ompx_ballot_sync, ompx_shfl_down_sync_{i,f,l,d} and the warp size of its
// C++ wrappers as traps. On a CPU every device thread is a warp of its own
// (the device runtime's warp size is 1), where they have a plain meaning:
// a ballot is the calling lane's own bit, a shuffle down reads past the
// warp and so returns the caller's value. These definitions are OpenMP
// variants for CPUs from the llvm implementation: more specific than
// clang's (device kind only), so calls pick them. They come before clang's
// header so its C++ wrappers, compiled there, call them too.
//
// In CPU device code (not the host fallback: `kind(nohost, cpu)`), the
// grid queries and ompx_sync_block call the device runtime's
// __ompx_cpu_kernel_* functions (arch/cpu/CPUBareKernel.cpp) instead of
// clang's fallbacks. Clang compiles `target teams ompx_bare` for a CPU
// exactly as `target teams`; those calls are what the compile-time pass
// (OffloadIndirectCalls.so, BareKernelMarker) recognises a bare kernel by,
// so the plugin runs it on a block of threads whatever its clauses
// (offload/include/CPUDeviceLaunch.h). They answer as clang's fallbacks.
//
// GPU device compilations and code without OpenMP get clang's header alone.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_CPU_OMPX_WRAPPER_H
#define OFFLOAD_CPU_OMPX_WRAPPER_H

#if defined(_OPENMP) && !defined(__NVPTX__) && !defined(__AMDGPU__)
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

uint64_t ompx_ballot_sync(uint64_t mask, int pred);
int ompx_shfl_down_sync_i(uint64_t mask, int var, unsigned delta, int width);
float ompx_shfl_down_sync_f(uint64_t mask, float var, unsigned delta,
                            int width);
long ompx_shfl_down_sync_l(uint64_t mask, long var, unsigned delta, int width);
double ompx_shfl_down_sync_d(uint64_t mask, double var, unsigned delta,
                             int width);
/// clang's header defines it (a trap on CPUs) for its C++ wrappers' default
/// shuffle width.
static inline uint32_t __warpSize(void);

int ompx_thread_id(int Dim);
int ompx_block_id(int Dim);
int ompx_block_dim(int Dim);
int ompx_grid_dim(int Dim);
void ompx_sync_block(int Ordering);
int __ompx_cpu_kernel_thread_id(int Dim);
int __ompx_cpu_kernel_block_id(int Dim);
int __ompx_cpu_kernel_block_dim(int Dim);
int __ompx_cpu_kernel_grid_dim(int Dim);
void __ompx_cpu_kernel_sync_block(int Ordering);

#pragma omp begin declare variant match(device = {kind(nohost, cpu)},          \
                                        implementation = {vendor(llvm)})
static inline int ompx_thread_id(int Dim) {
  return __ompx_cpu_kernel_thread_id(Dim);
}
static inline int ompx_block_id(int Dim) {
  return __ompx_cpu_kernel_block_id(Dim);
}
static inline int ompx_block_dim(int Dim) {
  return __ompx_cpu_kernel_block_dim(Dim);
}
static inline int ompx_grid_dim(int Dim) {
  return __ompx_cpu_kernel_grid_dim(Dim);
}
static inline void ompx_sync_block(int Ordering) {
  __ompx_cpu_kernel_sync_block(Ordering);
}
#pragma omp end declare variant

#pragma omp begin declare variant match(device = {kind(cpu)},                  \
                                            implementation = {vendor(llvm)})
static inline uint64_t ompx_ballot_sync(uint64_t mask, int pred) {
  return (mask & 1) && pred ? 1 : 0;
}
static inline int ompx_shfl_down_sync_i(uint64_t mask, int var, unsigned delta,
                                        int width) {
  return var;
}
static inline float ompx_shfl_down_sync_f(uint64_t mask, float var,
                                          unsigned delta, int width) {
  return var;
}
static inline long ompx_shfl_down_sync_l(uint64_t mask, long var,
                                         unsigned delta, int width) {
  return var;
}
static inline double ompx_shfl_down_sync_d(uint64_t mask, double var,
                                           unsigned delta, int width) {
  return var;
}
static inline uint32_t __warpSize(void) { return 1; }
#pragma omp end declare variant

#ifdef __cplusplus
}
#endif
#endif

#include_next <ompx.h>

#endif // OFFLOAD_CPU_OMPX_WRAPPER_H
