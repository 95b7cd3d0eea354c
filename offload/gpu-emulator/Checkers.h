//===- Checkers.h - The emulator's checking modes ---------------*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// GPUEMU_CHECK=memcheck,racecheck,synccheck,initcheck (any subset, or all)
// turns on checks of what kernels do: each image calls
// __gpuemu_check_access before its device memory accesses
// (llvm/lib/GPUEmulation/AccessChecks.cpp) and the executor's barriers and
// warp operations report here. A failed check prints what, where (kernel,
// block, thread, address, allocation, source line when the image has line
// tables) and ends the launch, as a fault does. With GPUEMU_CHECK unset
// nothing here runs: images skip their calls, the executor tests one flag.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_GPU_EMULATOR_CHECKERS_H
#define OFFLOAD_GPU_EMULATOR_CHECKERS_H

#include "BlockState.h"

#include <cstdint>
#include <string>

namespace offload {
namespace gpuemu {
struct CheckSite;
} // namespace gpuemu
} // namespace offload

namespace gpuemu {

enum CheckMask : uint32_t {
  MemCheck = 1,
  RaceCheck = 2,
  SyncCheck = 4,
  InitCheck = 8,
};

/// The checks GPUEMU_CHECK selects, read when the library is loaded (an
/// unknown name is reported on stderr and ignored).
extern const uint32_t EnabledChecks;
inline uint32_t enabledChecks() { return EnabledChecks; }
inline bool checking(uint32_t Mask) { return enabledChecks() & Mask; }

/// Reports a failed \p Check (its name) and, in a kernel, ends the launch
/// (never returns there); \p Site may be null.
void reportCheck(const char *Check, const std::string &What,
                 const offload::gpuemu::CheckSite *Site);

/// A block starts (checks on): its team-shared segment [\p Shared,
/// +\p SharedBytes) starts unwritten, with no accesses recorded, and its
/// threads' stacks lie in [\p StacksBegin, \p StacksEnd).
void startBlockChecks(const BlockState &Block, uint64_t SharedBytes,
                      const void *StacksBegin, const void *StacksEnd);

/// Racecheck: \p T passed a barrier or a warp-synchronous operation, which
/// orders its later accesses after what the others did before it.
void noteSynchronised(const GPUThread &T);

/// Synccheck (SyncChecks.cpp): thread \p Exited leaves while threads of its
/// block wait in a whole-block barrier it never reached; the warp
/// operation completing over \p Lanes of warp \p Warp, whose lanes must
/// agree on the operation and mask.
void checkExitBeforeBarrier(const BlockState &Block, const GPUThread &Exited);
void checkWarpAgreement(const BlockState &Block, uint32_t Warp, uint64_t Lanes);

} // namespace gpuemu

#endif // OFFLOAD_GPU_EMULATOR_CHECKERS_H
