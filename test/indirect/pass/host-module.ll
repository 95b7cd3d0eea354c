; Host code (no `openmp-device` module flag) is left alone, so the plugin
; can be loaded for every compilation; `<force>` rewrites it anyway.
; RUN: %opt-indirect -passes=offload-indirect-calls -S %s | FileCheck %s --check-prefix=HOST
; RUN: %opt-indirect -passes='offload-indirect-calls<force>' -S %s | FileCheck %s --check-prefix=FORCE
; REQUIRES: indirect-plugin

; HOST-NOT: __llvm_omp_indirect_call_lookup
; FORCE: %[[DEV:.+]] = call ptr @__llvm_omp_indirect_call_lookup(ptr %fn)
; FORCE-NEXT: call void %[[DEV]]()
define void @host_call(ptr %fn) {
  call void %fn()
  ret void
}
