// A module in the LLVM dialect, as a frontend emits it: an omp.target region
// maps a pointer with omp.map.info (and a scalar by copy). mlir-offload
// compiles it for the CPU device into a fat object, which a C program links
// through the clang shim and runs on the device.
// REQUIRES: our-libomptarget
// RUN: %mlir-offload -fopenmp-targets=%target-cpu -O2 -c %s -o %t.o
// RUN: llvm-objdump --offloading %t.o | FileCheck %s --check-prefix=IMAGE
// RUN: llvm-readelf -S %t.o | FileCheck %s --check-prefix=SECTIONS
// RUN: %clang -fopenmp -fopenmp-targets=%target-cpu %S/Inputs/scale-main.c %t.o -o %t
// RUN: env OMP_TARGET_OFFLOAD=mandatory %ours-run %t | FileCheck %s
// RUN: env OMP_TARGET_OFFLOAD=disabled %ours-run %t | FileCheck %s --check-prefix=HOST
// The program runs on Debian's libomptarget too (cross-runtime).
// RUN: env OMP_TARGET_OFFLOAD=mandatory %upstream-run %t | FileCheck %s

// IMAGE: OFFLOADING IMAGE [0]:
// IMAGE-NEXT: kind elf
// IMAGE-NEXT: arch generic
// IMAGE-NEXT: triple x86_64-pc-linux-gnu
// IMAGE-NEXT: producer openmp
// SECTIONS-DAG: .llvm.offloading
// SECTIONS-DAG: llvm_offload_entries
// CHECK: devices=4 bad=0 v[99]=198
// HOST: devices=0 bad=0 v[99]=198

module {
  llvm.func @scale(%p: !llvm.ptr, %n: i32) {
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %c1 = llvm.mlir.constant(1 : i64) : i64
    %n64 = llvm.sext %n : i32 to i64
    %ub = llvm.sub %n64, %c1 : i64
    %nslot = llvm.alloca %c1 x i32 : (i64) -> !llvm.ptr
    llvm.store %n, %nslot : i32, !llvm.ptr
    %bounds = omp.map.bounds lower_bound(%c0 : i64) upper_bound(%ub : i64) extent(%n64 : i64) stride(%c1 : i64) start_idx(%c0 : i64)
    %mp = omp.map.info var_ptr(%p : !llvm.ptr, i32) map_clauses(tofrom) capture(ByRef) bounds(%bounds) -> !llvm.ptr {name = "p"}
    %mn = omp.map.info var_ptr(%nslot : !llvm.ptr, i32) map_clauses(implicit) capture(ByCopy) -> !llvm.ptr {name = "n"}
    omp.target map_entries(%mp -> %a, %mn -> %an : !llvm.ptr, !llvm.ptr) {
      %zero = llvm.mlir.constant(0 : i64) : i64
      %one = llvm.mlir.constant(1 : i64) : i64
      %two = llvm.mlir.constant(2 : i32) : i32
      %count = llvm.load %an : !llvm.ptr -> i32
      %count64 = llvm.sext %count : i32 to i64
      llvm.br ^loop(%zero : i64)
    ^loop(%i: i64):
      %more = llvm.icmp "slt" %i, %count64 : i64
      llvm.cond_br %more, ^body, ^done
    ^body:
      %q = llvm.getelementptr %a[%i] : (!llvm.ptr, i64) -> !llvm.ptr, i32
      %v = llvm.load %q : !llvm.ptr -> i32
      %w = llvm.mul %v, %two : i32
      llvm.store %w, %q : i32, !llvm.ptr
      %next = llvm.add %i, %one : i64
      llvm.br ^loop(%next : i64)
    ^done:
      omp.terminator
    }
    llvm.return
  }
}
