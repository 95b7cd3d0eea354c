//===- SpinLoopYield.h - Spin loops for the emulator's passes ---*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What the passes that run after addSpinLoopYields (SchedulePoints.cpp,
// WavefrontRejoins.cpp) ask about its yields, to find the spin loops: a
// loop is one if it yields.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_GPUEMULATION_SPINLOOPYIELD_H
#define OFFLOAD_GPUEMULATION_SPINLOOPYIELD_H

namespace llvm {
class BasicBlock;
} // namespace llvm

namespace offload {
namespace gpuemu {

/// Whether \p BB calls __gpuemu_yield.
bool callsYield(const llvm::BasicBlock &BB);

} // namespace gpuemu
} // namespace offload

#endif // OFFLOAD_GPUEMULATION_SPINLOOPYIELD_H
