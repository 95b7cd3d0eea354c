//===- TaskReduction.h - Taskgroups and their task reductions ---*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef OPENMP_DEVICE_SRC_TASKREDUCTION_H
#define OPENMP_DEVICE_SRC_TASKREDUCTION_H

#include "State.h"

namespace ompx {

/// The calling thread enters a taskgroup.
void beginTaskgroup();

/// The calling thread leaves its innermost taskgroup: the task reductions
/// that taskgroup opened are combined into their items and freed.
void endTaskgroup();

} // namespace ompx

#endif // OPENMP_DEVICE_SRC_TASKREDUCTION_H
