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
// wait for, and dependences between sibling tasks hold by construction. A
// taskgroup's only work is ending the task reductions it opened
// (TaskReduction.cpp).
//
//===----------------------------------------------------------------------===//

#include "Interface.h"
#include "TaskReduction.h"

using namespace ompx;

namespace {
/// The start of libomp's `kmp_task_t`, which the compiler fills in.
struct TaskDescriptor {
  void *Shareds;
  int32_t (*Routine)(int32_t, void *);
  int32_t PartId;
};

constexpr size_t TaskAlignment = 16;
/// Shareds follow the task at the next pointer-aligned offset, as libomp
/// places them: Flang's taskloop duplication routine addresses the shareds
/// of a task at that offset instead of through `Shareds`.
constexpr size_t SharedsAlignment = alignof(void *);

/// Every task is allocated behind a header that remembers its size, so a
/// taskloop can copy it (as libomp's own task duplication does).
struct alignas(TaskAlignment) TaskHeader {
  size_t TotalSize;     ///< task + shareds, without this header
  size_t SharedsOffset; ///< from the task; 0 when it has no shareds
};

TaskHeader *headerOf(void *Task) {
  return reinterpret_cast<TaskHeader *>(Task) - 1;
}

void freeTask(void *Task) { arch::freeGlobal(headerOf(Task)); }

void runAndFree(int32_t Gtid, TaskDescriptor *Task) {
  Task->Routine(Gtid, Task);
  freeTask(Task);
}

TaskDescriptor *allocateTask(size_t TaskSize, size_t SharedsSize) {
  size_t SharedsOffset =
      (TaskSize + SharedsAlignment - 1) & ~(SharedsAlignment - 1);
  size_t Total = SharedsOffset + SharedsSize;
  if (Total < sizeof(TaskDescriptor))
    Total = sizeof(TaskDescriptor);
  char *Memory =
      static_cast<char *>(arch::allocGlobal(sizeof(TaskHeader) + Total));
  if (!Memory)
    arch::fatal("out of device memory for an explicit task");
  __builtin_memset(Memory, 0, sizeof(TaskHeader) + Total);
  auto *Header = reinterpret_cast<TaskHeader *>(Memory);
  Header->TotalSize = Total;
  Header->SharedsOffset = SharedsSize ? SharedsOffset : 0;
  auto *Task = reinterpret_cast<TaskDescriptor *>(Header + 1);
  Task->Shareds =
      SharedsSize ? reinterpret_cast<char *>(Task) + SharedsOffset : nullptr;
  return Task;
}

/// A byte copy of \p Task with its own shareds block, as libomp makes one
/// before it calls the compiler's task duplication routine.
TaskDescriptor *copyTask(TaskDescriptor *Task) {
  TaskHeader *Header = headerOf(Task);
  char *Memory = static_cast<char *>(
      arch::allocGlobal(sizeof(TaskHeader) + Header->TotalSize));
  if (!Memory)
    arch::fatal("out of device memory for a taskloop task");
  __builtin_memcpy(Memory, Header, sizeof(TaskHeader) + Header->TotalSize);
  auto *Copy = reinterpret_cast<TaskDescriptor *>(
      reinterpret_cast<TaskHeader *>(Memory) + 1);
  if (Header->SharedsOffset)
    Copy->Shareds = reinterpret_cast<char *>(Copy) + Header->SharedsOffset;
  return Copy;
}

/// The compiler's routine that copies firstprivates into a new taskloop
/// task and tells the one with the last iteration so (lastprivate).
using TaskDupFn = void (*)(void *Dst, void *Src, int32_t LastIteration);

/// libomp's schedule argument of __kmpc_taskloop.
enum TaskloopSchedule {
  ScheduleDefault = 0,
  ScheduleGrainsize = 1,
  ScheduleNumTasks = 2
};

/// Runs a taskloop: its iterations are split into tasks as `grainsize` or
/// `num_tasks` ask (one task by default, which the specification leaves to
/// the implementation), and each task runs at once on this thread, in
/// iteration order, like every task of this runtime.
void runTaskloop(int32_t Gtid, TaskDescriptor *Task, uint64_t *Lb, uint64_t *Ub,
                 int64_t Stride, int32_t Schedule, uint64_t Grainsize,
                 bool Strict, void *TaskDup) {
  int64_t First = static_cast<int64_t>(*Lb), Last = static_cast<int64_t>(*Ub);
  uint64_t TripCount = 0;
  if (Stride > 0 && First <= Last)
    TripCount = uint64_t(Last - First) / uint64_t(Stride) + 1;
  else if (Stride < 0 && First >= Last)
    TripCount = uint64_t(First - Last) / uint64_t(-Stride) + 1;
  uint64_t NumTasks = 1;
  if (Schedule == ScheduleGrainsize && Grainsize)
    NumTasks = TripCount / Grainsize;
  else if (Schedule == ScheduleNumTasks && Grainsize)
    NumTasks = Grainsize;
  if (NumTasks > TripCount)
    NumTasks = TripCount;
  if (NumTasks == 0)
    NumTasks = 1;
  // Where the bounds live inside a task: the copies have them at the same
  // offsets.
  size_t LbOffset =
      reinterpret_cast<char *>(Lb) - reinterpret_cast<char *>(Task);
  size_t UbOffset =
      reinterpret_cast<char *>(Ub) - reinterpret_cast<char *>(Task);
  uint64_t Chunk = TripCount / NumTasks, Extra = TripCount % NumTasks;
  // grainsize(strict: G): every task but the last has exactly G iterations.
  if (Strict && Schedule == ScheduleGrainsize && Grainsize && TripCount) {
    NumTasks = (TripCount + Grainsize - 1) / Grainsize;
    Chunk = Grainsize;
    Extra = 0;
  }
  int64_t Next = First;
  for (uint64_t I = 0; I < NumTasks && TripCount; ++I) {
    uint64_t Iterations = Chunk + (I < Extra ? 1 : 0);
    if (Next != First && I + 1 == NumTasks)
      Iterations = TripCount - uint64_t((Next - First) / Stride);
    TaskDescriptor *Copy = copyTask(Task);
    auto *CopyBytes = reinterpret_cast<char *>(Copy);
    *reinterpret_cast<uint64_t *>(CopyBytes + LbOffset) = uint64_t(Next);
    *reinterpret_cast<uint64_t *>(CopyBytes + UbOffset) =
        uint64_t(Next + int64_t(Iterations - 1) * Stride);
    if (TaskDup)
      reinterpret_cast<TaskDupFn>(TaskDup)(Copy, Task, I + 1 == NumTasks);
    runAndFree(Gtid, Copy);
    Next += int64_t(Iterations) * Stride;
  }
  freeTask(Task);
}
} // namespace

extern "C" {
void *__kmpc_omp_task_alloc(IdentTy *Loc, int32_t Gtid, int32_t Flags,
                            size_t TaskSize, size_t SharedsSize,
                            void *Routine) {
  OMPX_FORWARD_TO_HOST(__kmpc_omp_task_alloc, void *,
                       (IdentTy *, int32_t, int32_t, size_t, size_t, void *),
                       Loc, Gtid, Flags, TaskSize, SharedsSize, Routine);
  TaskDescriptor *Task = allocateTask(TaskSize, SharedsSize);
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
  freeTask(Task);
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

void __kmpc_taskloop(IdentTy *Loc, int32_t Gtid, void *Task, int32_t IfVal,
                     uint64_t *Lb, uint64_t *Ub, int64_t Stride,
                     int32_t NoGroup, int32_t Schedule, uint64_t Grainsize,
                     void *TaskDup) {
  OMPX_FORWARD_TO_HOST(__kmpc_taskloop, void,
                       (IdentTy *, int32_t, void *, int32_t, uint64_t *,
                        uint64_t *, int64_t, int32_t, int32_t, uint64_t,
                        void *),
                       Loc, Gtid, Task, IfVal, Lb, Ub, Stride, NoGroup,
                       Schedule, Grainsize, TaskDup);
  // if(false) and nogroup change nothing when tasks run at once.
  runTaskloop(Gtid, static_cast<TaskDescriptor *>(Task), Lb, Ub, Stride,
              Schedule, Grainsize, /*Strict=*/false, TaskDup);
}

void __kmpc_taskloop_5(IdentTy *Loc, int32_t Gtid, void *Task, int32_t IfVal,
                       uint64_t *Lb, uint64_t *Ub, int64_t Stride,
                       int32_t NoGroup, int32_t Schedule, uint64_t Grainsize,
                       int32_t Modifier, void *TaskDup) {
  OMPX_FORWARD_TO_HOST(__kmpc_taskloop_5, void,
                       (IdentTy *, int32_t, void *, int32_t, uint64_t *,
                        uint64_t *, int64_t, int32_t, int32_t, uint64_t,
                        int32_t, void *),
                       Loc, Gtid, Task, IfVal, Lb, Ub, Stride, NoGroup,
                       Schedule, Grainsize, Modifier, TaskDup);
  // Modifier 1 is `strict` (grainsize or num_tasks).
  runTaskloop(Gtid, static_cast<TaskDescriptor *>(Task), Lb, Ub, Stride,
              Schedule, Grainsize, Modifier == 1, TaskDup);
}

// The affinity clause is a hint about where a task should run; every task
// here runs at once on the thread that creates it.
int32_t __kmpc_omp_reg_task_with_affinity(IdentTy *Loc, int32_t Gtid,
                                          void *Task, int32_t NumAffinity,
                                          void *AffinityList) {
  OMPX_FORWARD_TO_HOST(__kmpc_omp_reg_task_with_affinity, int32_t,
                       (IdentTy *, int32_t, void *, int32_t, void *), Loc, Gtid,
                       Task, NumAffinity, AffinityList);
  return 0;
}

void __kmpc_taskgroup(IdentTy *Loc, int32_t Gtid) {
  OMPX_FORWARD_TO_HOST(__kmpc_taskgroup, void, (IdentTy *, int32_t), Loc, Gtid);
  beginTaskgroup();
}

void __kmpc_end_taskgroup(IdentTy *Loc, int32_t Gtid) {
  OMPX_FORWARD_TO_HOST(__kmpc_end_taskgroup, void, (IdentTy *, int32_t), Loc,
                       Gtid);
  // Its tasks are done (they ran at once); its task reductions end here.
  endTaskgroup();
}
}
