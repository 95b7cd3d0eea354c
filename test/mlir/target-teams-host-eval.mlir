// A combined construct with host_eval (target teams distribute parallel do,
// as Flang lowers it for the host): the loop bounds the host evaluates for
// the launch become by-copy kernel arguments, read by the device region.
// The module is Flang's for
//   subroutine vadd(a, b, n): b(1:n) = b(1:n) + a(1:n) on the device.
// REQUIRES: our-libomptarget
// RUN: rm -rf %t && mkdir -p %t
// RUN: %mlir-offload -fopenmp-targets=%target-cpu -O2 -c %s -o %t/kernel.o
// RUN: %clang -fopenmp -fopenmp-targets=%target-cpu %S/Inputs/vadd-main.c %t/kernel.o -o %t/prog
// RUN: env OMP_TARGET_OFFLOAD=mandatory LIBOMPTARGET_INFO=16 %ours-run %t/prog 2>&1 | FileCheck %s
// CHECK: Launching kernel __omp_offloading_{{.*}}_vadd__l
// CHECK: vadd: bad=0 b[999]=1000

module attributes {dlti.dl_spec = #dlti.dl_spec<!llvm.ptr<270> = dense<32> : vector<4xi64>, !llvm.ptr<271> = dense<32> : vector<4xi64>, !llvm.ptr<272> = dense<64> : vector<4xi64>, i64 = dense<64> : vector<2xi64>, i128 = dense<128> : vector<2xi64>, f80 = dense<128> : vector<2xi64>, !llvm.ptr = dense<64> : vector<4xi64>, i1 = dense<8> : vector<2xi64>, i8 = dense<8> : vector<2xi64>, i16 = dense<16> : vector<2xi64>, i32 = dense<32> : vector<2xi64>, f16 = dense<16> : vector<2xi64>, f64 = dense<64> : vector<2xi64>, f128 = dense<128> : vector<2xi64>, "dlti.endianness" = "little", "dlti.mangling_mode" = "e", "dlti.legal_int_widths" = array<i32: 8, 16, 32, 64>, "dlti.stack_alignment" = 128 : i64>, fir.defaultkind = "a1c4d8i4l4r4", fir.kindmap = "", llvm.data_layout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128", llvm.ident = "Debian flang version 22.1.8", llvm.target_triple = "x86_64-pc-linux-gnu", omp.is_gpu = false, omp.is_target_device = false, omp.requires = #omp<clause_requires none>, omp.target_triples = ["x86_64-pc-linux-gnu"], omp.version = #omp.version<version = 31>} {
  omp.private {type = private} @_QFvaddEi_private_i32 : i32
  llvm.func @vadd_(%arg0: !llvm.ptr {fir.bindc_name = "a", llvm.noalias}, %arg1: !llvm.ptr {fir.bindc_name = "b", llvm.noalias}, %arg2: !llvm.ptr {fir.bindc_name = "n", llvm.noalias}) attributes {fir.internal_name = "_QPvadd"} {
    %0 = llvm.mlir.constant(1 : i32) : i32
    %1 = llvm.alloca %0 x !llvm.struct<(ptr, i64, i32, i8, i8, i8, i8, array<1 x array<3 x i64>>)> {alignment = 8 : i64} : (i32) -> !llvm.ptr
    %2 = llvm.mlir.constant(1 : i32) : i32
    %3 = llvm.alloca %2 x !llvm.struct<(ptr, i64, i32, i8, i8, i8, i8, array<1 x array<3 x i64>>)> {alignment = 8 : i64} : (i32) -> !llvm.ptr
    %4 = llvm.mlir.constant(1 : i64) : i64
    %5 = llvm.alloca %4 x i32 {bindc_name = "i"} : (i64) -> !llvm.ptr
    %6 = llvm.mlir.constant(1 : i64) : i64
    %7 = llvm.alloca %6 x i32 : (i64) -> !llvm.ptr
    %8 = llvm.mlir.constant(1 : i64) : i64
    %9 = llvm.alloca %8 x i32 : (i64) -> !llvm.ptr
    %10 = llvm.mlir.constant(1 : index) : i64
    %11 = llvm.mlir.constant(1 : i32) : i32
    %12 = llvm.mlir.constant(0 : index) : i64
    %13 = llvm.mlir.constant(1 : i64) : i64
    %14 = llvm.mlir.constant(1 : i64) : i64
    %15 = llvm.mlir.constant(1 : i64) : i64
    %16 = llvm.load %arg2 : !llvm.ptr -> i32
    llvm.store %16, %9 : i32, !llvm.ptr
    %17 = llvm.sext %16 : i32 to i64
    %18 = llvm.icmp "sgt" %17, %12 : i64
    %19 = llvm.select %18, %17, %12 : i1, i64
    %20 = llvm.mlir.constant(9 : i32) : i32
    %21 = llvm.mlir.constant(4 : i64) : i64
    %22 = llvm.mlir.undef : !llvm.struct<(ptr, i64, i32, i8, i8, i8, i8, array<1 x array<3 x i64>>)>
    %23 = llvm.insertvalue %21, %22[1] : !llvm.struct<(ptr, i64, i32, i8, i8, i8, i8, array<1 x array<3 x i64>>)> 
    %24 = llvm.mlir.constant(20240719 : i32) : i32
    %25 = llvm.insertvalue %24, %23[2] : !llvm.struct<(ptr, i64, i32, i8, i8, i8, i8, array<1 x array<3 x i64>>)> 
    %26 = llvm.mlir.constant(1 : i32) : i32
    %27 = llvm.trunc %26 : i32 to i8
    %28 = llvm.insertvalue %27, %25[3] : !llvm.struct<(ptr, i64, i32, i8, i8, i8, i8, array<1 x array<3 x i64>>)> 
    %29 = llvm.trunc %20 : i32 to i8
    %30 = llvm.insertvalue %29, %28[4] : !llvm.struct<(ptr, i64, i32, i8, i8, i8, i8, array<1 x array<3 x i64>>)> 
    %31 = llvm.mlir.constant(0 : i32) : i32
    %32 = llvm.trunc %31 : i32 to i8
    %33 = llvm.insertvalue %32, %30[5] : !llvm.struct<(ptr, i64, i32, i8, i8, i8, i8, array<1 x array<3 x i64>>)> 
    %34 = llvm.mlir.constant(0 : i32) : i32
    %35 = llvm.trunc %34 : i32 to i8
    %36 = llvm.insertvalue %35, %33[6] : !llvm.struct<(ptr, i64, i32, i8, i8, i8, i8, array<1 x array<3 x i64>>)> 
    %37 = llvm.mlir.constant(0 : i64) : i64
    %38 = llvm.mlir.constant(1 : i64) : i64
    %39 = llvm.insertvalue %38, %36[7, 0, 0] : !llvm.struct<(ptr, i64, i32, i8, i8, i8, i8, array<1 x array<3 x i64>>)> 
    %40 = llvm.insertvalue %19, %39[7, 0, 1] : !llvm.struct<(ptr, i64, i32, i8, i8, i8, i8, array<1 x array<3 x i64>>)> 
    %41 = llvm.insertvalue %21, %40[7, 0, 2] : !llvm.struct<(ptr, i64, i32, i8, i8, i8, i8, array<1 x array<3 x i64>>)> 
    %42 = llvm.mul %21, %19 : i64
    %43 = llvm.mul %38, %19 : i64
    %44 = llvm.insertvalue %arg0, %41[0] : !llvm.struct<(ptr, i64, i32, i8, i8, i8, i8, array<1 x array<3 x i64>>)> 
    llvm.store %44, %3 : !llvm.struct<(ptr, i64, i32, i8, i8, i8, i8, array<1 x array<3 x i64>>)>, !llvm.ptr
    %45 = llvm.load %arg2 : !llvm.ptr -> i32
    llvm.store %45, %7 : i32, !llvm.ptr
    %46 = llvm.sext %45 : i32 to i64
    %47 = llvm.icmp "sgt" %46, %12 : i64
    %48 = llvm.select %47, %46, %12 : i1, i64
    %49 = llvm.mlir.constant(9 : i32) : i32
    %50 = llvm.mlir.constant(4 : i64) : i64
    %51 = llvm.mlir.undef : !llvm.struct<(ptr, i64, i32, i8, i8, i8, i8, array<1 x array<3 x i64>>)>
    %52 = llvm.insertvalue %50, %51[1] : !llvm.struct<(ptr, i64, i32, i8, i8, i8, i8, array<1 x array<3 x i64>>)> 
    %53 = llvm.mlir.constant(20240719 : i32) : i32
    %54 = llvm.insertvalue %53, %52[2] : !llvm.struct<(ptr, i64, i32, i8, i8, i8, i8, array<1 x array<3 x i64>>)> 
    %55 = llvm.mlir.constant(1 : i32) : i32
    %56 = llvm.trunc %55 : i32 to i8
    %57 = llvm.insertvalue %56, %54[3] : !llvm.struct<(ptr, i64, i32, i8, i8, i8, i8, array<1 x array<3 x i64>>)> 
    %58 = llvm.trunc %49 : i32 to i8
    %59 = llvm.insertvalue %58, %57[4] : !llvm.struct<(ptr, i64, i32, i8, i8, i8, i8, array<1 x array<3 x i64>>)> 
    %60 = llvm.mlir.constant(0 : i32) : i32
    %61 = llvm.trunc %60 : i32 to i8
    %62 = llvm.insertvalue %61, %59[5] : !llvm.struct<(ptr, i64, i32, i8, i8, i8, i8, array<1 x array<3 x i64>>)> 
    %63 = llvm.mlir.constant(0 : i32) : i32
    %64 = llvm.trunc %63 : i32 to i8
    %65 = llvm.insertvalue %64, %62[6] : !llvm.struct<(ptr, i64, i32, i8, i8, i8, i8, array<1 x array<3 x i64>>)> 
    %66 = llvm.mlir.constant(0 : i64) : i64
    %67 = llvm.mlir.constant(1 : i64) : i64
    %68 = llvm.insertvalue %67, %65[7, 0, 0] : !llvm.struct<(ptr, i64, i32, i8, i8, i8, i8, array<1 x array<3 x i64>>)> 
    %69 = llvm.insertvalue %48, %68[7, 0, 1] : !llvm.struct<(ptr, i64, i32, i8, i8, i8, i8, array<1 x array<3 x i64>>)> 
    %70 = llvm.insertvalue %50, %69[7, 0, 2] : !llvm.struct<(ptr, i64, i32, i8, i8, i8, i8, array<1 x array<3 x i64>>)> 
    %71 = llvm.mul %50, %48 : i64
    %72 = llvm.mul %67, %48 : i64
    %73 = llvm.insertvalue %arg1, %70[0] : !llvm.struct<(ptr, i64, i32, i8, i8, i8, i8, array<1 x array<3 x i64>>)> 
    llvm.store %73, %1 : !llvm.struct<(ptr, i64, i32, i8, i8, i8, i8, array<1 x array<3 x i64>>)>, !llvm.ptr
    %74 = llvm.load %arg2 : !llvm.ptr -> i32
    %75 = llvm.getelementptr %3[0, 7, %12, 0] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.struct<(ptr, i64, i32, i8, i8, i8, i8, array<1 x array<3 x i64>>)>
    %76 = llvm.load %75 : !llvm.ptr -> i64
    %77 = llvm.getelementptr %3[0, 7, %12, 1] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.struct<(ptr, i64, i32, i8, i8, i8, i8, array<1 x array<3 x i64>>)>
    %78 = llvm.load %77 : !llvm.ptr -> i64
    %79 = llvm.getelementptr %3[0, 7, %12, 2] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.struct<(ptr, i64, i32, i8, i8, i8, i8, array<1 x array<3 x i64>>)>
    %80 = llvm.load %79 : !llvm.ptr -> i64
    %81 = llvm.sub %78, %10 : i64
    %82 = omp.map.bounds lower_bound(%12 : i64) upper_bound(%81 : i64) extent(%78 : i64) stride(%80 : i64) start_idx(%10 : i64) {stride_in_bytes = true}
    %83 = omp.map.info var_ptr(%arg0 : !llvm.ptr, i32) map_clauses(to) capture(ByRef) bounds(%82) -> !llvm.ptr {name = "a"}
    %84 = llvm.getelementptr %1[0, 7, %12, 0] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.struct<(ptr, i64, i32, i8, i8, i8, i8, array<1 x array<3 x i64>>)>
    %85 = llvm.load %84 : !llvm.ptr -> i64
    %86 = llvm.getelementptr %1[0, 7, %12, 1] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.struct<(ptr, i64, i32, i8, i8, i8, i8, array<1 x array<3 x i64>>)>
    %87 = llvm.load %86 : !llvm.ptr -> i64
    %88 = llvm.getelementptr %1[0, 7, %12, 2] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.struct<(ptr, i64, i32, i8, i8, i8, i8, array<1 x array<3 x i64>>)>
    %89 = llvm.load %88 : !llvm.ptr -> i64
    %90 = llvm.sub %87, %10 : i64
    %91 = omp.map.bounds lower_bound(%12 : i64) upper_bound(%90 : i64) extent(%87 : i64) stride(%89 : i64) start_idx(%10 : i64) {stride_in_bytes = true}
    %92 = omp.map.info var_ptr(%arg1 : !llvm.ptr, i32) map_clauses(tofrom) capture(ByRef) bounds(%91) -> !llvm.ptr {name = "b"}
    %93 = omp.map.info var_ptr(%5 : !llvm.ptr, i32) map_clauses(implicit) capture(ByCopy) -> !llvm.ptr {name = "i"}
    %94 = omp.map.info var_ptr(%arg2 : !llvm.ptr, i32) map_clauses(implicit) capture(ByCopy) -> !llvm.ptr {name = "n"}
    %95 = omp.map.info var_ptr(%7 : !llvm.ptr, i32) map_clauses(implicit) capture(ByCopy) -> !llvm.ptr {name = ""}
    %96 = omp.map.info var_ptr(%9 : !llvm.ptr, i32) map_clauses(implicit) capture(ByCopy) -> !llvm.ptr {name = ""}
    omp.target host_eval(%11 -> %arg3, %74 -> %arg4, %11 -> %arg5 : i32, i32, i32) map_entries(%83 -> %arg6, %92 -> %arg7, %93 -> %arg8, %94 -> %arg9, %95 -> %arg10, %96 -> %arg11 : !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) {
      %97 = llvm.mlir.constant(0 : index) : i64
      %98 = llvm.load %arg11 : !llvm.ptr -> i32
      %99 = llvm.load %arg10 : !llvm.ptr -> i32
      %100 = llvm.sext %98 : i32 to i64
      %101 = llvm.icmp "sgt" %100, %97 : i64
      %102 = llvm.sext %99 : i32 to i64
      %103 = llvm.icmp "sgt" %102, %97 : i64
      %104 = llvm.select %103, %102, %97 : i1, i64
      %105 = llvm.select %101, %100, %97 : i1, i64
      omp.teams {
        omp.parallel private(@_QFvaddEi_private_i32 %arg8 -> %arg12 : !llvm.ptr) {
          omp.distribute {
            omp.wsloop {
              omp.loop_nest (%arg13) : i32 = (%arg3) to (%arg4) inclusive step (%arg5) {
                llvm.store %arg13, %arg12 : i32, !llvm.ptr
                %106 = llvm.load %arg12 : !llvm.ptr -> i32
                %107 = llvm.sext %106 : i32 to i64
                %108 = llvm.mlir.constant(1 : i64) : i64
                %109 = llvm.mlir.constant(0 : i64) : i64
                %110 = llvm.sub %107, %108 overflow<nsw> : i64
                %111 = llvm.mul %110, %108 overflow<nsw> : i64
                %112 = llvm.mul %111, %108 overflow<nsw> : i64
                %113 = llvm.add %112, %109 overflow<nsw> : i64
                %114 = llvm.mul %108, %104 overflow<nsw> : i64
                %115 = llvm.getelementptr %arg7[%113] : (!llvm.ptr, i64) -> !llvm.ptr, i32
                %116 = llvm.load %115 : !llvm.ptr -> i32
                %117 = llvm.mlir.constant(1 : i64) : i64
                %118 = llvm.mlir.constant(0 : i64) : i64
                %119 = llvm.sub %107, %117 overflow<nsw> : i64
                %120 = llvm.mul %119, %117 overflow<nsw> : i64
                %121 = llvm.mul %120, %117 overflow<nsw> : i64
                %122 = llvm.add %121, %118 overflow<nsw> : i64
                %123 = llvm.mul %117, %105 overflow<nsw> : i64
                %124 = llvm.getelementptr %arg6[%122] : (!llvm.ptr, i64) -> !llvm.ptr, i32
                %125 = llvm.load %124 : !llvm.ptr -> i32
                %126 = llvm.add %116, %125 : i32
                llvm.store %126, %115 : i32, !llvm.ptr
                omp.yield
              }
            } {omp.composite}
          } {omp.composite}
          omp.terminator
        } {omp.composite}
        omp.terminator
      }
      omp.terminator
    }
    llvm.return
  }
}
