//===- DevicePrintf.h - vprintf of emulated kernels -------------*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_GPU_EMULATOR_DEVICEPRINTF_H
#define OFFLOAD_GPU_EMULATOR_DEVICEPRINTF_H

#include <string>

namespace gpuemu {

/// Formats as CUDA's vprintf does: \p Arguments is a buffer holding the
/// arguments like a struct whose fields are naturally aligned (integers
/// promoted to int or their long types, floats to double, pointers 8
/// bytes).
std::string formatDevicePrintf(const char *Format, const char *Arguments);

} // namespace gpuemu

#endif // OFFLOAD_GPU_EMULATOR_DEVICEPRINTF_H
