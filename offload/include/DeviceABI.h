//===- DeviceABI.h - Structures shared with compiler output -----*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The data the compilers hand to the device runtime. Their layouts are fixed
// by what LLVM 22 emits (llvm/Frontend/OpenMP/OMPKinds.def and
// OMPDeviceConstants.h), so nothing here may be reordered.
//
// Freestanding: included by the portable core, which also builds for GPUs.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_INCLUDE_DEVICEABI_H
#define OFFLOAD_INCLUDE_DEVICEABI_H

#include <stddef.h>
#include <stdint.h>

namespace ompx {

/// `ident_t`: source location of a runtime call. We only read `Flags`.
struct IdentTy {
  int32_t Reserved1;
  int32_t Flags;
  int32_t Reserved2;
  int32_t Reserved3;
  const char *PSource;
};

/// Execution modes of OMPDeviceConstants.h (OMPTgtExecModeFlags).
enum ExecModeFlags : uint8_t {
  ExecModeBare = 0,
  ExecModeGeneric = 1 << 0,
  ExecModeSPMD = 1 << 1,
  ExecModeGenericSPMD = ExecModeGeneric | ExecModeSPMD,
  ExecModeSPMDNoLoop = (1 << 2) | ExecModeSPMD,
};

/// ConfigurationEnvironmentTy: what the compiler knows about a kernel.
/// Thread and team bounds are -1 when the construct says nothing.
struct ConfigurationEnvironmentTy {
  uint8_t UseGenericStateMachine;
  uint8_t MayUseNestedParallelism;
  uint8_t ExecMode;
  int32_t MinThreads;
  int32_t MaxThreads;
  int32_t MinTeams;
  int32_t MaxTeams;
  int32_t ReductionDataSize;
  int32_t ReductionBufferLength;
};

/// DynamicEnvironmentTy: per-kernel state the runtime may write.
struct DynamicEnvironmentTy {
  uint16_t DebugIndentionLevel;
};

/// KernelEnvironmentTy: the `<kernel>_kernel_environment` global.
struct KernelEnvironmentTy {
  ConfigurationEnvironmentTy Configuration;
  IdentTy *Ident;
  DynamicEnvironmentTy *DynamicEnv;
};

/// KernelLaunchEnvironmentTy: the kernel's first argument, owned by whoever
/// launches it (the CPU layer, or a GPU plugin). The compiler only reads the
/// first two fields; the rest is ours.
struct KernelLaunchEnvironmentTy {
  uint32_t ReductionCnt;
  uint32_t ReductionIterCnt;
  void *ReductionBuffer;
};

/// The per-image device environment a plugin may fill in
/// (`__omp_rtl_device_environment`, same field order as upstream's).
struct DeviceEnvironmentTy {
  uint32_t DeviceDebugKind;
  uint32_t NumDevices;
  uint32_t DeviceNum;
  uint32_t DynamicMemSize;
  uint64_t ClockFrequency;
  uintptr_t IndirectCallTable;
  uint64_t IndirectCallTableSize;
  uint64_t HardwareParallelism;
};

/// One entry of the indirect-call table: a host function address and the
/// device address of the same function. The table is sorted by HostPtr.
struct IndirectCallEntryTy {
  void *HostPtr;
  void *DevicePtr;
};

/// Schedule kinds of the `__kmpc_*_init_*` entry points (libomp's
/// `sched_type`), without the monotonic/nonmonotonic modifier bits.
enum ScheduleKind : int32_t {
  SchedStaticChunked = 33,
  SchedStatic = 34,
  SchedDynamicChunked = 35,
  SchedGuidedChunked = 36,
  SchedRuntime = 37,
  SchedAuto = 38,
  SchedTrapezoidal = 39,
  SchedStaticGreedy = 40,
  SchedStaticBalanced = 41,
  SchedGuidedIterative = 42,
  SchedGuidedAnalytical = 43,
  SchedStaticSteal = 44,
  SchedStaticBalancedChunked = 45,
  SchedOrderedStaticChunked = 65,
  SchedOrderedStatic = 66,
  SchedOrderedDynamicChunked = 67,
  SchedOrderedGuidedChunked = 68,
  SchedOrderedRuntime = 69,
  SchedOrderedAuto = 70,
  SchedDistributeStaticChunked = 91,
  SchedDistributeStatic = 92,
};

/// Modifier bits that may be or-ed into a schedule kind.
constexpr int32_t ScheduleModifierMask = (1 << 29) | (1 << 30) | (1 << 31);

/// `kmp_critical_name`: storage the compiler reserves for a named critical
/// section or a reduction lock. We use its last word as the lock
/// (criticalWord in src/State.h).
typedef int32_t CriticalNameTy[8];

/// One item of a task reduction, as `__kmpc_taskred_init` and
/// `__kmpc_taskred_modifier_init` receive it (libomp's kmp_taskred_input_t).
/// Init(private, original) initializes a private copy (null: zero it),
/// Combine(item, private) folds one into the item, Fini(private) ends one.
struct TaskReductionInputTy {
  void *Shared;
  void *Original;
  size_t Size;
  void *Init;
  void *Fini;
  void *Combine;
  uint32_t Flags;
};

/// The same for libomp's first interface (`__kmpc_task_reduction_init`,
/// kmp_task_red_input_t): no original item, Init(private).
struct TaskReductionInputV1Ty {
  void *Shared;
  size_t Size;
  void *Init;
  void *Fini;
  void *Combine;
  uint32_t Flags;
};

/// Outlined parallel region: (global tid*, bound tid*, captured args...).
typedef void (*ParallelRegionFnTy)(int32_t *, int32_t *, ...);
/// Reduction combiner of `__kmpc_reduce`: (lhs list, rhs list).
typedef void (*ReduceFnTy)(void *, void *);

} // namespace ompx

#endif // OFFLOAD_INCLUDE_DEVICEABI_H
