//===- LibompABI.h - The part of libomp's ABI the runtime calls -*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// libomptarget links libomp.so.5 (Debian's, LLVM 19's on Debian 12) and
// calls into it for the offload policy, the default device, target tasks
// and their dependences. libomp installs no header for these entry points,
// so they are declared here, once, as libomp defines them (kmp.h): every
// caller sees the same signatures and layouts.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_LIBOMPTARGET_API_LIBOMPABI_H
#define OFFLOAD_LIBOMPTARGET_API_LIBOMPABI_H

#include "OffloadABI.h"

#include <cstddef>
#include <cstdint>

/// libomp's task descriptor: this runtime only sets its shareds pointer.
/// Laid out as libomp's kmp_task_t (its two last fields are unions of a
/// pointer and an int).
struct kmp_task_t {
  void *shareds;
  int32_t (*routine)(int32_t, kmp_task_t *);
  int32_t part_id;
  void *data1;
  void *data2;
};

/// libomp's dependence record (kmp_depend_info_t), which an omp_depend_t
/// points to.
struct kmp_depend_info_record {
  intptr_t BaseAddr;
  size_t Len;
  uint8_t Flags;
};

/// kmp_tasking_flags_t's first bit: a tied task (target tasks are made
/// untied by libomp whatever is asked).
constexpr int32_t KmpTaskTied = 1;

extern "C" {
int __kmpc_global_thread_num(const ident_t *);
int __kmpc_get_target_offload(void);
int omp_get_default_device(void);
int omp_get_level(void);

bool __kmpc_omp_has_task_team(int32_t Gtid);
void **__kmpc_omp_get_target_async_handle_ptr(int32_t Gtid);
int32_t __kmpc_omp_taskwait(const ident_t *, int32_t Gtid);

void __kmpc_omp_wait_deps(const ident_t *, int32_t Gtid, int32_t NumDeps,
                          void *DepList, int32_t NumNoAliasDeps,
                          void *NoAliasDepList);
kmp_task_t *__kmpc_omp_target_task_alloc(const ident_t *, int32_t Gtid,
                                         int32_t Flags, size_t SizeOfTask,
                                         size_t SizeOfShareds,
                                         int32_t (*Entry)(int32_t,
                                                          kmp_task_t *),
                                         int64_t DeviceId);
int32_t __kmpc_omp_task_with_deps(const ident_t *, int32_t Gtid,
                                  kmp_task_t *Task, int32_t NumDeps,
                                  void *DepList, int32_t NumNoAliasDeps,
                                  void *NoAliasDepList);
}

#endif // OFFLOAD_LIBOMPTARGET_API_LIBOMPABI_H
