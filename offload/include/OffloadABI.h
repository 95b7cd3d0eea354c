//===- OffloadABI.h - Structures shared by compiler output and runtime ---===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The in-memory records clang-22 and flang-22 hand to libomptarget: offload
// entries (LLVM 22 layout and the older five-field layout), the device-image
// and binary descriptors built by the linker wrapper, kernel launch arguments
// and the map-type bits. The layouts are fixed by LLVM 22 (OMPKinds.def,
// OMPConstants.h, Frontend/Offloading/Utility.h); unittests/offload/ABITest
// compares every one of them with those headers.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_INCLUDE_OFFLOADABI_H
#define OFFLOAD_INCLUDE_OFFLOADABI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// An offload entry as emitted by LLVM 22 into section `llvm_offload_entries`
/// (llvm::offloading::EntryTy). `Reserved` is always zero, which tells it
/// apart from the legacy layout whose first field is an address.
typedef struct __tgt_offload_entry {
  uint64_t Reserved;
  uint16_t Version;
  uint16_t Kind; ///< OffloadKind of llvm/Object/OffloadBinary.h
  uint32_t Flags;
  void *Address;
  char *SymbolName;
  uint64_t Size; ///< 0 for a kernel, the byte size for a global
  uint64_t Data; ///< requires flags for the `.requires` entry
  void *AuxAddr;
} __tgt_offload_entry;

/// The five-field entry of older compilers (section `omp_offloading_entries`).
typedef struct __tgt_offload_entry_legacy {
  void *addr;
  char *name;
  size_t size;
  int32_t flags;
  int32_t reserved;
} __tgt_offload_entry_legacy;

/// One device image inside a binary descriptor.
typedef struct __tgt_device_image {
  void *ImageStart;
  void *ImageEnd;
  __tgt_offload_entry *EntriesBegin;
  __tgt_offload_entry *EntriesEnd;
} __tgt_device_image;

/// What the linker wrapper's constructor passes to __tgt_register_lib.
typedef struct __tgt_bin_desc {
  int32_t NumDeviceImages;
  __tgt_device_image *DeviceImages;
  __tgt_offload_entry *HostEntriesBegin;
  __tgt_offload_entry *HostEntriesEnd;
} __tgt_bin_desc;

/// Launch arguments of __tgt_target_kernel (KernelArgs of OMPKinds.def).
typedef struct __tgt_kernel_arguments {
  uint32_t Version; ///< 3 in LLVM 22
  uint32_t NumArgs;
  void **ArgBasePtrs;
  void **ArgPtrs;
  int64_t *ArgSizes;
  int64_t *ArgTypes;
  void **ArgNames;
  void **ArgMappers;
  uint64_t Tripcount;
  uint64_t Flags; ///< bit 0: nowait, bit 1: CUDA-style launch
  uint32_t NumTeams[3];
  uint32_t ThreadLimit[3];
  uint32_t DynCGroupMem;
} __tgt_kernel_arguments;

#define OFFLOAD_KERNEL_ARGS_VERSION 3u
#define OFFLOAD_KERNEL_FLAG_NOWAIT 0x1ull

/// Per-operation asynchronous state; `Queue` belongs to the plugin.
typedef struct __tgt_async_info {
  void *Queue;
} __tgt_async_info;

/// libomp's source-location record (ident_t).
typedef struct ident_t {
  int32_t reserved_1;
  int32_t flags;
  int32_t reserved_2;
  int32_t reserved_3;
  const char *psource; ///< ";file;function;line;column;;"
} ident_t;

/// Map-type bits (OpenMPOffloadMappingFlags).
#define OMP_TGT_MAPTYPE_NONE 0x0ull
#define OMP_TGT_MAPTYPE_TO 0x01ull
#define OMP_TGT_MAPTYPE_FROM 0x02ull
#define OMP_TGT_MAPTYPE_ALWAYS 0x04ull
#define OMP_TGT_MAPTYPE_DELETE 0x08ull
#define OMP_TGT_MAPTYPE_PTR_AND_OBJ 0x10ull
#define OMP_TGT_MAPTYPE_TARGET_PARAM 0x20ull
#define OMP_TGT_MAPTYPE_RETURN_PARAM 0x40ull
#define OMP_TGT_MAPTYPE_PRIVATE 0x80ull
#define OMP_TGT_MAPTYPE_LITERAL 0x100ull
#define OMP_TGT_MAPTYPE_IMPLICIT 0x200ull
#define OMP_TGT_MAPTYPE_CLOSE 0x400ull
#define OMP_TGT_MAPTYPE_PRESENT 0x1000ull
#define OMP_TGT_MAPTYPE_OMPX_HOLD 0x2000ull
#define OMP_TGT_MAPTYPE_ATTACH 0x4000ull
#define OMP_TGT_MAPTYPE_NON_CONTIG 0x100000000000ull
#define OMP_TGT_MAPTYPE_MEMBER_OF 0xffff000000000000ull

/// Offload-entry flags of OpenMP entries (OffloadEntriesInfoManager's
/// OMPTargetGlobalVarEntryKind).
#define OMP_DECLARE_TARGET_LINK 0x1u
#define OMP_DECLARE_TARGET_ENTER 0x2u
#define OMP_DECLARE_TARGET_INDIRECT 0x8u
#define OMP_REGISTER_REQUIRES 0x10u
#define OMP_DECLARE_TARGET_INDIRECT_VTABLE 0x20u

/// `#pragma omp requires` bits, carried by the `.requires` entry's Data.
#define OMP_REQ_UNDEFINED 0x000
#define OMP_REQ_NONE 0x001
#define OMP_REQ_REVERSE_OFFLOAD 0x002
#define OMP_REQ_UNIFIED_ADDRESS 0x004
#define OMP_REQ_UNIFIED_SHARED_MEMORY 0x008
#define OMP_REQ_DYNAMIC_ALLOCATORS 0x010

/// Index of the struct a MEMBER_OF entry belongs to (1-based, 0 = none).
static inline uint64_t offload_member_of_index(uint64_t MapType) {
  return MapType >> 48;
}

/// A non-contiguous `target update` dimension (NON_CONTIG maps).
typedef struct __tgt_target_non_contig {
  uint64_t Offset;
  uint64_t Count;
  uint64_t Stride;
} __tgt_target_non_contig;

#ifdef __cplusplus
}
#endif

#endif // OFFLOAD_INCLUDE_OFFLOADABI_H
