//===- TaskReduction.cpp - Task reductions inside target regions ----------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `taskgroup task_reduction(...)`, `taskloop reduction(...)`,
// `reduction(task, ...)` and the `in_reduction` tasks that join them, with
// libomp's interface (what clang emits for every target).
//
// A reduction opened by a taskgroup gets a private copy of each item per
// thread that may run its tasks, initialized by the compiler's initializer;
// a task that joins it asks __kmpc_task_reduction_get_th_data for the copy
// of the thread running it, and the end of the taskgroup combines the
// copies into the item. Tasks here run at once on the thread that creates
// them (Tasks.cpp), so a taskgroup's reduction needs one copy: its own
// thread's. The task modifier is the exception: every thread of a region
// opens the reduction together, and their tasks share one array of copies,
// one per thread, which thread 0 combines into its own item (the region's
// private copy, which the region's ordinary reduction then folds in) once
// every thread has reached the end of the construct.
//
// Each thread keeps the reductions it opened on a stack (innermost first),
// tagged with the taskgroup nesting depth that opened them; the end of that
// taskgroup pops them.
//
//===----------------------------------------------------------------------===//

#include "TaskReduction.h"
#include "Interface.h"

using namespace ompx;

namespace ompx {

/// One item of a task reduction: what the compiler gave (Shared is the item
/// as the construct names it, a thread's private copy for the task
/// modifier, where the copies are combined), and the private copies.
struct TaskReductionItem {
  TaskReductionInputTy Input;
  /// Copies * Input.Size bytes.
  char *Privates;
};

struct TaskReduction {
  /// The reduction the calling thread opened before this one.
  TaskReduction *Enclosing;
  /// The taskgroup depth of the thread that opened it.
  uint32_t TaskgroupDepth;
  uint32_t NumItems;
  /// Private copies per item, and which one the opening thread's tasks use.
  uint32_t Copies;
  uint32_t Slot;
  /// The initializers take (private, original); libomp's first interface
  /// passed the private copy alone.
  bool InitTakesOriginal;
  /// Whether this reduction's items own their Privates (the task modifier's
  /// other threads share thread 0's).
  bool OwnsPrivates;
  TaskReductionItem Items[1];
};

} // namespace ompx

namespace {

/// The constructs the task modifier may appear on (libomp's is_ws).
enum ModifierConstruct : int32_t { OnParallel = 0, OnWorksharing = 1 };

using InitWithOriginal = void (*)(void *Private, void *Original);
using InitAlone = void (*)(void *Private);
using FiniFn = void (*)(void *Private);
using CombineFn = void (*)(void *Into, void *From);

TaskReductionItem itemFrom(const TaskReductionInputTy &In) {
  TaskReductionItem Item = {In, nullptr};
  // Without an original item libomp hands the initializer the shared one.
  if (!Item.Input.Original)
    Item.Input.Original = In.Shared;
  return Item;
}

TaskReductionItem itemFrom(const TaskReductionInputV1Ty &In) {
  return {{In.Shared, nullptr, In.Size, In.Init, In.Fini, In.Combine, In.Flags},
          nullptr};
}

/// A reduction of the compiler's \p NumItems items whose private copies
/// \p Copies threads share, the calling thread's being copy \p Slot; not
/// yet on any thread's stack, and without copies.
template <typename Input>
TaskReduction *makeReduction(int32_t NumItems, const Input *Inputs,
                             bool InitTakesOriginal, uint32_t Copies,
                             uint32_t Slot) {
  if (NumItems < 1)
    arch::fatal("task reduction with no items");
  size_t Bytes = sizeof(TaskReduction) +
                 sizeof(TaskReductionItem) * (uint32_t(NumItems) - 1);
  auto *Reduction = static_cast<TaskReduction *>(arch::allocGlobal(Bytes));
  if (!Reduction)
    arch::fatal("out of device memory for a task reduction");
  __builtin_memset(Reduction, 0, Bytes);
  Reduction->NumItems = uint32_t(NumItems);
  for (int32_t I = 0; I < NumItems; ++I)
    Reduction->Items[I] = itemFrom(Inputs[I]);
  Reduction->InitTakesOriginal = InitTakesOriginal;
  Reduction->Copies = Copies;
  Reduction->Slot = Slot;
  return Reduction;
}

/// Allocates and initializes \p Reduction's private copies.
void createPrivates(TaskReduction &Reduction) {
  for (uint32_t I = 0; I < Reduction.NumItems; ++I) {
    TaskReductionItem &Item = Reduction.Items[I];
    size_t Bytes = Item.Input.Size * Reduction.Copies;
    Item.Privates = static_cast<char *>(arch::allocGlobal(Bytes ? Bytes : 1));
    if (!Item.Privates)
      arch::fatal("out of device memory for the private copies of a task "
                  "reduction");
    for (uint32_t Copy = 0; Copy < Reduction.Copies; ++Copy) {
      char *Private = Item.Privates + Copy * Item.Input.Size;
      if (!Item.Input.Init)
        __builtin_memset(Private, 0, Item.Input.Size);
      else if (Reduction.InitTakesOriginal)
        reinterpret_cast<InitWithOriginal>(Item.Input.Init)(
            Private, Item.Input.Original);
      else
        reinterpret_cast<InitAlone>(Item.Input.Init)(Private);
    }
  }
  Reduction.OwnsPrivates = true;
}

/// Folds every private copy of \p Reduction into its items.
void combinePrivates(TaskReduction &Reduction) {
  for (uint32_t I = 0; I < Reduction.NumItems; ++I) {
    TaskReductionItem &Item = Reduction.Items[I];
    for (uint32_t Copy = 0; Copy < Reduction.Copies; ++Copy) {
      char *Private = Item.Privates + Copy * Item.Input.Size;
      reinterpret_cast<CombineFn>(Item.Input.Combine)(Item.Input.Shared,
                                                      Private);
      if (Item.Input.Fini)
        reinterpret_cast<FiniFn>(Item.Input.Fini)(Private);
    }
  }
}

void freeReduction(TaskReduction *Reduction) {
  if (Reduction->OwnsPrivates)
    for (uint32_t I = 0; I < Reduction->NumItems; ++I)
      arch::freeGlobal(Reduction->Items[I].Privates);
  arch::freeGlobal(Reduction);
}

/// Puts \p Reduction on the calling thread's stack, in its innermost
/// taskgroup.
void *openReduction(TaskReduction *Reduction) {
  ThreadExtras &State = *threadExtras(/*Create=*/true);
  if (State.TaskgroupDepth == 0)
    arch::fatal("task reduction opened outside a taskgroup");
  Reduction->TaskgroupDepth = State.TaskgroupDepth;
  Reduction->Enclosing = State.TaskReductions;
  State.TaskReductions = Reduction;
  return Reduction;
}

template <typename Input>
void *initTaskgroupReduction(int32_t NumItems, const Input *Inputs,
                             bool InitTakesOriginal) {
  TaskReduction *Reduction =
      makeReduction(NumItems, Inputs, InitTakesOriginal, 1, 0);
  createPrivates(*Reduction);
  return openReduction(Reduction);
}

/// The task modifier: called by every thread of the region (or of the
/// worksharing construct's region), which opens a taskgroup of its own
/// around the construct, as libomp does.
template <typename Input>
void *initModifierReduction(IdentTy *Loc, int32_t Gtid, int32_t Construct,
                            int32_t NumItems, const Input *Inputs,
                            bool InitTakesOriginal) {
  __kmpc_taskgroup(Loc, Gtid);
  uint32_t TeamSize = currentTeamSize();
  if (TeamSize == 1)
    return initTaskgroupReduction(NumItems, Inputs, InitTakesOriginal);
  if (Construct != OnParallel && Construct != OnWorksharing)
    arch::fatal("reduction(task, ...) on an unknown construct");

  TaskReduction *Reduction = makeReduction(NumItems, Inputs, InitTakesOriginal,
                                           TeamSize, currentThreadNum());

  // Thread 0 creates the copies; the others take its arrays after the
  // barrier. A barrier rather than a flag to spin on: the lanes of an AMD
  // wavefront run in lockstep, and a spinning lane would starve thread 0.
  TaskReduction **Published =
      &arch::teamExtras().TaskModifierReduction[Construct];
  if (Reduction->Slot == 0) {
    createPrivates(*Reduction);
    atomic::store(Published, Reduction);
  }
  teamBarrier();
  if (Reduction->Slot != 0) {
    TaskReduction *First = atomic::load(Published);
    if (First->NumItems != Reduction->NumItems)
      arch::fatal("threads of one region opened different task reductions");
    for (uint32_t I = 0; I < Reduction->NumItems; ++I)
      Reduction->Items[I].Privates = First->Items[I].Privates;
  }
  return openReduction(Reduction);
}

/// Whether \p Address names \p Item for a task: the item itself, or one of
/// its private copies (a task nested in a task that joined it).
bool names(const TaskReductionItem &Item, uint32_t Copies,
           const void *Address) {
  auto *Byte = static_cast<const char *>(Address);
  return Address == Item.Input.Shared ||
         (Byte >= Item.Privates &&
          Byte < Item.Privates + Item.Input.Size * Copies);
}

} // namespace

namespace ompx {

void beginTaskgroup() { ++threadExtras(/*Create=*/true)->TaskgroupDepth; }

void endTaskgroup() {
  ThreadExtras *Extras = threadExtras(/*Create=*/false);
  if (!Extras || Extras->TaskgroupDepth == 0)
    return;
  ThreadExtras &State = *Extras;
  while (TaskReduction *Reduction = State.TaskReductions) {
    if (Reduction->TaskgroupDepth != State.TaskgroupDepth)
      break;
    State.TaskReductions = Reduction->Enclosing;
    // A task modifier's copies are combined by its thread 0 in
    // __kmpc_task_reduction_modifier_fini, before it gets here.
    if (Reduction->Copies == 1)
      combinePrivates(*Reduction);
    freeReduction(Reduction);
  }
  --State.TaskgroupDepth;
}

} // namespace ompx

extern "C" {
void *__kmpc_taskred_init(int32_t Gtid, int32_t NumItems, void *Data) {
  OMPX_FORWARD_TO_HOST(__kmpc_taskred_init, void *, (int32_t, int32_t, void *),
                       Gtid, NumItems, Data);
  return initTaskgroupReduction(
      NumItems, static_cast<TaskReductionInputTy *>(Data), true);
}

void *__kmpc_task_reduction_init(int32_t Gtid, int32_t NumItems, void *Data) {
  OMPX_FORWARD_TO_HOST(__kmpc_task_reduction_init, void *,
                       (int32_t, int32_t, void *), Gtid, NumItems, Data);
  return initTaskgroupReduction(
      NumItems, static_cast<TaskReductionInputV1Ty *>(Data), false);
}

void *__kmpc_taskred_modifier_init(IdentTy *Loc, int32_t Gtid, int32_t IsWs,
                                   int32_t NumItems, void *Data) {
  OMPX_FORWARD_TO_HOST(__kmpc_taskred_modifier_init, void *,
                       (IdentTy *, int32_t, int32_t, int32_t, void *), Loc,
                       Gtid, IsWs, NumItems, Data);
  return initModifierReduction(Loc, Gtid, IsWs, NumItems,
                               static_cast<TaskReductionInputTy *>(Data), true);
}

void *__kmpc_task_reduction_modifier_init(IdentTy *Loc, int32_t Gtid,
                                          int32_t IsWs, int32_t NumItems,
                                          void *Data) {
  OMPX_FORWARD_TO_HOST(__kmpc_task_reduction_modifier_init, void *,
                       (IdentTy *, int32_t, int32_t, int32_t, void *), Loc,
                       Gtid, IsWs, NumItems, Data);
  return initModifierReduction(Loc, Gtid, IsWs, NumItems,
                               static_cast<TaskReductionInputV1Ty *>(Data),
                               false);
}

void __kmpc_task_reduction_modifier_fini(IdentTy *Loc, int32_t Gtid,
                                         int32_t IsWs) {
  OMPX_FORWARD_TO_HOST(__kmpc_task_reduction_modifier_fini, void,
                       (IdentTy *, int32_t, int32_t), Loc, Gtid, IsWs);
  ThreadExtras &State = *threadExtras(/*Create=*/true);
  TaskReduction *Reduction = State.TaskReductions;
  if (Reduction && Reduction->TaskgroupDepth == State.TaskgroupDepth &&
      Reduction->Copies > 1) {
    // Every thread's tasks are done (they ran at once); after the barrier
    // no thread touches the copies again, and thread 0, which owns them,
    // folds them into its item.
    teamBarrier();
    if (Reduction->OwnsPrivates)
      combinePrivates(*Reduction);
  }
  __kmpc_end_taskgroup(Loc, Gtid);
}

void *__kmpc_task_reduction_get_th_data(int32_t Gtid, void *Taskgroup,
                                        void *Item) {
  OMPX_FORWARD_TO_HOST(__kmpc_task_reduction_get_th_data, void *,
                       (int32_t, void *, void *), Gtid, Taskgroup, Item);
  auto *Reduction = static_cast<TaskReduction *>(Taskgroup);
  if (!Reduction)
    if (ThreadExtras *Extras = threadExtras(/*Create=*/false))
      Reduction = Extras->TaskReductions;
  for (; Reduction; Reduction = Reduction->Enclosing)
    for (uint32_t I = 0; I < Reduction->NumItems; ++I) {
      TaskReductionItem &Entry = Reduction->Items[I];
      if (names(Entry, Reduction->Copies, Item))
        return Entry.Privates + Reduction->Slot * Entry.Input.Size;
    }
  arch::fatal("in_reduction item is not part of any enclosing task reduction "
              "(__kmpc_task_reduction_get_th_data)");
  return nullptr;
}
}
