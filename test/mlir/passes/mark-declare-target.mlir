// omp-offload-mark-declare-target: the functions reached from target regions
// and declare-target functions become declare target (seed rules).
// RUN: %mlir-offload-opt --omp-offload-mark-declare-target --split-input-file --verify-diagnostics %s | FileCheck %s

// Called from a target region only: nohost, transitively.
// CHECK-LABEL: func.func @leaf
// CHECK-SAME: omp.declare_target = #omp.declaretarget<device_type = (nohost), capture_clause = (to)
// CHECK-LABEL: func.func @middle
// CHECK-SAME: omp.declare_target = #omp.declaretarget<device_type = (nohost), capture_clause = (to)
// Called from the target region and from host code: any, as both sides run
// it, and so is what it calls.
// CHECK-LABEL: llvm.func @llvm_leaf
// CHECK-SAME: omp.declare_target = #omp.declaretarget<device_type = (any), capture_clause = (to)
// CHECK-LABEL: llvm.func @llvm_callee
// CHECK-SAME: omp.declare_target = #omp.declaretarget<device_type = (any), capture_clause = (to)
// Called from the target region and from a host function that host code
// calls: any as well.
// CHECK-LABEL: func.func @shared_deep
// CHECK-SAME: omp.declare_target = #omp.declaretarget<device_type = (any), capture_clause = (to)
// CHECK-LABEL: func.func @host_helper
// CHECK-NOT: omp.declare_target
// CHECK-SAME: {
// The function holding the target region is not marked.
// CHECK-LABEL: func.func @host_fn
// CHECK-NOT: omp.declare_target
// CHECK: omp.target
// Not called from device code.
// CHECK-LABEL: func.func @unrelated
// CHECK-NOT: omp.declare_target
module {
  func.func @leaf(%x: i32) -> i32 {
    return %x : i32
  }
  func.func @middle(%x: i32) -> i32 {
    %r = call @leaf(%x) : (i32) -> i32
    return %r : i32
  }
  llvm.func @llvm_leaf() {
    llvm.return
  }
  llvm.func @llvm_callee() {
    llvm.call @llvm_leaf() : () -> ()
    llvm.return
  }
  func.func @shared_deep() {
    return
  }
  func.func @host_helper() {
    call @shared_deep() : () -> ()
    return
  }
  func.func @host_fn() {
    llvm.call @llvm_callee() : () -> ()
    omp.target {
      %c = arith.constant 1 : i32
      %r = func.call @middle(%c) : (i32) -> i32
      llvm.call @llvm_callee() : () -> ()
      func.call @shared_deep() : () -> ()
      omp.terminator
    }
    return
  }
  func.func @unrelated() {
    return
  }
}

// -----

// A declare-target function passes its device type and capture clause on;
// a function reached with host and with nohost becomes any, and so do its
// callees.
// CHECK-LABEL: func.func @host_api
// CHECK-SAME: device_type = (host), capture_clause = (enter)
// CHECK-LABEL: func.func @host_only_callee
// CHECK-SAME: device_type = (host), capture_clause = (enter)
// CHECK-LABEL: func.func @shared
// CHECK-SAME: device_type = (any)
// CHECK-LABEL: func.func @shared_callee
// CHECK-SAME: device_type = (any)
// CHECK-LABEL: func.func @device_api
// CHECK-SAME: device_type = (nohost), capture_clause = (enter)
// CHECK-LABEL: func.func @device_callee
// CHECK-SAME: device_type = (nohost), capture_clause = (enter)
// CHECK-LABEL: func.func @kernel_host
module {
  func.func @host_api() attributes {omp.declare_target = #omp.declaretarget<device_type = (host), capture_clause = (enter)>} {
    call @host_only_callee() : () -> ()
    call @shared() : () -> ()
    return
  }
  func.func @host_only_callee() {
    return
  }
  func.func @shared() {
    call @shared_callee() : () -> ()
    return
  }
  func.func @shared_callee() {
    return
  }
  func.func @device_api() attributes {omp.declare_target = #omp.declaretarget<device_type = (nohost), capture_clause = (enter)>} {
    call @device_callee() : () -> ()
    return
  }
  func.func @device_callee() {
    return
  }
  func.func @kernel_host() {
    omp.target {
      func.call @shared() : () -> ()
      omp.terminator
    }
    return
  }
}

// -----

// A function already marked with another device type becomes any; recursion
// terminates. An explicitly nohost function that only device code calls stays
// nohost.
// CHECK-LABEL: func.func @recursive
// CHECK-SAME: device_type = (nohost)
// CHECK-LABEL: func.func @marked_host
// CHECK-SAME: device_type = (any), capture_clause = (to)
module {
  func.func @recursive(%n: i32) {
    call @recursive(%n) : (i32) -> ()
    call @marked_host() : () -> ()
    return
  }
  func.func @marked_host() attributes {omp.declare_target = #omp.declaretarget<device_type = (host), capture_clause = (to)>} {
    return
  }
  func.func @k() {
    omp.target {
      %c = arith.constant 0 : i32
      func.call @recursive(%c) : (i32) -> ()
      omp.terminator
    }
    return
  }
}

// -----

// Calls through function values in device code are diagnosed, not guessed:
// the function whose address is taken stays unmarked.
// CHECK-LABEL: func.func @maybe_called
// CHECK-NOT: omp.declare_target
// CHECK-SAME: {
module {
  func.func @maybe_called() {
    return
  }
  func.func @k() {
    omp.target {
      %f = func.constant @maybe_called : () -> ()
      // expected-warning @+1 {{indirect call in device code}}
      func.call_indirect %f() : () -> ()
      omp.terminator
    }
    return
  }
  // Indirect calls in host code are not device code.
  func.func @host_indirect(%f: () -> ()) {
    func.call_indirect %f() : () -> ()
    return
  }
}
