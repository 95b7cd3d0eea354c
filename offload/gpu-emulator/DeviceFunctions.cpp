//===- DeviceFunctions.cpp - What emulated kernels call -------------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The __gpuemu_* functions of EmulatorABI.h other than the synchronising
// ones (SyncOperations.cpp): special registers, the block's shared segment,
// yielding, faults, printf and the device heap.
//
//===----------------------------------------------------------------------===//

#include "BlockState.h"
#include "DeviceMemory.h"
#include "DevicePrintf.h"
#include "gpu/CUDAABI.h"

#include "offload/GPUEmulation/EmulatorABI.h"

#include <cstdio>
#include <ctime>
#include <mutex>

using namespace gpuemu;
using offload::gpuemu::SReg;

namespace {

uint64_t nanosecondsNow() {
  timespec Now;
  clock_gettime(CLOCK_MONOTONIC, &Now);
  return uint64_t(Now.tv_sec) * 1000000000u + uint64_t(Now.tv_nsec);
}

uint32_t laneMask(SReg Reg, uint32_t Lane) {
  uint32_t Eq = 1u << Lane;
  switch (Reg) {
  case SReg::LaneMaskEq:
    return Eq;
  case SReg::LaneMaskLt:
    return Eq - 1;
  case SReg::LaneMaskLe:
    return (Eq - 1) | Eq;
  case SReg::LaneMaskGt:
    return ~((Eq - 1) | Eq);
  default:
    return ~(Eq - 1);
  }
}

} // namespace

extern "C" {

__attribute__((visibility("default"))) uint64_t __gpuemu_sreg(uint32_t Reg) {
  const BlockState &B = *CurrentBlock;
  const GPUThread &T = *CurrentThread;
  switch (SReg(Reg)) {
  case SReg::TidX:
    return T.Id.X;
  case SReg::TidY:
    return T.Id.Y;
  case SReg::TidZ:
    return T.Id.Z;
  case SReg::NTidX:
    return B.BlockDim.X;
  case SReg::NTidY:
    return B.BlockDim.Y;
  case SReg::NTidZ:
    return B.BlockDim.Z;
  case SReg::CtaIdX:
    return B.Id.X;
  case SReg::CtaIdY:
    return B.Id.Y;
  case SReg::CtaIdZ:
    return B.Id.Z;
  case SReg::NCtaIdX:
    return B.GridDim.X;
  case SReg::NCtaIdY:
    return B.GridDim.Y;
  case SReg::NCtaIdZ:
    return B.GridDim.Z;
  case SReg::LaneId:
    return B.laneOf(T);
  case SReg::WarpId:
    return B.warpOf(T);
  case SReg::NWarpId:
    return (B.Threads.size() + B.WarpSize - 1) / B.WarpSize;
  case SReg::SmId:
    return B.Worker;
  case SReg::NSmId:
    return B.Workers;
  case SReg::WarpSize:
    return B.WarpSize;
  case SReg::GlobalTimer:
  case SReg::Clock:
  case SReg::Clock64:
    return nanosecondsNow();
  case SReg::DynamicSharedSize:
    return B.DynamicSharedBytes;
  default:
    return laneMask(SReg(Reg), B.laneOf(T));
  }
}

__attribute__((visibility("default"))) void *__gpuemu_shared_base() {
  return CurrentBlock->Shared;
}

__attribute__((visibility("default"))) void __gpuemu_yield() {
  GPUThread &Self = *CurrentThread;
  Self.Spinning = true;
  Self.PreviousEvent = Self.LastEvent;
  Self.LastEvent = ++CurrentBlock->Events;
  switchToScheduler();
}

__attribute__((visibility("default"))) void __gpuemu_trap() {
  failLaunch(offload::cuda_abi::CUDA_ERROR_LAUNCH_FAILED, "trap");
}

__attribute__((visibility("default"))) void
__gpuemu_assertfail(const char *Message, const char *File, uint32_t Line,
                    const char *Function, uint64_t) {
  fprintf(stderr,
          "%s:%u: %s: block [%u,%u,%u], thread [%u,%u,%u] Assertion "
          "`%s` failed.\n",
          File, Line, Function, CurrentBlock->Id.X, CurrentBlock->Id.Y,
          CurrentBlock->Id.Z, CurrentThread->Id.X, CurrentThread->Id.Y,
          CurrentThread->Id.Z, Message);
  failLaunch(offload::cuda_abi::CUDA_ERROR_ASSERT,
             std::string("assertion '") + Message + "' failed");
}

__attribute__((visibility("default"))) int __gpuemu_vprintf(const char *Format,
                                                            void *Arguments) {
  static std::mutex Lock;
  std::string Text =
      formatDevicePrintf(Format, static_cast<const char *>(Arguments));
  std::lock_guard<std::mutex> Guard(Lock);
  fwrite(Text.data(), 1, Text.size(), stdout);
  fflush(stdout);
  return int(Text.size());
}

__attribute__((visibility("default"))) void *__gpuemu_malloc(uint64_t Size) {
  return DeviceMemory::get().allocate(Size);
}

__attribute__((visibility("default"))) void __gpuemu_free(void *Ptr) {
  if (Ptr)
    DeviceMemory::get().free(Ptr);
}
}
