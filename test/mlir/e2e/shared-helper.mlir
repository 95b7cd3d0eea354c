// A helper that host code and a target region both call: the pipeline marks
// it declare target any (not nohost), the host keeps its body and the device
// gets a copy, so the host call and the kernel both compute with it, on the
// CPU device and in the host fallback.
// REQUIRES: our-libomptarget
// RUN: %mlir-offload-opt --omp-offload-mark-declare-target %s | FileCheck %s --check-prefix=MARK
// RUN: %mlir-offload -fopenmp-targets=%target-cpu -O2 -c %s -o %t.o
// RUN: %clang -fopenmp -fopenmp-targets=%target-cpu %S/Inputs/shared-helper-main.c %t.o -o %t
// RUN: env OMP_TARGET_OFFLOAD=mandatory LIBOMPTARGET_INFO=16 %ours-run %t 2>&1 | FileCheck %s
// RUN: env OMP_TARGET_OFFLOAD=disabled %ours-run %t | FileCheck %s --check-prefix=HOST

// MARK-LABEL: llvm.func @square_plus
// MARK-SAME: device_type = (any)
// MARK-LABEL: llvm.func @on_host
// MARK-NOT: omp.declare_target
// CHECK: Launching kernel __omp_offloading_{{.*}}_on_device_l
// CHECK: devices=4 host=26 device=38
// HOST: devices=0 host=26 device=38

module {
  // x * x + k
  llvm.func @square_plus(%x: i32, %k: i32) -> i32 {
    %m = llvm.mul %x, %x : i32
    %r = llvm.add %m, %k : i32
    llvm.return %r : i32
  }

  // Host code: calls the helper directly.
  llvm.func @on_host(%x: i32) -> i32 {
    %one = llvm.mlir.constant(1 : i32) : i32
    %r = llvm.call @square_plus(%x, %one) : (i32, i32) -> i32
    llvm.return %r : i32
  }

  // *out = square_plus(x, 2), in a target region.
  llvm.func @on_device(%x: i32, %out: !llvm.ptr) {
    %c1 = llvm.mlir.constant(1 : i64) : i64
    %xslot = llvm.alloca %c1 x i32 : (i64) -> !llvm.ptr
    llvm.store %x, %xslot : i32, !llvm.ptr
    %mo = omp.map.info var_ptr(%out : !llvm.ptr, i32) map_clauses(tofrom) capture(ByRef) -> !llvm.ptr {name = "out"}
    %mx = omp.map.info var_ptr(%xslot : !llvm.ptr, i32) map_clauses(implicit) capture(ByCopy) -> !llvm.ptr {name = "x"}
    omp.target map_entries(%mo -> %o, %mx -> %xa : !llvm.ptr, !llvm.ptr) {
      %two = llvm.mlir.constant(2 : i32) : i32
      %xv = llvm.load %xa : !llvm.ptr -> i32
      %r = llvm.call @square_plus(%xv, %two) : (i32, i32) -> i32
      llvm.store %r, %o : i32, !llvm.ptr
      omp.terminator
    }
    llvm.return
  }
}
