//===- LoopIterations.h - Counting and dividing loop iterations -*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The arithmetic the statically (Workshare.cpp) and dynamically
// (Dispatch.cpp) scheduled loops share, so both agree on how many
// iterations a loop has and which block each participant owns.
//
//===----------------------------------------------------------------------===//

#ifndef OPENMP_DEVICE_SRC_LOOPITERATIONS_H
#define OPENMP_DEVICE_SRC_LOOPITERATIONS_H

#include "Arch.h"

namespace ompx {

/// Iterations of the loop from \p Lower to \p Upper (both inclusive) with
/// increment \p Incr. Counted in unsigned 64-bit arithmetic: the bounds may
/// be unsigned.
template <typename T, typename ST>
uint64_t loopTripCount(T Lower, T Upper, ST Incr) {
  if (Incr == 0)
    arch::fatal("worksharing loop with an increment of zero");
  if (Incr > 0)
    return Upper < Lower ? 0 : uint64_t(Upper - Lower) / uint64_t(Incr) + 1;
  return Lower < Upper ? 0
                       : uint64_t(Lower - Upper) / uint64_t(-(int64_t)Incr) + 1;
}

/// The contiguous block [Begin, End) participant \p Id of \p N gets of
/// \p TripCount iterations: the first TripCount % N one iteration more.
template <typename T> void blockOf(T TripCount, T N, T Id, T &Begin, T &End) {
  T Base = TripCount / N;
  T Extra = TripCount % N;
  Begin = Id * Base + (Id < Extra ? Id : Extra);
  End = Begin + Base + (Id < Extra ? 1 : 0);
}

} // namespace ompx

#endif // OPENMP_DEVICE_SRC_LOOPITERATIONS_H
