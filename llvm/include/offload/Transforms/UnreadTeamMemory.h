//===- UnreadTeamMemory.h - Stores no thread of the block reads -*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Team-shared memory (address space 3 on NVIDIA and AMD GPUs) lives as long
// as its block, and only the block's own threads, all running the same
// kernel, can read it. So a store a kernel makes to a team-shared variable
// that no code the kernel can run reads is dead, even when other kernels of
// the image read the same variable: LLVM sees the variable's loads in those
// kernels and keeps the store. The device runtime initializes its team
// state in every kernel (every thread's state byte, the software barriers)
// and reads it only in some; a kernel keeping such a store keeps the
// variable, and pays for it in static shared memory (a `target` region
// without a parallel region beside one with it, gfx90a: 272 bytes of LDS
// where upstream's runtime has none).
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_TRANSFORMS_UNREADTEAMMEMORY_H
#define OFFLOAD_TRANSFORMS_UNREADTEAMMEMORY_H

namespace llvm {
class Module;
} // namespace llvm

namespace offload {

/// Deletes, in every kernel of \p M (a function with the "kernel" attribute
/// or a GPU kernel calling convention), the non-volatile stores to a
/// team-shared variable that the kernel's code never reads (loads, atomic
/// updates): not in the kernel, nor in any function it can call. A kernel
/// that can call a function not defined in \p M (other than an intrinsic),
/// or call through a pointer, is left alone, as are variables whose address
/// goes anywhere but into the address computations of loads, stores and
/// atomic updates. Returns the stores deleted.
unsigned removeUnreadTeamMemoryStores(llvm::Module &M);

} // namespace offload

#endif // OFFLOAD_TRANSFORMS_UNREADTEAMMEMORY_H
