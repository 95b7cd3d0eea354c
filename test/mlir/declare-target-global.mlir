// A declare-target global variable (llvm.mlir.global with omp.declare_target,
// capture_clause(to)): kernels update the device copy, which persists across
// kernels; the host copy is separate.
// REQUIRES: our-libomptarget
// RUN: rm -rf %t && mkdir -p %t
// RUN: %mlir-offload -fopenmp-targets=%target-cpu -c %s -o %t/kernel.o
// RUN: %prefix/bin/llvm-offload-entries %t/kernel.o | FileCheck %s --check-prefix=ENTRIES
// RUN: %clang -fopenmp -fopenmp-targets=%target-cpu %S/Inputs/counter-main.c %t/kernel.o -o %t/prog
// RUN: env OMP_TARGET_OFFLOAD=mandatory %ours-run %t/prog | FileCheck %s
// ENTRIES-DAG: global counter
// ENTRIES-DAG: kernel __omp_offloading_{{.*}}_bump_l
// ENTRIES-DAG: kernel __omp_offloading_{{.*}}_read_counter_l
// CHECK: device=10 host=0

module {
  llvm.mlir.global external @counter(0 : i32) {addr_space = 0 : i32, omp.declare_target = #omp.declaretarget<device_type = (any), capture_clause = (to)>} : i32
  llvm.func @bump() {
    omp.target {
      %g = llvm.mlir.addressof @counter : !llvm.ptr
      %v = llvm.load %g : !llvm.ptr -> i32
      %c = llvm.mlir.constant(5 : i32) : i32
      %w = llvm.add %v, %c : i32
      llvm.store %w, %g : i32, !llvm.ptr
      omp.terminator
    }
    llvm.return
  }
  llvm.func @read_counter(%out: !llvm.ptr) {
    %m = omp.map.info var_ptr(%out : !llvm.ptr, i32) map_clauses(from) capture(ByRef) -> !llvm.ptr {name = "out"}
    omp.target map_entries(%m -> %o : !llvm.ptr) {
      %g = llvm.mlir.addressof @counter : !llvm.ptr
      %v = llvm.load %g : !llvm.ptr -> i32
      llvm.store %v, %o : i32, !llvm.ptr
      omp.terminator
    }
    llvm.return
  }
}
