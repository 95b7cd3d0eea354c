//===- Tasks.cpp - Explicit tasks inside target regions -------------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Every task is executed immediately by the thread that creates it
// ("undeferred"), which the OpenMP rules allow: a task may always run at its
// creation point. So waiting for tasks (taskwait, taskgroup) has nothing to
// wait for, and dependences between sibling tasks hold by construction.
//
//===----------------------------------------------------------------------===//

#include "Interface.h"
#include "State.h"

using namespace ompx;

namespace {
/// The start of libomp's `kmp_task_t`, which the compiler fills in.
struct TaskDescriptor {
  void *Shareds;
  int32_t (*Routine)(int32_t, void *);
  int32_t PartId;
};

constexpr size_t TaskAlignment = 16;

void runAndFree(int32_t Gtid, TaskDescriptor *Task) {
  Task->Routine(Gtid, Task);
  arch::freeGlobal(Task);
}
} // namespace

extern "C" {
void *__kmpc_omp_task_alloc(IdentTy *Loc, int32_t Gtid, int32_t Flags,
                            size_t TaskSize, size_t SharedsSize,
                            void *Routine) {
  OMPX_FORWARD_TO_HOST(__kmpc_omp_task_alloc, void *,
                       (IdentTy *, int32_t, int32_t, size_t, size_t, void *),
                       Loc, Gtid, Flags, TaskSize, SharedsSize, Routine);
  size_t SharedsOffset = (TaskSize + TaskAlignment - 1) & ~(TaskAlignment - 1);
  size_t Total = SharedsOffset + SharedsSize;
  if (Total < sizeof(TaskDescriptor))
    Total = sizeof(TaskDescriptor);
  char *Memory = static_cast<char *>(arch::allocGlobal(Total));
  if (!Memory)
    arch::fatal("out of device memory for an explicit task");
  __builtin_memset(Memory, 0, Total);
  auto *Task = reinterpret_cast<TaskDescriptor *>(Memory);
  Task->Shareds = SharedsSize ? Memory + SharedsOffset : nullptr;
  Task->Routine = reinterpret_cast<int32_t (*)(int32_t, void *)>(Routine);
  return Task;
}

int32_t __kmpc_omp_task(IdentTy *Loc, int32_t Gtid, void *Task) {
  OMPX_FORWARD_TO_HOST(__kmpc_omp_task, int32_t, (IdentTy *, int32_t, void *),
                       Loc, Gtid, Task);
  runAndFree(Gtid, static_cast<TaskDescriptor *>(Task));
  return 0;
}

int32_t __kmpc_omp_task_with_deps(IdentTy *Loc, int32_t Gtid, void *Task,
                                  int32_t NumDeps, void *Deps,
                                  int32_t NumNoAliasDeps, void *NoAliasDeps) {
  OMPX_FORWARD_TO_HOST(
      __kmpc_omp_task_with_deps, int32_t,
      (IdentTy *, int32_t, void *, int32_t, void *, int32_t, void *), Loc, Gtid,
      Task, NumDeps, Deps, NumNoAliasDeps, NoAliasDeps);
  runAndFree(Gtid, static_cast<TaskDescriptor *>(Task));
  return 0;
}

// if(false) tasks: the compiler runs the routine itself in between.
void __kmpc_omp_task_begin_if0(IdentTy *Loc, int32_t Gtid, void *Task) {
  OMPX_FORWARD_TO_HOST(__kmpc_omp_task_begin_if0, void,
                       (IdentTy *, int32_t, void *), Loc, Gtid, Task);
}

void __kmpc_omp_task_complete_if0(IdentTy *Loc, int32_t Gtid, void *Task) {
  OMPX_FORWARD_TO_HOST(__kmpc_omp_task_complete_if0, void,
                       (IdentTy *, int32_t, void *), Loc, Gtid, Task);
  arch::freeGlobal(Task);
}

void __kmpc_omp_wait_deps(IdentTy *Loc, int32_t Gtid, int32_t NumDeps,
                          void *Deps, int32_t NumNoAliasDeps,
                          void *NoAliasDeps) {
  OMPX_FORWARD_TO_HOST(__kmpc_omp_wait_deps, void,
                       (IdentTy *, int32_t, int32_t, void *, int32_t, void *),
                       Loc, Gtid, NumDeps, Deps, NumNoAliasDeps, NoAliasDeps);
}

int32_t __kmpc_omp_taskwait(IdentTy *Loc, int32_t Gtid) {
  OMPX_FORWARD_TO_HOST(__kmpc_omp_taskwait, int32_t, (IdentTy *, int32_t), Loc,
                       Gtid);
  return 0;
}

int32_t __kmpc_omp_taskyield(IdentTy *Loc, int32_t Gtid, int32_t EndPart) {
  OMPX_FORWARD_TO_HOST(__kmpc_omp_taskyield, int32_t,
                       (IdentTy *, int32_t, int32_t), Loc, Gtid, EndPart);
  return 0;
}

void __kmpc_taskgroup(IdentTy *Loc, int32_t Gtid) {
  OMPX_FORWARD_TO_HOST(__kmpc_taskgroup, void, (IdentTy *, int32_t), Loc, Gtid);
}

void __kmpc_end_taskgroup(IdentTy *Loc, int32_t Gtid) {
  OMPX_FORWARD_TO_HOST(__kmpc_end_taskgroup, void, (IdentTy *, int32_t), Loc,
                       Gtid);
}
}
