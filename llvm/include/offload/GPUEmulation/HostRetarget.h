//===- HostRetarget.h - Retarget GPU IR to the host emulator ----*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Turns an optimised, fully linked GPU module (user code and the device
// runtime after the wrapper's LTO, before code generation) into a host
// module whose shared object the GPU emulator (offload/gpu-emulator) runs.
// GPU instructions become calls into the emulator (EmulatorABI.h); anything
// the emulator cannot model is an error naming it, never silently wrong
// code.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_GPUEMULATION_HOSTRETARGET_H
#define OFFLOAD_GPUEMULATION_HOSTRETARGET_H

#include "llvm/Support/Error.h"
#include "llvm/TargetParser/Triple.h"

namespace llvm {
class CallInst;
class IRBuilderBase;
class Value;
class GlobalVariable;
class Module;
} // namespace llvm

namespace offload {
namespace gpuemu {

/// Retargets the nvptx64 or amdgcn module \p M to \p Host (x86_64 Linux): every
/// step below, then the host triple and data layout, no GPU calling conventions
/// or target attributes. Fails naming the first construct it cannot handle
/// (intrinsic, inline assembly, undefined function) and where it is used.
llvm::Error retargetToHost(llvm::Module &M, const llvm::Triple &Host);

/// Replaces calls of llvm.nvvm.* intrinsics, llvm.trap, inline assembly the
/// device runtime uses, and the PTX system calls (vprintf, malloc, free,
/// __assertfail) with calls of the emulator. Fails on any other llvm.nvvm
/// intrinsic or inline assembly.
llvm::Error lowerNVPTXIntrinsics(llvm::Module &M);

/// The amdgcn counterpart of lowerNVPTXIntrinsics: llvm.amdgcn.* (ids,
/// dispatch and kernarg pointers, barriers, wavefront operations, sleep,
/// clocks), llvm.trap; private-address-space stack variables become host
/// ones. Fails on any other llvm.amdgcn intrinsic and on inline assembly.
llvm::Error lowerAMDGPUIntrinsics(llvm::Module &M);

/// The arithmetic llvm.nvvm.<Name> intrinsic \p Call (rounding, conversion,
/// approximate, flush-to-zero and integer helpers, NVPTXMathLowering.cpp)
/// as host IR built at \p B; nullptr when \p Name is none of them.
llvm::Value *lowerNVPTXMath(llvm::IRBuilderBase &B, llvm::CallInst &Call,
                            llvm::StringRef Name);

/// The inline assembly of CUDA's libdevice (\p Text, called by \p Call)
/// as host IR built at \p B; nullptr for any other.
llvm::Value *lowerLibdeviceAsm(llvm::IRBuilderBase &B, llvm::CallInst &Call,
                               llvm::StringRef Text);

/// The launch slots of an amdgcn image (a thread-local array of pointers,
/// indexed below), which its kernels' entry points fill and the lowered
/// pointer intrinsics read.
enum : unsigned {
  LaunchSlotKernarg,
  LaunchSlotPacket,
  LaunchSlotImplicit,
  LaunchSlotCount
};
llvm::GlobalVariable &amdgpuLaunchSlots(llvm::Module &M);

/// Makes every look at memory another thread writes (an atomic or volatile
/// load, an atomic update or compare-and-swap, a fence) inside a loop that
/// does not already wait or yield yield to the block's other threads (a
/// call of __gpuemu_yield after every so many), so that a thread spinning
/// on a flag another thread of its block sets lets that thread run on the
/// emulator, which switches threads only where they wait or yield. Returns
/// the number of looks that got one. Runs after the intrinsics are lowered.
unsigned addSpinLoopYields(llvm::Module &M);

/// amdgcn modules: makes each branch whose region (the blocks before its
/// immediate post-dominator) holds a spin loop call __gpuemu_wave_enter, and
/// its post-dominator __gpuemu_wave_rejoin, where the executor keeps a lane
/// until no lane of its wavefront is inside the region, as an AMD
/// wavefront's lanes run on together only from there (WavefrontRejoins.cpp;
/// the executor heeds them under GPUEMU_WAVEFRONT_LOCKSTEP=1). Returns the
/// number of such branches. Runs after addSpinLoopYields.
unsigned addWavefrontRejoins(llvm::Module &M);

/// Gives each function that accesses memory other threads may see (not its
/// stack, not constant memory) a copy that calls __gpuemu_schedule_point
/// before every such access, which the function runs instead of itself when
/// the executor's schedule is random (SchedulePoints.cpp). Returns the
/// number of schedule points. Runs after addSpinLoopYields, so that the
/// copies' spin loops yield too.
unsigned addSchedulePoints(llvm::Module &M);

/// Precedes each device memory access (load, store, atomic, memory
/// intrinsic) and fence with a call of __gpuemu_check_access, taken only
/// while the image's CheckFlagsSymbol is non-zero; defines that symbol.
/// Returns the number of accesses that got one. Needs the final data
/// layout, and runs before shared memory is lowered (whose address space
/// tells team-shared accesses apart).
unsigned addAccessChecks(llvm::Module &M);

/// Refuses a kernel whose static shared memory (address space
/// \p SharedAddressSpace) is over its GPU's limit, as nvlink (sm_90, 48 KiB)
/// and the AMDGPU code generator (gfx90a, 64 KiB) do, in their words; and
/// exports each kernel's count (KernelSharedSizePrefix). Runs on the GPU IR,
/// while kernels still have their calling convention.
llvm::Error checkStaticSharedMemory(llvm::Module &M,
                                    unsigned SharedAddressSpace);

/// Moves the team-shared (address space 3) globals into the block's shared
/// segment: each becomes an offset from __gpuemu_shared_base(); external
/// zero-sized ones (dynamic shared memory) start after the static ones.
/// Defines __gpuemu_shared_size. Needs the final data layout.
llvm::Error lowerSharedMemory(llvm::Module &M, unsigned SharedAddressSpace);

/// Gives each kernel (ptx_kernel calling convention) a host calling
/// convention and an exported __gpuemu_entry_<kernel>(void **Params).
llvm::Error addKernelEntries(llvm::Module &M);

/// For each amdgcn kernel (amdgpu_kernel calling convention): a host
/// calling convention, the entry __gpuemu_entry_<kernel>(void *Params[2])
/// reading the arguments from the kernarg segment, and the kernel
/// descriptor <kernel>.kd (EmulatorABI.h). Needs the final data layout and
/// __gpuemu_shared_size.
llvm::Error addAMDGPUKernelEntries(llvm::Module &M);

/// Removes \p Call when it is inline assembly with an empty template that
/// only hides a value from the optimiser (one output tied to one input,
/// which it returns) or only orders the compiler's memory accesses (no
/// operands); both mean nothing on the host. False for any other call.
bool lowerEmptyAsm(llvm::CallInst &Call);

/// Fails naming the first function the module declares but does not define
/// and the emulator does not provide.
llvm::Error checkNoUnresolvedCalls(const llvm::Module &M);

} // namespace gpuemu
} // namespace offload

#endif // OFFLOAD_GPUEMULATION_HOSTRETARGET_H
