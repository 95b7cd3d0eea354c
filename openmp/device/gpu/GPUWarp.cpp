//===- GPUWarp.cpp - Warp-level entry points of the GPU calling convention ===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// For GPU targets clang lowers `critical` to a loop in which the threads of
// the region take the lock one at a time, and brackets each turn with
//   Mask = __kmpc_warp_active_thread_mask();  ...  __kmpc_syncwarp(Mask);
// so that the lanes of a warp that share the loop reconverge after each
// turn (otherwise a lane waiting on the lock could starve the one holding
// it on hardware without independent scheduling). The CPU device never
// receives these calls: clang emits them for GPU targets only.
//
//===----------------------------------------------------------------------===//

#include "GPUPrimitives.h"
#include "Interface.h"

using namespace ompx;

extern "C" {
uint64_t __kmpc_warp_active_thread_mask() { return gpu::activeMask(); }

void __kmpc_syncwarp(uint64_t Mask) { gpu::syncWarp(Mask); }
}
