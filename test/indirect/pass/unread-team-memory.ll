; Team-shared memory lives as long as its block, and only the block's
; threads, which all run one kernel, read it: a kernel's store to a
; team-shared variable that none of the code it can run reads is dead,
; even if another kernel reads the variable. The pass deletes such stores
; in the kernel itself (and the address computations they leave), and keeps
; them where the kernel, or a function it calls, reads the variable, where
; it can call code the module does not have, and where the variable's
; address goes elsewhere.
; RUN: %opt-indirect -passes=offload-indirect-calls -S %s | FileCheck %s
; REQUIRES: indirect-plugin

target datalayout = "e-i64:64-n16:32:64"

@States = internal addrspace(3) global [256 x i8] undef
@Barrier = internal addrspace(3) global i32 undef
@Escaped = internal addrspace(3) global i32 undef
@Out = global i32 0

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @external()

; Stores its thread's state and zeroes the barrier, reads neither.
; CHECK-LABEL: define ptx_kernel void @trivial(
; CHECK-NOT:     @States
; CHECK-NOT:     @Barrier
; CHECK:         store i32 1, ptr @Out
; CHECK-NEXT:    ret void
define ptx_kernel void @trivial() {
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr inbounds [256 x i8], ptr addrspace(3) @States, i32 0, i32 %tid
  store i8 0, ptr addrspace(3) %slot
  store atomic i32 0, ptr addrspace(3) @Barrier release, align 4
  store i32 1, ptr @Out
  ret void
}

; Reads its state through a function it calls: the store stays; the barrier
; store goes.
; CHECK-LABEL: define ptx_kernel void @reads_state(
; CHECK:         store i8 0, ptr addrspace(3) %slot
; CHECK-NOT:     @Barrier
; CHECK:         ret void
define ptx_kernel void @reads_state() {
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr inbounds [256 x i8], ptr addrspace(3) @States, i32 0, i32 %tid
  store i8 0, ptr addrspace(3) %slot
  store atomic i32 0, ptr addrspace(3) @Barrier release, align 4
  call void @level(i32 %tid)
  ret void
}

define internal void @level(i32 %tid) {
  %slot = getelementptr inbounds [256 x i8], ptr addrspace(3) @States, i32 0, i32 %tid
  %v = load i8, ptr addrspace(3) %slot
  %w = zext i8 %v to i32
  store i32 %w, ptr @Out
  ret void
}

; Waits at the barrier: an atomic update reads it.
; CHECK-LABEL: define ptx_kernel void @uses_barrier(
; CHECK:         store atomic i32 0, ptr addrspace(3) @Barrier
; CHECK:         atomicrmw add ptr addrspace(3) @Barrier
define ptx_kernel void @uses_barrier() {
  store atomic i32 0, ptr addrspace(3) @Barrier release, align 4
  %old = atomicrmw add ptr addrspace(3) @Barrier, i32 1 acq_rel
  store i32 %old, ptr @Out
  ret void
}

; Calls code the module does not have: left alone.
; CHECK-LABEL: define ptx_kernel void @calls_out(
; CHECK:         store atomic i32 0, ptr addrspace(3) @Barrier
define ptx_kernel void @calls_out() {
  store atomic i32 0, ptr addrspace(3) @Barrier release, align 4
  call void @external()
  ret void
}

; A variable whose address is stored somewhere is never touched.
; CHECK-LABEL: define ptx_kernel void @escapes(
; CHECK:         store i32 7, ptr addrspace(3) @Escaped
define ptx_kernel void @escapes() {
  store i32 7, ptr addrspace(3) @Escaped
  ret void
}

define void @publish() {
  %p = addrspacecast ptr addrspace(3) @Escaped to ptr
  store ptr %p, ptr @Out
  ret void
}

!llvm.module.flags = !{!0}
!0 = !{i32 7, !"openmp-device", i32 51}
