; Targets whose function pointers live in another address space get casts
; around the lookup, which takes and returns generic pointers.
; RUN: %opt-indirect -passes=offload-indirect-calls -S %s | FileCheck %s
; REQUIRES: indirect-plugin

target datalayout = "P1"

; CHECK-LABEL: define i32 @call_as1(
; CHECK-NEXT:    %[[G:.+]] = addrspacecast ptr addrspace(1) %fn to ptr
; CHECK-NEXT:    %[[D:.+]] = call addrspace(1) ptr @__llvm_omp_indirect_call_lookup(ptr %[[G]])
; CHECK-NEXT:    %[[B:.+]] = addrspacecast ptr %[[D]] to ptr addrspace(1)
; CHECK-NEXT:    %r = call addrspace(1) i32 %[[B]]()
define i32 @call_as1(ptr addrspace(1) %fn) addrspace(1) {
  %r = call addrspace(1) i32 %fn()
  ret i32 %r
}

!llvm.module.flags = !{!0}
!0 = !{i32 7, !"openmp-device", i32 51}
