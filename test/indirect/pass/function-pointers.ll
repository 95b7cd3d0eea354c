; Calls through function pointers in device code are routed through the
; lookup; calls that can only reach device functions are not.
; RUN: %opt-indirect -passes=offload-indirect-calls -S %s | FileCheck %s
; The pass recognises its own output: a second run changes nothing.
; RUN: %opt-indirect -passes=offload-indirect-calls -S %s -o %t.once.ll
; RUN: %opt-indirect -passes=offload-indirect-calls -S %t.once.ll \
; RUN:   | grep -v ModuleID > %t.twice.ll
; RUN: grep -v ModuleID %t.once.ll | diff - %t.twice.ll
; REQUIRES: indirect-plugin

%struct.Ops = type { ptr, ptr }

@table = global [2 x ptr] zeroinitializer

declare i32 @square(i32)
declare i32 @negate(i32)
declare void @sink(i32)
declare i32 @__gxx_personality_v0(...)

; CHECK-LABEL: define i32 @through_argument(
; CHECK-NEXT:    %[[DEV:.+]] = call ptr @__llvm_omp_indirect_call_lookup(ptr %fn)
; CHECK-NEXT:    %r = call i32 %[[DEV]](i32 %x)
define i32 @through_argument(ptr %fn, i32 %x) {
  %r = call i32 %fn(i32 %x)
  ret i32 %r
}

; An array of function pointers, read in a loop.
; CHECK-LABEL: define i32 @through_array(
; CHECK:         %fn = load ptr, ptr %slot
; CHECK-NEXT:    %[[DEV:.+]] = call ptr @__llvm_omp_indirect_call_lookup(ptr %fn)
; CHECK-NEXT:    %v = call i32 %[[DEV]](i32 %i)
define i32 @through_array(i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi i32 [ 0, %entry ], [ %acc.next, %loop ]
  %idx = and i32 %i, 1
  %slot = getelementptr [2 x ptr], ptr @table, i32 0, i32 %idx
  %fn = load ptr, ptr %slot
  %v = call i32 %fn(i32 %i)
  %acc.next = add i32 %acc, %v
  %i.next = add i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret i32 %acc.next
}

; A struct member holding a pointer, called with invoke.
; CHECK-LABEL: define i32 @through_member(
; CHECK:         %fn = load ptr, ptr %field
; CHECK-NEXT:    %[[DEV:.+]] = call ptr @__llvm_omp_indirect_call_lookup(ptr %fn)
; CHECK-NEXT:    %r = invoke i32 %[[DEV]](i32 1)
define i32 @through_member(ptr %ops) personality ptr @__gxx_personality_v0 {
entry:
  %field = getelementptr %struct.Ops, ptr %ops, i32 0, i32 1
  %fn = load ptr, ptr %field
  %r = invoke i32 %fn(i32 1) to label %ok unwind label %bad
ok:
  ret i32 %r
bad:
  %lp = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %lp
}

; Provably direct: a direct call, a select or a phi of device functions, and
; inline assembly are left alone.
; CHECK-LABEL: define i32 @provably_direct(
; CHECK-NOT:     __llvm_omp_indirect_call_lookup
; CHECK:         ret i32
define i32 @provably_direct(i1 %c, i32 %x) {
entry:
  %a = call i32 @square(i32 %x)
  %sel = select i1 %c, ptr @square, ptr @negate
  %b = call i32 %sel(i32 %a)
  br i1 %c, label %left, label %right
left:
  br label %join
right:
  br label %join
join:
  %phi = phi ptr [ @square, %left ], [ @negate, %right ]
  %d = call i32 %phi(i32 %b)
  call void asm sideeffect "nop", ""()
  ret i32 %d
}

; A select between a device function and an unknown pointer is translated.
; CHECK-LABEL: define i32 @maybe_host(
; CHECK:         %[[DEV:.+]] = call ptr @__llvm_omp_indirect_call_lookup(ptr %sel)
; CHECK-NEXT:    call i32 %[[DEV]](i32 %x)
define i32 @maybe_host(i1 %c, ptr %fn, i32 %x) {
  %sel = select i1 %c, ptr @square, ptr %fn
  %r = call i32 %sel(i32 %x)
  ret i32 %r
}

; Code that already translates its pointer is left as it is.
; CHECK-LABEL: define i32 @already_translated(
; CHECK-NEXT:    %dev = call ptr @__kmpc_target_translate_fptr(ptr %fn)
; CHECK-NEXT:    %r = call i32 %dev(i32 %x)
define i32 @already_translated(ptr %fn, i32 %x) {
  %dev = call ptr @__kmpc_target_translate_fptr(ptr %fn)
  %r = call i32 %dev(i32 %x)
  ret i32 %r
}
declare ptr @__kmpc_target_translate_fptr(ptr)

; The device runtime's own entry points are not rewritten.
; CHECK-LABEL: define void @__kmpc_invoke_something(
; CHECK-NEXT:    call void %fn()
define void @__kmpc_invoke_something(ptr %fn) {
  call void %fn()
  ret void
}

; The lookup is declared once, as a function that only reads memory.
; CHECK: declare ptr @__llvm_omp_indirect_call_lookup(ptr) #[[ATTRS:[0-9]+]]
; CHECK: attributes #[[ATTRS]] = { nofree nosync nounwind willreturn memory(read) }

!llvm.module.flags = !{!0}
!0 = !{i32 7, !"openmp-device", i32 51}
