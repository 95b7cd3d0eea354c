// omp-offload-filter-functions: what a device module and a host module keep.
// RUN: %mlir-offload-opt --omp-offload-mark-declare-target --omp-offload-filter-functions --split-input-file %s | FileCheck %s

// A device module keeps the target regions and what they call. The host
// function holding the target region stays for the outlining, marked host
// (the translation drops it afterwards); a host function it still calls is
// reduced to a declaration; other host functions go.
// CHECK-LABEL: module attributes {omp.is_target_device = true}
// CHECK: func.func @helper
// CHECK-SAME: device_type = (nohost)
// CHECK-NEXT: arith.muli
// CHECK: func.func @nohost_fn
// CHECK-SAME: device_type = (nohost)
// CHECK-NEXT: arith.addi
// CHECK: func.func private @host_util()
// CHECK-SAME: device_type = (host)
// CHECK: func.func @run
// CHECK-SAME: device_type = (host)
// CHECK: call @host_util()
// CHECK: omp.target
// CHECK: call @helper
// CHECK-NOT: @host_only
// CHECK-NOT: @host_api
// CHECK: llvm.func @any_fn
// CHECK-SAME: device_type = (any)
// CHECK-NOT: func.func
module attributes {omp.is_target_device = true} {
  func.func @helper(%x: i32) -> i32 {
    %r = arith.muli %x, %x : i32
    %s = func.call @nohost_fn(%r) : (i32) -> i32
    return %s : i32
  }
  func.func @nohost_fn(%x: i32) -> i32 attributes {omp.declare_target = #omp.declaretarget<device_type = (nohost), capture_clause = (to)>} {
    %r = arith.addi %x, %x : i32
    return %r : i32
  }
  func.func @host_util() {
    return
  }
  func.func @host_only() {
    call @host_util() : () -> ()
    return
  }
  func.func @host_api() attributes {omp.declare_target = #omp.declaretarget<device_type = (host), capture_clause = (to)>} {
    return
  }
  func.func @run() {
    call @host_util() : () -> ()
    omp.target {
      %c = arith.constant 3 : i32
      %r = func.call @helper(%c) : (i32) -> i32
      omp.terminator
    }
    return
  }
  llvm.func @any_fn() attributes {omp.declare_target = #omp.declaretarget<device_type = (any), capture_clause = (to)>} {
    llvm.return
  }
}

// -----

// A host module keeps everything with its body, nohost functions too (as
// Flang's filtering does): the host fallback of a target region calls them.
// Target regions stay.
// CHECK-LABEL: module attributes {omp.is_target_device = false}
// CHECK: func.func @nohost_fn(%{{.*}}: i32) -> i32
// CHECK-SAME: device_type = (nohost)
// CHECK-NEXT: arith.addi
// CHECK: llvm.func @nohost_llvm
// CHECK-NEXT: llvm.return
// CHECK: func.func @helper
// CHECK-NEXT: arith.muli
// CHECK: func.func @run
// CHECK-NOT: omp.declare_target
// CHECK: omp.target
module attributes {omp.is_target_device = false} {
  func.func @nohost_fn(%x: i32) -> i32 attributes {omp.declare_target = #omp.declaretarget<device_type = (nohost), capture_clause = (to)>} {
    %r = arith.addi %x, %x : i32
    return %r : i32
  }
  llvm.func @nohost_llvm() attributes {omp.declare_target = #omp.declaretarget<device_type = (nohost), capture_clause = (to)>} {
    llvm.return
  }
  func.func @helper(%x: i32) -> i32 {
    %r = arith.muli %x, %x : i32
    return %r : i32
  }
  func.func @run() {
    %c = arith.constant 3 : i32
    %h = call @helper(%c) : (i32) -> i32
    omp.target {
      %k = arith.constant 4 : i32
      %r = func.call @nohost_fn(%k) : (i32) -> i32
      llvm.call @nohost_llvm() : () -> ()
      omp.terminator
    }
    return
  }
}
