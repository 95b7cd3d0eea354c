; The CPU device's ompx_bare marker (BareKernelMarker.h), which the same
; plugin runs: a kernel whose teams region reaches a __ompx_cpu_kernel_*
; call through direct calls gets `<kernel>_ompx_bare`; one that asks only
; inside a parallel region (an outlined function passed to
; __kmpc_fork_call, not called), one with no query, and every kernel of a
; GPU or host module get none.
; RUN: %opt-indirect -passes=offload-bare-kernel-marker -S %s | FileCheck %s
; RUN: sed -e 's/x86_64-pc-linux-gnu/amdgcn-amd-amdhsa/' %s | %opt-indirect -passes=offload-bare-kernel-marker -S | FileCheck %s --check-prefix=NONE
; RUN: sed -e 's/"openmp-device"/"other-flag"/' %s | %opt-indirect -passes=offload-bare-kernel-marker -S | FileCheck %s --check-prefix=NONE
; REQUIRES: indirect-plugin

target triple = "x86_64-pc-linux-gnu"

; CHECK: @__omp_offloading_10_20_main_l5_ompx_bare = weak_odr protected constant i8 1
; CHECK-NOT: _ompx_bare =
; NONE-NOT: _ompx_bare =

define weak_odr protected void @__omp_offloading_10_20_main_l5(ptr %dyn) {
  call void (ptr, i32, ptr, ...) @__kmpc_fork_teams(ptr null, i32 0, ptr @bare.region)
  ret void
}

define internal void @bare.region(ptr %gtid, ptr %btid) {
  %id = call i32 @helper()
  ret void
}

define internal i32 @helper() {
  %id = call i32 @__ompx_cpu_kernel_thread_id(i32 0)
  ret i32 %id
}

define weak_odr protected void @__omp_offloading_10_20_main_l9(ptr %dyn) {
  call void (ptr, i32, ptr, ...) @__kmpc_fork_teams(ptr null, i32 0, ptr @teams.region)
  ret void
}

define internal void @teams.region(ptr %gtid, ptr %btid) {
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr null, i32 0, ptr @parallel.region)
  ret void
}

define internal void @parallel.region(ptr %gtid, ptr %btid) {
  %id = call i32 @helper()
  ret void
}

define weak_odr protected void @__omp_offloading_10_20_main_l13(ptr %dyn) {
  call void (ptr, i32, ptr, ...) @__kmpc_fork_teams(ptr null, i32 0, ptr @plain.region)
  ret void
}

define internal void @plain.region(ptr %gtid, ptr %btid) {
  %n = call i32 @omp_get_team_num()
  ret void
}

declare void @__kmpc_fork_teams(ptr, i32, ptr, ...)
declare void @__kmpc_fork_call(ptr, i32, ptr, ...)
declare i32 @__ompx_cpu_kernel_thread_id(i32)
declare i32 @omp_get_team_num()

!llvm.module.flags = !{!0}
!0 = !{i32 7, !"openmp-device", i32 51}
