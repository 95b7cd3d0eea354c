// A worksharing loop in a target region (omp.parallel + omp.wsloop), in the
// LLVM dialect, calling the OpenMP API on the device, run on the CPU
// device from C.
// REQUIRES: our-libomptarget
// RUN: rm -rf %t && mkdir -p %t
// RUN: %mlir-offload -fopenmp-targets=%target-cpu -O2 -c %s -o %t/kernel.o
// RUN: %clang -fopenmp -fopenmp-targets=%target-cpu %S/Inputs/fill-main.c %t/kernel.o -o %t/prog
// RUN: env OMP_TARGET_OFFLOAD=mandatory %ours-run %t/prog | FileCheck %s
// CHECK: fill: bad=0 threads>1: yes

module {
  llvm.func @fill(%p: !llvm.ptr, %n: i32, %threads: !llvm.ptr) {
    %c1 = llvm.mlir.constant(1 : i64) : i64
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %n64 = llvm.sext %n : i32 to i64
    %ub = llvm.sub %n64, %c1 : i64
    %nslot = llvm.alloca %c1 x i32 : (i64) -> !llvm.ptr
    llvm.store %n, %nslot : i32, !llvm.ptr
    %b = omp.map.bounds lower_bound(%c0 : i64) upper_bound(%ub : i64) extent(%n64 : i64) stride(%c1 : i64) start_idx(%c0 : i64)
    %mp = omp.map.info var_ptr(%p : !llvm.ptr, i32) map_clauses(from) capture(ByRef) bounds(%b) -> !llvm.ptr {name = "p"}
    %mn = omp.map.info var_ptr(%nslot : !llvm.ptr, i32) map_clauses(to) capture(ByRef) -> !llvm.ptr {name = "n"}
    %mt = omp.map.info var_ptr(%threads : !llvm.ptr, i32) map_clauses(from) capture(ByRef) -> !llvm.ptr {name = "threads"}
    omp.target map_entries(%mp -> %a, %mn -> %an, %mt -> %at : !llvm.ptr, !llvm.ptr, !llvm.ptr) {
      %cnt = llvm.load %an : !llvm.ptr -> i32
      %zero = llvm.mlir.constant(0 : i32) : i32
      %one = llvm.mlir.constant(1 : i32) : i32
      omp.parallel {
        %nt = llvm.call @omp_get_num_threads() : () -> i32
        llvm.store %nt, %at : i32, !llvm.ptr
        omp.wsloop {
          omp.loop_nest (%i) : i32 = (%zero) to (%cnt) step (%one) {
            %i64 = llvm.sext %i : i32 to i64
            %q = llvm.getelementptr %a[%i64] : (!llvm.ptr, i64) -> !llvm.ptr, i32
            %v = llvm.mul %i, %i : i32
            llvm.store %v, %q : i32, !llvm.ptr
            omp.yield
          }
        }
        omp.terminator
      }
      omp.terminator
    }
    llvm.return
  }
  llvm.func @omp_get_num_threads() -> i32
}
