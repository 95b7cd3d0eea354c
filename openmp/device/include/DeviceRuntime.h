//===- DeviceRuntime.h - Entry points compiled kernels call ----*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Every function the device runtime provides to compiled kernels, with the
// signatures LLVM 22's OMPKinds.def gives them. Unit tests include this to
// write GPU-style kernels by hand.
//
//===----------------------------------------------------------------------===//

#ifndef OPENMP_DEVICE_INCLUDE_DEVICERUNTIME_H
#define OPENMP_DEVICE_INCLUDE_DEVICERUNTIME_H

#include "DeviceABI.h"

extern "C" {
using ompx::IdentTy;
using ompx::KernelEnvironmentTy;
using ompx::KernelLaunchEnvironmentTy;

// Kernel start and end (Kernel.cpp).
int32_t __kmpc_target_init(KernelEnvironmentTy *KernelEnv,
                           KernelLaunchEnvironmentTy *LaunchEnv);
void __kmpc_target_deinit();
int8_t __kmpc_is_spmd_exec_mode();
int8_t __ompx_team_is_spmd();
int8_t __kmpc_is_generic_main_thread(int32_t Tid);
uint32_t __kmpc_get_hardware_thread_id_in_block();
uint32_t __kmpc_get_hardware_num_threads_in_block();
uint32_t __kmpc_get_hardware_num_blocks();

// Parallel regions (Parallel.cpp).
void __kmpc_parallel_60(IdentTy *Loc, int32_t Gtid, int32_t IfExpr,
                        int32_t NumThreads, int32_t ProcBind, void *Fn,
                        void *WrapperFn, void **Args, int64_t NumArgs,
                        int32_t Strict);
void __kmpc_parallel_51(IdentTy *Loc, int32_t Gtid, int32_t IfExpr,
                        int32_t NumThreads, int32_t ProcBind, void *Fn,
                        void *WrapperFn, void **Args, int64_t NumArgs);
bool __kmpc_kernel_parallel(void **WorkFn);
void __kmpc_kernel_end_parallel();
void __kmpc_begin_sharing_variables(void ***Vars, uint64_t NumVars);
void __kmpc_end_sharing_variables();
void __kmpc_get_shared_variables(void ***Vars);
void __kmpc_serialized_parallel(IdentTy *Loc, int32_t Gtid);
void __kmpc_end_serialized_parallel(IdentTy *Loc, int32_t Gtid);
void __kmpc_push_num_threads(IdentTy *Loc, int32_t Gtid, int32_t NumThreads);
void __kmpc_push_proc_bind(IdentTy *Loc, int32_t Gtid, int32_t ProcBind);
uint16_t __kmpc_parallel_level(IdentTy *Loc, int32_t Gtid);
int32_t __kmpc_global_thread_num(IdentTy *Loc);

// The teams of host-style ompx_bare kernels, CPU device only
// (arch/cpu/CPUBareKernel.cpp).
void __kmpc_push_num_teams(IdentTy *Loc, int32_t Gtid, int32_t NumTeams,
                           int32_t NumThreads);
void __kmpc_fork_teams(IdentTy *Loc, int32_t Argc, void *Microtask, ...);

// Worksharing (Workshare.cpp, Dispatch.cpp).
void __kmpc_for_static_loop_4(IdentTy *Loc, void *Body, void *Arg,
                              int32_t TripCount, int32_t NumThreads,
                              int32_t ThreadChunk, int8_t OneIterPerThread);
void __kmpc_for_static_loop_4u(IdentTy *Loc, void *Body, void *Arg,
                               uint32_t TripCount, uint32_t NumThreads,
                               uint32_t ThreadChunk, int8_t OneIterPerThread);
void __kmpc_for_static_loop_8(IdentTy *Loc, void *Body, void *Arg,
                              int64_t TripCount, int64_t NumThreads,
                              int64_t ThreadChunk, int8_t OneIterPerThread);
void __kmpc_for_static_loop_8u(IdentTy *Loc, void *Body, void *Arg,
                               uint64_t TripCount, uint64_t NumThreads,
                               uint64_t ThreadChunk, int8_t OneIterPerThread);
void __kmpc_distribute_static_loop_4(IdentTy *Loc, void *Body, void *Arg,
                                     int32_t TripCount, int32_t BlockChunk,
                                     int8_t OneIterPerThread);
void __kmpc_distribute_static_loop_4u(IdentTy *Loc, void *Body, void *Arg,
                                      uint32_t TripCount, uint32_t BlockChunk,
                                      int8_t OneIterPerThread);
void __kmpc_distribute_static_loop_8(IdentTy *Loc, void *Body, void *Arg,
                                     int64_t TripCount, int64_t BlockChunk,
                                     int8_t OneIterPerThread);
void __kmpc_distribute_static_loop_8u(IdentTy *Loc, void *Body, void *Arg,
                                      uint64_t TripCount, uint64_t BlockChunk,
                                      int8_t OneIterPerThread);
void __kmpc_distribute_for_static_loop_4(IdentTy *Loc, void *Body, void *Arg,
                                         int32_t TripCount, int32_t NumThreads,
                                         int32_t BlockChunk,
                                         int32_t ThreadChunk,
                                         int8_t OneIterPerThread);
void __kmpc_distribute_for_static_loop_4u(IdentTy *Loc, void *Body, void *Arg,
                                          uint32_t TripCount,
                                          uint32_t NumThreads,
                                          uint32_t BlockChunk,
                                          uint32_t ThreadChunk,
                                          int8_t OneIterPerThread);
void __kmpc_distribute_for_static_loop_8(IdentTy *Loc, void *Body, void *Arg,
                                         int64_t TripCount, int64_t NumThreads,
                                         int64_t BlockChunk,
                                         int64_t ThreadChunk,
                                         int8_t OneIterPerThread);
void __kmpc_distribute_for_static_loop_8u(IdentTy *Loc, void *Body, void *Arg,
                                          uint64_t TripCount,
                                          uint64_t NumThreads,
                                          uint64_t BlockChunk,
                                          uint64_t ThreadChunk,
                                          int8_t OneIterPerThread);

void __kmpc_for_static_init_4(IdentTy *Loc, int32_t Gtid, int32_t Sched,
                              int32_t *LastIter, int32_t *Lower, int32_t *Upper,
                              int32_t *Stride, int32_t Incr, int32_t Chunk);
void __kmpc_for_static_init_4u(IdentTy *Loc, int32_t Gtid, int32_t Sched,
                               int32_t *LastIter, uint32_t *Lower,
                               uint32_t *Upper, int32_t *Stride, int32_t Incr,
                               int32_t Chunk);
void __kmpc_for_static_init_8(IdentTy *Loc, int32_t Gtid, int32_t Sched,
                              int32_t *LastIter, int64_t *Lower, int64_t *Upper,
                              int64_t *Stride, int64_t Incr, int64_t Chunk);
void __kmpc_for_static_init_8u(IdentTy *Loc, int32_t Gtid, int32_t Sched,
                               int32_t *LastIter, uint64_t *Lower,
                               uint64_t *Upper, int64_t *Stride, int64_t Incr,
                               int64_t Chunk);
void __kmpc_distribute_static_init_4(IdentTy *Loc, int32_t Gtid, int32_t Sched,
                                     int32_t *LastIter, int32_t *Lower,
                                     int32_t *Upper, int32_t *Stride,
                                     int32_t Incr, int32_t Chunk);
void __kmpc_distribute_static_init_4u(IdentTy *Loc, int32_t Gtid, int32_t Sched,
                                      int32_t *LastIter, uint32_t *Lower,
                                      uint32_t *Upper, int32_t *Stride,
                                      int32_t Incr, int32_t Chunk);
void __kmpc_distribute_static_init_8(IdentTy *Loc, int32_t Gtid, int32_t Sched,
                                     int32_t *LastIter, int64_t *Lower,
                                     int64_t *Upper, int64_t *Stride,
                                     int64_t Incr, int64_t Chunk);
void __kmpc_distribute_static_init_8u(IdentTy *Loc, int32_t Gtid, int32_t Sched,
                                      int32_t *LastIter, uint64_t *Lower,
                                      uint64_t *Upper, int64_t *Stride,
                                      int64_t Incr, int64_t Chunk);
void __kmpc_for_static_fini(IdentTy *Loc, int32_t Gtid);
void __kmpc_distribute_static_fini(IdentTy *Loc, int32_t Gtid);

void __kmpc_dispatch_init_4(IdentTy *Loc, int32_t Gtid, int32_t Sched,
                            int32_t Lower, int32_t Upper, int32_t Stride,
                            int32_t Chunk);
void __kmpc_dispatch_init_4u(IdentTy *Loc, int32_t Gtid, int32_t Sched,
                             uint32_t Lower, uint32_t Upper, int32_t Stride,
                             int32_t Chunk);
void __kmpc_dispatch_init_8(IdentTy *Loc, int32_t Gtid, int32_t Sched,
                            int64_t Lower, int64_t Upper, int64_t Stride,
                            int64_t Chunk);
void __kmpc_dispatch_init_8u(IdentTy *Loc, int32_t Gtid, int32_t Sched,
                             uint64_t Lower, uint64_t Upper, int64_t Stride,
                             int64_t Chunk);
int32_t __kmpc_dispatch_next_4(IdentTy *Loc, int32_t Gtid, int32_t *LastIter,
                               int32_t *Lower, int32_t *Upper, int32_t *Stride);
int32_t __kmpc_dispatch_next_4u(IdentTy *Loc, int32_t Gtid, int32_t *LastIter,
                                uint32_t *Lower, uint32_t *Upper,
                                int32_t *Stride);
int32_t __kmpc_dispatch_next_8(IdentTy *Loc, int32_t Gtid, int32_t *LastIter,
                               int64_t *Lower, int64_t *Upper, int64_t *Stride);
int32_t __kmpc_dispatch_next_8u(IdentTy *Loc, int32_t Gtid, int32_t *LastIter,
                                uint64_t *Lower, uint64_t *Upper,
                                int64_t *Stride);
void __kmpc_dispatch_fini_4(IdentTy *Loc, int32_t Gtid);
void __kmpc_dispatch_fini_4u(IdentTy *Loc, int32_t Gtid);
void __kmpc_dispatch_fini_8(IdentTy *Loc, int32_t Gtid);
void __kmpc_dispatch_fini_8u(IdentTy *Loc, int32_t Gtid);
void __kmpc_dispatch_deinit(IdentTy *Loc, int32_t Gtid);

// Synchronization (Synchronization.cpp).
void __kmpc_barrier(IdentTy *Loc, int32_t Gtid);
void __kmpc_barrier_simple_spmd(IdentTy *Loc, int32_t Gtid);
void __kmpc_barrier_simple_generic(IdentTy *Loc, int32_t Gtid);
int32_t __kmpc_cancel_barrier(IdentTy *Loc, int32_t Gtid);
void __kmpc_flush(IdentTy *Loc);
void __kmpc_critical(IdentTy *Loc, int32_t Gtid, ompx::CriticalNameTy *Name);
void __kmpc_critical_with_hint(IdentTy *Loc, int32_t Gtid,
                               ompx::CriticalNameTy *Name, uint32_t Hint);
void __kmpc_end_critical(IdentTy *Loc, int32_t Gtid,
                         ompx::CriticalNameTy *Name);
int32_t __kmpc_single(IdentTy *Loc, int32_t Gtid);
void __kmpc_end_single(IdentTy *Loc, int32_t Gtid);
int32_t __kmpc_masked(IdentTy *Loc, int32_t Gtid, int32_t Filter);
void __kmpc_end_masked(IdentTy *Loc, int32_t Gtid);
int32_t __kmpc_master(IdentTy *Loc, int32_t Gtid);
void __kmpc_end_master(IdentTy *Loc, int32_t Gtid);
void __kmpc_ordered(IdentTy *Loc, int32_t Gtid);
void __kmpc_end_ordered(IdentTy *Loc, int32_t Gtid);

// Reductions (Reduction.cpp).
int32_t __kmpc_reduce(IdentTy *Loc, int32_t Gtid, int32_t NumVars, size_t Size,
                      void *Data, ompx::ReduceFnTy Fn,
                      ompx::CriticalNameTy *Lock);
int32_t __kmpc_reduce_nowait(IdentTy *Loc, int32_t Gtid, int32_t NumVars,
                             size_t Size, void *Data, ompx::ReduceFnTy Fn,
                             ompx::CriticalNameTy *Lock);
void __kmpc_end_reduce(IdentTy *Loc, int32_t Gtid, ompx::CriticalNameTy *Lock);
void __kmpc_end_reduce_nowait(IdentTy *Loc, int32_t Gtid,
                              ompx::CriticalNameTy *Lock);

// Explicit tasks, all undeferred (Tasks.cpp).
void *__kmpc_omp_task_alloc(IdentTy *Loc, int32_t Gtid, int32_t Flags,
                            size_t TaskSize, size_t SharedsSize, void *Routine);
int32_t __kmpc_omp_task(IdentTy *Loc, int32_t Gtid, void *Task);
int32_t __kmpc_omp_task_with_deps(IdentTy *Loc, int32_t Gtid, void *Task,
                                  int32_t NumDeps, void *Deps,
                                  int32_t NumNoAliasDeps, void *NoAliasDeps);
void __kmpc_omp_task_begin_if0(IdentTy *Loc, int32_t Gtid, void *Task);
void __kmpc_omp_task_complete_if0(IdentTy *Loc, int32_t Gtid, void *Task);
void __kmpc_omp_wait_deps(IdentTy *Loc, int32_t Gtid, int32_t NumDeps,
                          void *Deps, int32_t NumNoAliasDeps,
                          void *NoAliasDeps);
int32_t __kmpc_omp_taskwait(IdentTy *Loc, int32_t Gtid);
int32_t __kmpc_omp_taskyield(IdentTy *Loc, int32_t Gtid, int32_t EndPart);
void __kmpc_taskloop(IdentTy *Loc, int32_t Gtid, void *Task, int32_t IfVal,
                     uint64_t *Lb, uint64_t *Ub, int64_t Stride,
                     int32_t NoGroup, int32_t Schedule, uint64_t Grainsize,
                     void *TaskDup);
void __kmpc_taskloop_5(IdentTy *Loc, int32_t Gtid, void *Task, int32_t IfVal,
                       uint64_t *Lb, uint64_t *Ub, int64_t Stride,
                       int32_t NoGroup, int32_t Schedule, uint64_t Grainsize,
                       int32_t Modifier, void *TaskDup);
void __kmpc_taskgroup(IdentTy *Loc, int32_t Gtid);
void __kmpc_end_taskgroup(IdentTy *Loc, int32_t Gtid);
int32_t __kmpc_omp_reg_task_with_affinity(IdentTy *Loc, int32_t Gtid,
                                          void *Task, int32_t NumAffinity,
                                          void *AffinityList);

// Task reductions (TaskReduction.cpp).
void *__kmpc_taskred_init(int32_t Gtid, int32_t NumItems, void *Data);
void *__kmpc_task_reduction_init(int32_t Gtid, int32_t NumItems, void *Data);
void *__kmpc_taskred_modifier_init(IdentTy *Loc, int32_t Gtid, int32_t IsWs,
                                   int32_t NumItems, void *Data);
void *__kmpc_task_reduction_modifier_init(IdentTy *Loc, int32_t Gtid,
                                          int32_t IsWs, int32_t NumItems,
                                          void *Data);
void __kmpc_task_reduction_modifier_fini(IdentTy *Loc, int32_t Gtid,
                                         int32_t IsWs);
void *__kmpc_task_reduction_get_th_data(int32_t Gtid, void *Taskgroup,
                                        void *Item);

// Team-shared memory (SharedStack.cpp).
void *__kmpc_alloc_shared(uint64_t Bytes);
void __kmpc_free_shared(void *Ptr, uint64_t Bytes);
void *__kmpc_get_dynamic_shared();
void *llvm_omp_target_dynamic_shared_alloc();
void *llvm_omp_get_dynamic_shared();

// Indirect calls (IndirectCall.cpp).
void *__llvm_omp_indirect_call_lookup(void *HostPtr);
void *__kmpc_target_translate_fptr(void *FnPtr);

// The OpenMP API on the device (DeviceAPI.cpp).
int omp_get_thread_num();
int omp_get_num_threads();
int omp_get_max_threads();
void omp_set_num_threads(int NumThreads);
int omp_get_team_num();
int omp_get_num_teams();
int omp_get_thread_limit();
int omp_get_team_size(int Level);
int omp_get_ancestor_thread_num(int Level);
int omp_get_level();
int omp_get_active_level();
int omp_in_parallel();
int omp_in_final();
int omp_is_initial_device();
int omp_get_initial_device();
int omp_get_device_num();
int omp_get_num_devices();
int omp_get_num_procs();
int omp_get_dynamic();
void omp_set_dynamic(int Flag);
int omp_get_nested();
void omp_set_nested(int Flag);
int omp_get_max_active_levels();
void omp_set_max_active_levels(int Levels);
int omp_get_supported_active_levels();
int omp_get_cancellation();
int omp_get_proc_bind();
void omp_get_schedule(int *Kind, int *Chunk);
void omp_set_schedule(int Kind, int Chunk);
double omp_get_wtime();
double omp_get_wtick();
void omp_init_lock(void *Lock);
void omp_destroy_lock(void *Lock);
void omp_set_lock(void *Lock);
void omp_unset_lock(void *Lock);
int omp_test_lock(void *Lock);
}

#endif // OPENMP_DEVICE_INCLUDE_DEVICERUNTIME_H
