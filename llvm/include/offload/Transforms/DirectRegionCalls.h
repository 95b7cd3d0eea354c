//===- DirectRegionCalls.h - Direct calls of hidden region pointers -*- C++
//-*-//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The GPU device runtime calls a parallel region (and a reduction's helpers)
// through a pointer it first passes through an empty assembler statement
// (hideFromOptimizer in openmp/device/src/Parallel.h): link-time OpenMPOpt,
// seeing the pointer, compared every call site with every region of the
// program and did not finish. Once the runtime is inlined into a kernel, the
// pointer is the region's function, but the call stays indirect, and a GPU
// pays for an indirect call: NVPTX passes its arguments through the calling
// convention, AMDGPU reserves every register and a dynamic stack for an
// unknown callee. After the optimizer (OpenMPOpt included) is done, these
// helpers make such a call direct again, so code generation sees the
// callee it always was.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_TRANSFORMS_DIRECTREGIONCALLS_H
#define OFFLOAD_TRANSFORMS_DIRECTREGIONCALLS_H

namespace llvm {
class Function;
class Module;
class ModulePass;
class Value;
} // namespace llvm

namespace offload {

/// The operand of an empty assembler statement whose one output is tied to
/// its one input (`asm("" : "+r"(P))`), which returns the operand unchanged;
/// nullptr for anything else.
llvm::Value *passThroughAsmOperand(llvm::Value *V);

struct DirectRegionCallStats {
  /// Calls made direct.
  unsigned Direct = 0;
  /// Of those, the calls inlined into their callers.
  unsigned Inlined = 0;
  /// Calls of the runtime's execution-mode query folded to their kernel's
  /// mode.
  unsigned FoldedModeQueries = 0;
  /// Stores to team-shared memory no code of their kernel reads
  /// (UnreadTeamMemory.h).
  unsigned RemovedTeamMemoryStores = 0;

  bool changedModule() const {
    return Direct || FoldedModeQueries || RemovedTeamMemoryStores;
  }
};

/// Makes every call in \p M whose callee is a function passed through such
/// a statement a direct call of that function. Where the call's prototype
/// differs from the function's only in 64-bit pointers standing for 64-bit
/// integers (the runtime passes a region's by-value captures as pointers),
/// the arguments are converted; a call that differs otherwise is left
/// alone. Then every call of a
/// function that was behind a hidden pointer (also the copies inlining a
/// region makes of the region's own calls, e.g. of a reduction's helpers)
/// is inlined where its callee allows it (a definition, not noinline, not
/// recursive; a callee of over 2000 instructions only when it has no other
/// caller), and the callers are cleaned up (SROA, early CSE, instcombine,
/// CFG simplification). The optimizer would have done that had it seen the
/// call; doing it after the optimizer keeps link-time OpenMPOpt from
/// seeing the regions, at the cost of a few function passes over the
/// kernels. Without it a kernel keeps the call, a stack frame for the
/// captures passed by address, and the registers of a call.
///
/// Last, every call of the runtime's execution-mode query
/// (`__ompx_team_is_spmd`, which `__kmpc_is_spmd_exec_mode` calls) left in
/// a kernel is folded to the mode the
/// runtime reads from the kernel's environment, and the calls left
/// elsewhere are inlined. OpenMPOpt folds the query where it sees which
/// kernels reach it, which it cannot in a region behind a hidden pointer:
/// without this, a region inlined into an SPMD kernel brought the runtime's
/// generic-mode paths with it, and with them the team-shared memory they
/// name (nested `parallel` on sm_90: 544 bytes). Then the kernels' stores
/// to team-shared memory they never read go (UnreadTeamMemory.h).
DirectRegionCallStats makeRegionCallsDirectAndInline(llvm::Module &M);

/// makeRegionCallsDirectAndInline as a legacy pass, for the code-generation
/// pass manager of the device links (LTO's PreCodeGenPassesHook).
llvm::ModulePass *createDirectRegionCallsPass();

} // namespace offload

#endif // OFFLOAD_TRANSFORMS_DIRECTREGIONCALLS_H
