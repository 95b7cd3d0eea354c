// A module as Flang's OpenMP pipeline leaves it for a device compilation of
// its own (the LLVM dialect with a DLTI data layout, fir attributes,
// omp.is_target_device = true, a host IR path, device flags, a host function
// marked declare target host): mlir-offload replaces the offload attributes
// with its own for each compilation, and the program runs on the CPU device.
// REQUIRES: our-libomptarget
// RUN: rm -rf %t && mkdir -p %t
// RUN: %mlir-offload -fopenmp-targets=%target-cpu -c %s -o %t/kernel.o 2>&1 | count 0
// RUN: %clang -fopenmp -fopenmp-targets=%target-cpu %S/Inputs/fortran-scale-main.c %t/kernel.o -o %t/prog
// RUN: env OMP_TARGET_OFFLOAD=mandatory %ours-run %t/prog | FileCheck %s
// CHECK: v[1]=2 v[9]=18

module attributes {dlti.dl_spec = #dlti.dl_spec<!llvm.ptr<270> = dense<32> : vector<4xi64>, !llvm.ptr<271> = dense<32> : vector<4xi64>, !llvm.ptr<272> = dense<64> : vector<4xi64>, i64 = dense<64> : vector<2xi64>, i128 = dense<128> : vector<2xi64>, f80 = dense<128> : vector<2xi64>, !llvm.ptr = dense<64> : vector<4xi64>, i1 = dense<8> : vector<2xi64>, i8 = dense<8> : vector<2xi64>, i16 = dense<16> : vector<2xi64>, i32 = dense<32> : vector<2xi64>, f16 = dense<16> : vector<2xi64>, f64 = dense<64> : vector<2xi64>, f128 = dense<128> : vector<2xi64>, "dlti.endianness" = "little", "dlti.mangling_mode" = "e", "dlti.legal_int_widths" = array<i32: 8, 16, 32, 64>, "dlti.stack_alignment" = 128 : i64>, fir.defaultkind = "a1c4d8i4l4r4", fir.kindmap = "", llvm.data_layout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128", llvm.ident = "Debian flang version 22.1.8", llvm.target_triple = "x86_64-pc-linux-gnu", omp.flags = #omp.flags<openmp_device_version = 31>, omp.host_ir_filepath = "/nonexistent/host.bc", omp.is_gpu = false, omp.is_target_device = true, omp.requires = #omp<clause_requires none>, omp.target_triples = [], omp.version = #omp.version<version = 31>} {
  llvm.func @scale_(%arg0: !llvm.ptr {fir.bindc_name = "a", llvm.noalias}, %arg1: !llvm.ptr {fir.bindc_name = "n", llvm.noalias}) attributes {fir.internal_name = "_QPscale", omp.declare_target = #omp.declaretarget<device_type = (host), capture_clause = (to), automap = false>} {
    %0 = llvm.mlir.constant(1 : i32) : i32
    %1 = llvm.alloca %0 x !llvm.struct<(ptr, i64, i32, i8, i8, i8, i8, array<1 x array<3 x i64>>)> {alignment = 8 : i64} : (i32) -> !llvm.ptr
    %2 = llvm.mlir.constant(1 : i64) : i64
    %3 = llvm.alloca %2 x i32 {bindc_name = "i"} : (i64) -> !llvm.ptr
    %4 = llvm.mlir.constant(1 : i64) : i64
    %5 = llvm.alloca %4 x i32 : (i64) -> !llvm.ptr
    %6 = llvm.mlir.constant(1 : index) : i64
    %7 = llvm.mlir.constant(0 : index) : i64
    %8 = llvm.mlir.constant(1 : i64) : i64
    %9 = llvm.mlir.constant(1 : i64) : i64
    %10 = llvm.load %arg1 : !llvm.ptr -> i32
    llvm.store %10, %5 : i32, !llvm.ptr
    %11 = llvm.sext %10 : i32 to i64
    %12 = llvm.icmp "sgt" %11, %7 : i64
    %13 = llvm.select %12, %11, %7 : i1, i64
    %14 = llvm.mlir.constant(9 : i32) : i32
    %15 = llvm.mlir.constant(4 : i64) : i64
    %16 = llvm.mlir.undef : !llvm.struct<(ptr, i64, i32, i8, i8, i8, i8, array<1 x array<3 x i64>>)>
    %17 = llvm.insertvalue %15, %16[1] : !llvm.struct<(ptr, i64, i32, i8, i8, i8, i8, array<1 x array<3 x i64>>)> 
    %18 = llvm.mlir.constant(20240719 : i32) : i32
    %19 = llvm.insertvalue %18, %17[2] : !llvm.struct<(ptr, i64, i32, i8, i8, i8, i8, array<1 x array<3 x i64>>)> 
    %20 = llvm.mlir.constant(1 : i32) : i32
    %21 = llvm.trunc %20 : i32 to i8
    %22 = llvm.insertvalue %21, %19[3] : !llvm.struct<(ptr, i64, i32, i8, i8, i8, i8, array<1 x array<3 x i64>>)> 
    %23 = llvm.trunc %14 : i32 to i8
    %24 = llvm.insertvalue %23, %22[4] : !llvm.struct<(ptr, i64, i32, i8, i8, i8, i8, array<1 x array<3 x i64>>)> 
    %25 = llvm.mlir.constant(0 : i32) : i32
    %26 = llvm.trunc %25 : i32 to i8
    %27 = llvm.insertvalue %26, %24[5] : !llvm.struct<(ptr, i64, i32, i8, i8, i8, i8, array<1 x array<3 x i64>>)> 
    %28 = llvm.mlir.constant(0 : i32) : i32
    %29 = llvm.trunc %28 : i32 to i8
    %30 = llvm.insertvalue %29, %27[6] : !llvm.struct<(ptr, i64, i32, i8, i8, i8, i8, array<1 x array<3 x i64>>)> 
    %31 = llvm.mlir.constant(0 : i64) : i64
    %32 = llvm.mlir.constant(1 : i64) : i64
    %33 = llvm.insertvalue %32, %30[7, 0, 0] : !llvm.struct<(ptr, i64, i32, i8, i8, i8, i8, array<1 x array<3 x i64>>)> 
    %34 = llvm.insertvalue %13, %33[7, 0, 1] : !llvm.struct<(ptr, i64, i32, i8, i8, i8, i8, array<1 x array<3 x i64>>)> 
    %35 = llvm.insertvalue %15, %34[7, 0, 2] : !llvm.struct<(ptr, i64, i32, i8, i8, i8, i8, array<1 x array<3 x i64>>)> 
    %36 = llvm.mul %15, %13 : i64
    %37 = llvm.mul %32, %13 : i64
    %38 = llvm.insertvalue %arg0, %35[0] : !llvm.struct<(ptr, i64, i32, i8, i8, i8, i8, array<1 x array<3 x i64>>)> 
    llvm.store %38, %1 : !llvm.struct<(ptr, i64, i32, i8, i8, i8, i8, array<1 x array<3 x i64>>)>, !llvm.ptr
    %39 = llvm.getelementptr %1[0, 7, %7, 0] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.struct<(ptr, i64, i32, i8, i8, i8, i8, array<1 x array<3 x i64>>)>
    %40 = llvm.load %39 : !llvm.ptr -> i64
    %41 = llvm.getelementptr %1[0, 7, %7, 1] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.struct<(ptr, i64, i32, i8, i8, i8, i8, array<1 x array<3 x i64>>)>
    %42 = llvm.load %41 : !llvm.ptr -> i64
    %43 = llvm.getelementptr %1[0, 7, %7, 2] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.struct<(ptr, i64, i32, i8, i8, i8, i8, array<1 x array<3 x i64>>)>
    %44 = llvm.load %43 : !llvm.ptr -> i64
    %45 = llvm.sub %42, %6 : i64
    %46 = omp.map.bounds lower_bound(%7 : i64) upper_bound(%45 : i64) extent(%42 : i64) stride(%44 : i64) start_idx(%6 : i64) {stride_in_bytes = true}
    %47 = omp.map.info var_ptr(%arg0 : !llvm.ptr, i32) map_clauses(tofrom) capture(ByRef) bounds(%46) -> !llvm.ptr {name = "a"}
    %48 = omp.map.info var_ptr(%3 : !llvm.ptr, i32) map_clauses(implicit) capture(ByCopy) -> !llvm.ptr {name = "i"}
    %49 = omp.map.info var_ptr(%arg1 : !llvm.ptr, i32) map_clauses(implicit) capture(ByCopy) -> !llvm.ptr {name = "n"}
    %50 = omp.map.info var_ptr(%5 : !llvm.ptr, i32) map_clauses(implicit) capture(ByCopy) -> !llvm.ptr {name = ""}
    omp.target map_entries(%47 -> %arg2, %48 -> %arg3, %49 -> %arg4, %50 -> %arg5 : !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) {
      %51 = llvm.mlir.constant(2 : i32) : i32
      %52 = llvm.mlir.constant(1 : index) : i64
      %53 = llvm.mlir.constant(0 : index) : i64
      %54 = llvm.load %arg5 : !llvm.ptr -> i32
      %55 = llvm.sext %54 : i32 to i64
      %56 = llvm.icmp "sgt" %55, %53 : i64
      %57 = llvm.select %56, %55, %53 : i1, i64
      %58 = llvm.load %arg4 : !llvm.ptr -> i32
      %59 = llvm.sext %58 : i32 to i64
      %60 = llvm.trunc %52 : i64 to i32
      llvm.br ^bb1(%60, %59 : i32, i64)
    ^bb1(%61: i32, %62: i64):  // 2 preds: ^bb0, ^bb2
      %63 = llvm.icmp "sgt" %62, %53 : i64
      llvm.cond_br %63, ^bb2, ^bb3
    ^bb2:  // pred: ^bb1
      llvm.store %61, %arg3 : i32, !llvm.ptr
      %64 = llvm.load %arg3 : !llvm.ptr -> i32
      %65 = llvm.sext %64 : i32 to i64
      %66 = llvm.mlir.constant(1 : i64) : i64
      %67 = llvm.mlir.constant(0 : i64) : i64
      %68 = llvm.sub %65, %66 overflow<nsw> : i64
      %69 = llvm.mul %68, %66 overflow<nsw> : i64
      %70 = llvm.mul %69, %66 overflow<nsw> : i64
      %71 = llvm.add %70, %67 overflow<nsw> : i64
      %72 = llvm.mul %66, %57 overflow<nsw> : i64
      %73 = llvm.getelementptr %arg2[%71] : (!llvm.ptr, i64) -> !llvm.ptr, i32
      %74 = llvm.load %73 : !llvm.ptr -> i32
      %75 = llvm.mul %74, %51 : i32
      llvm.store %75, %73 : i32, !llvm.ptr
      %76 = llvm.load %arg3 : !llvm.ptr -> i32
      %77 = llvm.add %76, %60 overflow<nsw> : i32
      %78 = llvm.sub %62, %52 : i64
      llvm.br ^bb1(%77, %78 : i32, i64)
    ^bb3:  // pred: ^bb1
      llvm.store %61, %arg3 : i32, !llvm.ptr
      omp.terminator
    }
    llvm.return
  }
}
