; The device runtime asks for the team's execution mode through
; __ompx_team_is_spmd, which it keeps noinline. OpenMPOpt folds the query
; where it knows which kernels reach it, but not in a region the runtime
; calls through a hidden pointer. Once such a region is inlined into its
; kernel, the pass folds the query to the mode the runtime gives the kernel
; (from its environment: the SPMD bit, except Flang's Generic-SPMD that
; still asks for the state machine), and the branch on it goes; a query
; left outside a kernel is inlined.
; RUN: %opt-indirect -passes=offload-indirect-calls -S %s | FileCheck %s
; REQUIRES: indirect-plugin

target datalayout = "e-i64:64-n16:32:64"

%struct.ConfigurationEnvironmentTy = type { i8, i8, i8, i32, i32, i32, i32, i32, i32 }
%struct.KernelEnvironmentTy = type { %struct.ConfigurationEnvironmentTy, ptr, ptr }

@IsSPMD = internal global i8 0
@Path = global i32 0

@__omp_offloading_spmd_kernel_environment = weak_odr protected constant %struct.KernelEnvironmentTy { %struct.ConfigurationEnvironmentTy { i8 0, i8 0, i8 2, i32 1, i32 128, i32 0, i32 0, i32 0, i32 0 }, ptr null, ptr null }
@__omp_offloading_generic_kernel_environment = weak_odr protected constant %struct.KernelEnvironmentTy { %struct.ConfigurationEnvironmentTy { i8 1, i8 0, i8 1, i32 1, i32 128, i32 0, i32 0, i32 0, i32 0 }, ptr null, ptr null }
@__omp_offloading_generic_spmd_sm_kernel_environment = weak_odr protected constant %struct.KernelEnvironmentTy { %struct.ConfigurationEnvironmentTy { i8 1, i8 0, i8 3, i32 1, i32 128, i32 0, i32 0, i32 0, i32 0 }, ptr null, ptr null }
@__omp_offloading_generic_spmd_kernel_environment = weak_odr protected constant %struct.KernelEnvironmentTy { %struct.ConfigurationEnvironmentTy { i8 0, i8 0, i8 3, i32 1, i32 128, i32 0, i32 0, i32 0, i32 0 }, ptr null, ptr null }

define hidden i8 @__ompx_team_is_spmd() noinline {
  %mode = load i8, ptr @IsSPMD
  ret i8 %mode
}

; What the runtime's parallel region entry looks like once inlined: a
; branch between the SPMD and the generic-mode path.
define internal void @region(ptr %gtid, ptr %btid) {
  %mode = call i8 @__ompx_team_is_spmd()
  %spmd = icmp ne i8 %mode, 0
  br i1 %spmd, label %spmd.path, label %generic.path
spmd.path:
  store i32 1, ptr @Path
  ret void
generic.path:
  store i32 2, ptr @Path
  ret void
}

; CHECK-LABEL: define void @__omp_offloading_spmd(
; CHECK-NOT:     __ompx_team_is_spmd
; CHECK-NOT:     @IsSPMD
; CHECK-NOT:     store i32 2
; CHECK:         store i32 1, ptr @Path
; CHECK-NEXT:    ret void
define void @__omp_offloading_spmd(ptr %g, ptr %b) {
  %fn = call ptr asm sideeffect "", "=l,0"(ptr @region)
  call void %fn(ptr %g, ptr %b)
  ret void
}

; CHECK-LABEL: define void @__omp_offloading_generic(
; CHECK-NOT:     __ompx_team_is_spmd
; CHECK-NOT:     store i32 1
; CHECK:         store i32 2, ptr @Path
; CHECK-NEXT:    ret void
define void @__omp_offloading_generic(ptr %g, ptr %b) {
  %fn = call ptr asm sideeffect "", "=l,0"(ptr @region)
  call void %fn(ptr %g, ptr %b)
  ret void
}

; Generic-SPMD that asks for the state machine runs in generic mode.
; CHECK-LABEL: define void @__omp_offloading_generic_spmd_sm(
; CHECK-NOT:     store i32 1
; CHECK:         store i32 2, ptr @Path
define void @__omp_offloading_generic_spmd_sm(ptr %g, ptr %b) {
  %mode = call i8 @__ompx_team_is_spmd()
  %spmd = icmp ne i8 %mode, 0
  br i1 %spmd, label %spmd.path, label %generic.path
spmd.path:
  store i32 1, ptr @Path
  ret void
generic.path:
  store i32 2, ptr @Path
  ret void
}

; Generic-SPMD without it (what OpenMPOpt made SPMD) runs in SPMD mode.
; CHECK-LABEL: define void @__omp_offloading_generic_spmd(
; CHECK-NOT:     store i32 2
; CHECK:         store i32 1, ptr @Path
define void @__omp_offloading_generic_spmd(ptr %g, ptr %b) {
  %mode = call i8 @__ompx_team_is_spmd()
  %spmd = icmp ne i8 %mode, 0
  br i1 %spmd, label %spmd.path, label %generic.path
spmd.path:
  store i32 1, ptr @Path
  ret void
generic.path:
  store i32 2, ptr @Path
  ret void
}

; Not a kernel: the query is inlined, and still reads the team's mode.
; CHECK-LABEL: define i8 @helper(
; CHECK-NOT:     call
; CHECK:         load i8, ptr @IsSPMD
define i8 @helper() {
  %mode = call i8 @__ompx_team_is_spmd()
  ret i8 %mode
}

!llvm.module.flags = !{!0}
!0 = !{i32 7, !"openmp-device", i32 51}
