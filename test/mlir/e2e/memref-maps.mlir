// Memrefs in omp.target regions, end to end on the CPU device: a static 4x8
// matrix, dynamic vectors whose length the kernel reads from the device
// descriptor, a rank-0 memref, a strided view, a target data region, a
// declare-target helper calling a nohost function, and data kept on the
// device by enter/exit data with an update in between. A C++ main calls the MLIR functions (memref arguments are passed
// as the lowered descriptor fields) and checks the results.
// REQUIRES: our-libomptarget
// RUN: %mlir-offload -fopenmp-targets=%target-cpu -O2 -c %s -o %t.o
// RUN: %clangxx -fopenmp -fopenmp-targets=%target-cpu %S/Inputs/memref-main.cpp %t.o -o %t
// RUN: env OMP_TARGET_OFFLOAD=mandatory %ours-run %t | FileCheck %s
// RUN: env OMP_TARGET_OFFLOAD=mandatory LIBOMPTARGET_INFO=16 %ours-run %t 2>&1 | FileCheck %s --check-prefix=LAUNCH

// CHECK: devices=4
// CHECK-NEXT: static: bad=0 m[3][7]=63
// CHECK-NEXT: dynamic: bad=0 y[999]=3997
// CHECK-NEXT: empty: ok
// CHECK-NEXT: window: -1 -1 -1 -1 0 1 2 3 4 5 6 7 -1 -1 -1 -1
// CHECK-NEXT: data region: bad=0 d[9]=18
// CHECK-NEXT: persistent: before update v[5]=5
// CHECK-NEXT: persistent: after update v[5]=15 bad=0
// CHECK-NEXT: persistent: after exit v[5]=15
// LAUNCH-COUNT-6: Launching kernel __omp_offloading_{{.*}}_{{update_static|axpy|fill_window|twice_in_data_region|add_ten}}_l

module {
  // Marked for the device only (the host keeps its body for the fallback).
  func.func @bias(%x: f32) -> f32 attributes {omp.declare_target = #omp.declaretarget<device_type = (nohost), capture_clause = (to)>} {
    %c = arith.constant 1.0 : f32
    %r = arith.addf %x, %c : f32
    return %r : f32
  }

  // Not marked: called from a target region, so declare target nohost.
  func.func @twice_plus_one(%x: f32) -> f32 {
    %c2 = arith.constant 2.0 : f32
    %d = arith.mulf %x, %c2 : f32
    %r = call @bias(%d) : (f32) -> f32
    return %r : f32
  }

  // m[i][j] = 2 * m[i][j] + 1
  func.func @update_static(%m: memref<4x8xf32>) {
    %mi = omp.map.info var_ptr(%m : memref<4x8xf32>, f32) map_clauses(tofrom) capture(ByRef) -> memref<4x8xf32> {name = "m"}
    omp.target map_entries(%mi -> %a : memref<4x8xf32>) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      scf.for %i = %c0 to %c4 step %c1 {
        scf.for %j = %c0 to %c8 step %c1 {
          %v = memref.load %a[%i, %j] : memref<4x8xf32>
          %w = func.call @twice_plus_one(%v) : (f32) -> f32
          memref.store %w, %a[%i, %j] : memref<4x8xf32>
        }
      }
      omp.terminator
    }
    return
  }

  // y = a * x + y; the length comes from the device copy of x's descriptor.
  func.func @axpy(%a: f64, %x: memref<?xf64>, %y: memref<?xf64>) {
    %slot = memref.alloca() : memref<f64>
    memref.store %a, %slot[] : memref<f64>
    %ma = omp.map.info var_ptr(%slot : memref<f64>, f64) map_clauses(to) capture(ByRef) -> memref<f64> {name = "a"}
    %mx = omp.map.info var_ptr(%x : memref<?xf64>, f64) map_clauses(to) capture(ByRef) -> memref<?xf64> {name = "x"}
    %my = omp.map.info var_ptr(%y : memref<?xf64>, f64) map_clauses(tofrom) capture(ByRef) -> memref<?xf64> {name = "y"}
    omp.target map_entries(%ma -> %sa, %mx -> %ax, %my -> %ay : memref<f64>, memref<?xf64>, memref<?xf64>) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %av = memref.load %sa[] : memref<f64>
      %n = memref.dim %ax, %c0 : memref<?xf64>
      scf.for %i = %c0 to %n step %c1 {
        %xv = memref.load %ax[%i] : memref<?xf64>
        %yv = memref.load %ay[%i] : memref<?xf64>
        %p = arith.mulf %av, %xv : f64
        %s = arith.addf %p, %yv : f64
        memref.store %s, %ay[%i] : memref<?xf64>
      }
      omp.terminator
    }
    return
  }

  // A strided view (offset 4) of a 16-element vector: the kernel writes its
  // index into each of the 8 elements of the view.
  func.func @fill_window(%v: memref<16xi32>) {
    %w = memref.subview %v[4] [8] [1] : memref<16xi32> to memref<8xi32, strided<[1], offset: 4>>
    %m = omp.map.info var_ptr(%w : memref<8xi32, strided<[1], offset: 4>>, i32) map_clauses(tofrom) capture(ByRef) -> memref<8xi32, strided<[1], offset: 4>> {name = "w"}
    omp.target map_entries(%m -> %a : memref<8xi32, strided<[1], offset: 4>>) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      scf.for %i = %c0 to %c8 step %c1 {
        %iv = arith.index_cast %i : index to i32
        memref.store %iv, %a[%i] : memref<8xi32, strided<[1], offset: 4>>
      }
      omp.terminator
    }
    return
  }

  // A target data region maps the data once; the target region inside finds
  // it present and attaches its descriptor to it.
  func.func @twice_in_data_region(%v: memref<?xi32>) {
    %m = omp.map.info var_ptr(%v : memref<?xi32>, i32) map_clauses(tofrom) capture(ByRef) -> memref<?xi32> {name = "v"}
    omp.target_data map_entries(%m : memref<?xi32>) {
      %t = omp.map.info var_ptr(%v : memref<?xi32>, i32) map_clauses(tofrom) capture(ByRef) -> memref<?xi32> {name = "v"}
      omp.target map_entries(%t -> %a : memref<?xi32>) {
        %c0 = arith.constant 0 : index
        %c1 = arith.constant 1 : index
        %n = memref.dim %a, %c0 : memref<?xi32>
        scf.for %i = %c0 to %n step %c1 {
          %e = memref.load %a[%i] : memref<?xi32>
          %f = arith.addi %e, %e : i32
          memref.store %f, %a[%i] : memref<?xi32>
        }
        omp.terminator
      }
      omp.terminator
    }
    return
  }

  // Persistent data: enter data, kernels on the present data, update, exit.
  func.func @enter(%v: memref<?xi32>) {
    %m = omp.map.info var_ptr(%v : memref<?xi32>, i32) map_clauses(to) capture(ByRef) -> memref<?xi32> {name = "v"}
    omp.target_enter_data map_entries(%m : memref<?xi32>)
    return
  }
  func.func @add_ten(%v: memref<?xi32>) {
    %m = omp.map.info var_ptr(%v : memref<?xi32>, i32) map_clauses(tofrom) capture(ByRef) -> memref<?xi32> {name = "v"}
    omp.target map_entries(%m -> %a : memref<?xi32>) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %ten = arith.constant 10 : i32
      %n = memref.dim %a, %c0 : memref<?xi32>
      scf.for %i = %c0 to %n step %c1 {
        %e = memref.load %a[%i] : memref<?xi32>
        %f = arith.addi %e, %ten : i32
        memref.store %f, %a[%i] : memref<?xi32>
      }
      omp.terminator
    }
    return
  }
  func.func @update_from(%v: memref<?xi32>) {
    %m = omp.map.info var_ptr(%v : memref<?xi32>, i32) map_clauses(from) capture(ByRef) -> memref<?xi32> {name = "v"}
    omp.target_update map_entries(%m : memref<?xi32>)
    return
  }
  func.func @leave(%v: memref<?xi32>) {
    %m = omp.map.info var_ptr(%v : memref<?xi32>, i32) map_clauses(delete) capture(ByRef) -> memref<?xi32> {name = "v"}
    omp.target_exit_data map_entries(%m : memref<?xi32>)
    return
  }
}
