; The device runtime passes a parallel region's pointer through an empty
; assembler statement (hideFromOptimizer) so that link-time OpenMPOpt cannot
; trace it. Once the runtime is inlined into a kernel, the pass makes such a
; call a direct call of the region again and never routes it through the
; lookup; then it inlines the region and cleans the caller up, as the
; optimizer would have had it seen the call: the captures the kernel passes
; by address become registers (no stack frame, fewer registers on a GPU).
; A region whose by-value captures are 64-bit integers gets its pointer
; arguments converted; a prototype that differs in anything else, and a
; pointer that is not a known function, stay as they were; a noinline
; region stays a direct call.
; RUN: %opt-indirect -passes=offload-indirect-calls -S %s | FileCheck %s
; REQUIRES: indirect-plugin

target datalayout = "e-i64:64-n16:32:64"

define internal void @region(ptr %gtid, ptr %btid, i64 %n, ptr %x) {
  store i64 %n, ptr %x
  ret void
}

define internal void @region_by_address(ptr %gtid, ptr %btid, ptr %v, ptr %out) {
  %value = load i32, ptr %v
  %twice = add i32 %value, %value
  store i32 %twice, ptr %out
  ret void
}

define internal void @region_noinline(ptr %gtid, ptr %btid) noinline {
  ret void
}

define internal void @region_f(ptr %gtid, ptr %btid, float %v) {
  ret void
}

; The region, inlined; with no caller left, it is deleted.
; CHECK-NOT:   define internal void @region(
; CHECK-LABEL: define void @kernel(
; CHECK-NOT:     asm
; CHECK:         %[[N:.+]] = ptrtoint ptr %a0 to i64
; CHECK-NEXT:    store i64 %[[N]], ptr %a1
; CHECK-NEXT:    ret void
define void @kernel(ptr %g, ptr %b, ptr %a0, ptr %a1) {
  %fn = call ptr asm sideeffect "", "=l,0"(ptr @region)
  call void %fn(ptr nonnull %g, ptr %b, ptr %a0, ptr %a1)
  ret void
}

; A capture passed by address: after inlining, no stack slot is left.
; CHECK-LABEL: define void @kernel_by_address(
; CHECK-NOT:     alloca
; CHECK-NOT:     call
; CHECK:         %[[T:.+]] = shl i32 %v, 1
; CHECK-NEXT:    store i32 %[[T]], ptr %out
; CHECK-NEXT:    ret void
define void @kernel_by_address(ptr %g, ptr %b, i32 %v, ptr %out) {
  %slot = alloca i32
  store i32 %v, ptr %slot
  %fn = call ptr asm sideeffect "", "=l,0"(ptr @region_by_address)
  call void %fn(ptr %g, ptr %b, ptr %slot, ptr %out)
  ret void
}

; A region that calls a reduction helper through a hidden pointer of its
; own: inlining the region copies the helper's call into the kernel, and
; that call is inlined too (the helper and the region are gone).
; CHECK-NOT:   define internal void @helper(
; CHECK-NOT:   define internal void @region_with_helper(
; CHECK-LABEL: define void @kernel_nested(
; CHECK-NOT:     call
; CHECK:         store i32 7, ptr %out
; CHECK-NEXT:    ret void
define void @kernel_nested(ptr %g, ptr %b, ptr %out) {
  %fn = call ptr asm sideeffect "", "=l,0"(ptr @region_with_helper)
  call void %fn(ptr %g, ptr %b, ptr %out)
  ret void
}

; (After the kernel, so the kernel's call is made direct first.)
define internal void @helper(ptr %out) {
  store i32 7, ptr %out
  ret void
}

define internal void @region_with_helper(ptr %gtid, ptr %btid, ptr %out) {
  %h = call ptr asm sideeffect "", "=l,0"(ptr @helper)
  call void %h(ptr %out)
  ret void
}

; CHECK-LABEL: define void @kernel_noinline(
; CHECK-NOT:     asm
; CHECK:         call void @region_noinline(ptr %g, ptr %b)
define void @kernel_noinline(ptr %g, ptr %b) {
  %fn = call ptr asm sideeffect "", "=l,0"(ptr @region_noinline)
  call void %fn(ptr %g, ptr %b)
  ret void
}

; A float parameter cannot stand for a pointer: the call stays indirect,
; and, its target being the function behind the statement, needs no lookup.
; CHECK-LABEL: define void @float_capture(
; CHECK:         %fn = call ptr asm sideeffect "", "=l,0"(ptr @region_f)
; CHECK-NEXT:    call void %fn(ptr %g, ptr %b, ptr %a0)
; CHECK-NOT:     __llvm_omp_indirect_call_lookup
define void @float_capture(ptr %g, ptr %b, ptr %a0) {
  %fn = call ptr asm sideeffect "", "=l,0"(ptr @region_f)
  call void %fn(ptr %g, ptr %b, ptr %a0)
  ret void
}

; Behind the statement an unknown pointer is still translated.
; CHECK-LABEL: define void @unknown(
; CHECK:         %[[H:.+]] = call ptr asm sideeffect "", "=l,0"(ptr %p)
; CHECK-NEXT:    %[[D:.+]] = call ptr @__llvm_omp_indirect_call_lookup(ptr %[[H]])
; CHECK-NEXT:    call void %[[D]]()
define void @unknown(ptr %p) {
  %fn = call ptr asm sideeffect "", "=l,0"(ptr %p)
  call void %fn()
  ret void
}

!llvm.module.flags = !{!0}
!0 = !{i32 7, !"openmp-device", i32 51}
