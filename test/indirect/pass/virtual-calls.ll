; Virtual calls: the vtable pointer read from the object is translated once
; (so a host object reads the device copy of a registered vtable) and the
; loaded slot is translated like any function pointer.
; RUN: %opt-indirect -passes=offload-indirect-calls -S %s | FileCheck %s
; RUN: %opt-indirect -passes='offload-indirect-calls<no-vtables>' -S %s \
; RUN:   | FileCheck %s --check-prefix=NOVT
; REQUIRES: indirect-plugin

; Two virtual calls on the same object share one vtable load.
; CHECK-LABEL: define i32 @two_virtual_calls(
; CHECK-NEXT:    %vtable = load ptr, ptr %obj
; CHECK-NEXT:    %[[VT:.+]] = call ptr @__llvm_omp_indirect_call_lookup(ptr %vtable)
; CHECK-NEXT:    %slot1 = getelementptr inbounds ptr, ptr %[[VT]], i64 1
; CHECK-NEXT:    %fn0 = load ptr, ptr %[[VT]]
; CHECK-NEXT:    %[[F0:.+]] = call ptr @__llvm_omp_indirect_call_lookup(ptr %fn0)
; CHECK-NEXT:    %a = call i32 %[[F0]](ptr %obj, i32 1)
; CHECK-NEXT:    %fn1 = load ptr, ptr %slot1
; CHECK-NEXT:    %[[F1:.+]] = call ptr @__llvm_omp_indirect_call_lookup(ptr %fn1)
; CHECK-NEXT:    %b = call i32 %[[F1]](ptr %obj, i32 %a)
; CHECK-NEXT:    ret i32 %b
; NOVT-LABEL: define i32 @two_virtual_calls(
; NOVT-NEXT:     %vtable = load ptr, ptr %obj
; NOVT-NEXT:     %slot1 = getelementptr inbounds ptr, ptr %vtable, i64 1
define i32 @two_virtual_calls(ptr %obj) {
  %vtable = load ptr, ptr %obj
  %slot1 = getelementptr inbounds ptr, ptr %vtable, i64 1
  %fn0 = load ptr, ptr %vtable
  %a = call i32 %fn0(ptr %obj, i32 1)
  %fn1 = load ptr, ptr %slot1
  %b = call i32 %fn1(ptr %obj, i32 %a)
  ret i32 %b
}

; The vtable comparison of a devirtualisation guard keeps the object's
; value; only slot addressing uses the translated vtable.
; CHECK-LABEL: define i1 @vtable_compare(
; CHECK:         %is = icmp eq ptr %vtable, @some_vtable
define i1 @vtable_compare(ptr %obj) {
  %vtable = load ptr, ptr %obj
  %is = icmp eq ptr %vtable, @some_vtable
  %fn = load ptr, ptr %vtable
  %r = call i32 %fn(ptr %obj, i32 0)
  ret i1 %is
}
@some_vtable = external constant ptr

; A pointer to member function: virtual (slot at a variable offset) or not
; (the pointer itself); the phi of both is translated at the call.
; CHECK-LABEL: define i32 @member_pointer(
; CHECK:       virtual:
; CHECK-NEXT:    %vtable = load ptr, ptr %this
; CHECK-NEXT:    %[[VT:.+]] = call ptr @__llvm_omp_indirect_call_lookup(ptr %vtable)
; CHECK:         %slot = getelementptr i8, ptr %[[VT]], i64 %offset
; CHECK:       call:
; CHECK-NEXT:    %callee = phi ptr [ %vfn, %virtual ], [ %nvfn, %nonvirtual ]
; CHECK-NEXT:    %[[F:.+]] = call ptr @__llvm_omp_indirect_call_lookup(ptr %callee)
; CHECK-NEXT:    %r = call i32 %[[F]](ptr %this, i32 3)
define i32 @member_pointer(ptr %obj, i64 %ptr, i64 %adj) {
entry:
  %this = getelementptr inbounds i8, ptr %obj, i64 %adj
  %bit = and i64 %ptr, 1
  %isvirt = icmp ne i64 %bit, 0
  br i1 %isvirt, label %virtual, label %nonvirtual
virtual:
  %vtable = load ptr, ptr %this
  %offset = add i64 %ptr, -1
  %slot = getelementptr i8, ptr %vtable, i64 %offset
  %vfn = load ptr, ptr %slot
  br label %call
nonvirtual:
  %nvfn = inttoptr i64 %ptr to ptr
  br label %call
call:
  %callee = phi ptr [ %vfn, %virtual ], [ %nvfn, %nonvirtual ]
  %r = call i32 %callee(ptr %this, i32 3)
  ret i32 %r
}

; A function pointer loaded through a pointer that is not the callee's
; object is not a vtable: only the callee is translated.
; CHECK-LABEL: define i32 @pointer_to_table(
; CHECK-NEXT:    %tbl = load ptr, ptr %holder
; CHECK-NEXT:    %fn = load ptr, ptr %tbl
; CHECK-NEXT:    %[[F:.+]] = call ptr @__llvm_omp_indirect_call_lookup(ptr %fn)
define i32 @pointer_to_table(ptr %holder, ptr %other) {
  %tbl = load ptr, ptr %holder
  %fn = load ptr, ptr %tbl
  %r = call i32 %fn(ptr %other)
  ret i32 %r
}

!llvm.module.flags = !{!0}
!0 = !{i32 7, !"openmp-device", i32 51}
