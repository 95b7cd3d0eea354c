// omp-offload-memref-maps: memref maps become descriptor + data member maps
// on omp.target, and data maps on the data directives.
// RUN: %mlir-offload-opt --omp-offload-memref-maps --split-input-file --verify-diagnostics %s | FileCheck %s

// CHECK-LABEL: func.func @target_dynamic
// CHECK-SAME: (%[[M:[a-z0-9]+]]: memref<?x?xf32>,
// The slot is allocated at the function's entry.
// CHECK-NEXT: %[[ONE:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK-NEXT: %[[SLOT:.*]] = llvm.alloca %[[ONE]] x !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
// CHECK: %[[DESC:.*]] = builtin.unrealized_conversion_cast %[[M]] : memref<?x?xf32> to !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
// CHECK-NEXT: llvm.store %[[DESC]], %[[SLOT]]
// CHECK-NEXT: %[[FIELD:.*]] = llvm.getelementptr %[[SLOT]][0, 1]
// The extent is read from the descriptor at run time.
// CHECK-NEXT: %{{.*}}, %[[OFF:.*]], %[[SIZES:.*]]:2, %[[STRIDES:.*]]:2 = memref.extract_strided_metadata %[[M]]
// CHECK: arith.muli %{{.*}}, %[[STRIDES]]#0
// CHECK: arith.muli %{{.*}}, %[[STRIDES]]#1
// CHECK: %[[EXT:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK: %[[BOUNDS:.*]] = omp.map.bounds lower_bound(%{{.*}} : i64) upper_bound(%{{.*}} : i64) extent(%[[EXT]] : i64)
// CHECK-NEXT: %[[DATA:.*]] = omp.map.info var_ptr(%[[SLOT]] : !llvm.ptr, f32) map_clauses(tofrom) capture(ByRef) var_ptr_ptr(%[[FIELD]] : !llvm.ptr) bounds(%[[BOUNDS]]) -> !llvm.ptr {name = "m.data"}
// CHECK-NEXT: %[[PARENT:.*]] = omp.map.info var_ptr(%[[SLOT]] : !llvm.ptr, !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>) map_clauses(to) capture(ByRef) members(%[[DATA]] : [1] : !llvm.ptr) -> !llvm.ptr {name = "m"}
// CHECK: omp.target map_entries(%{{.*}} -> %{{.*}}, %[[PARENT]] -> %[[DARG:.*]], %[[DATA]] -> %{{.*}}, %{{.*}} -> %{{.*}} : !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr)
// The region rebuilds the memref from the device descriptor.
// CHECK-NEXT: %[[LOADED:.*]] = llvm.load %[[DARG]] : !llvm.ptr -> !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
// CHECK-NEXT: %[[REBUILT:.*]] = builtin.unrealized_conversion_cast %[[LOADED]] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> to memref<?x?xf32>
// CHECK: memref.dim %[[REBUILT]]
// CHECK: memref.load %[[REBUILT]]
// CHECK-NOT: memref<?x?xf32>) map_clauses
func.func @target_dynamic(%m: memref<?x?xf32>, %p: !llvm.ptr) {
  %mp = omp.map.info var_ptr(%p : !llvm.ptr, i32) map_clauses(to) capture(ByRef) -> !llvm.ptr {name = "p"}
  %mm = omp.map.info var_ptr(%m : memref<?x?xf32>, f32) map_clauses(tofrom) capture(ByRef) -> memref<?x?xf32> {name = "m"}
  %mq = omp.map.info var_ptr(%p : !llvm.ptr, i32) map_clauses(from) capture(ByRef) -> !llvm.ptr {name = "q"}
  omp.target map_entries(%mp -> %ap, %mm -> %am, %mq -> %aq : !llvm.ptr, memref<?x?xf32>, !llvm.ptr) {
    %c0 = arith.constant 0 : index
    %d = memref.dim %am, %c0 : memref<?x?xf32>
    %v = memref.load %am[%c0, %c0] : memref<?x?xf32>
    omp.terminator
  }
  return
}

// -----

// A rank-0 memref: a descriptor without sizes and strides, one element.
// CHECK-LABEL: func.func @target_rank0
// CHECK: llvm.alloca %{{.*}} x !llvm.struct<(ptr, ptr, i64)>
// CHECK: omp.map.info var_ptr(%{{.*}} : !llvm.ptr, i64) map_clauses(to) capture(ByRef) var_ptr_ptr
// CHECK: omp.map.info var_ptr(%{{.*}} : !llvm.ptr, !llvm.struct<(ptr, ptr, i64)>) map_clauses(to)
func.func @target_rank0(%m: memref<index>) {
  %mm = omp.map.info var_ptr(%m : memref<index>, index) map_clauses(to) capture(ByRef) -> memref<index>
  omp.target map_entries(%mm -> %am : memref<index>) {
    %v = memref.load %am[] : memref<index>
    omp.terminator
  }
  return
}

// -----

// Data directives map the data by its aligned pointer, with the same extent.
// CHECK-LABEL: func.func @data_directives
// CHECK: %[[ADDR:.*]] = memref.extract_aligned_pointer_as_index %{{.*}} : memref<8xi32> -> index
// CHECK: %[[PTR:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr
// CHECK: %[[MAP:.*]] = omp.map.info var_ptr(%[[PTR]] : !llvm.ptr, i32) map_clauses(to) capture(ByRef) bounds(%{{.*}}) -> !llvm.ptr {name = "v"}
// CHECK: omp.target_enter_data map_entries(%[[MAP]] : !llvm.ptr)
// CHECK: omp.map.info var_ptr(%{{.*}} : !llvm.ptr, i32) map_clauses(from) capture(ByRef) bounds
// CHECK: omp.target_update map_entries(%{{.*}} : !llvm.ptr)
// CHECK: omp.map.info var_ptr(%{{.*}} : !llvm.ptr, i32) map_clauses(delete) capture(ByRef) bounds
// CHECK: omp.target_exit_data map_entries(%{{.*}} : !llvm.ptr)
// CHECK: omp.map.info var_ptr(%{{.*}} : !llvm.ptr, i32) map_clauses(tofrom) capture(ByRef) bounds
// CHECK: omp.target_data map_entries(%{{.*}} : !llvm.ptr)
func.func @data_directives(%v: memref<8xi32>) {
  %m1 = omp.map.info var_ptr(%v : memref<8xi32>, i32) map_clauses(to) capture(ByRef) -> memref<8xi32> {name = "v"}
  omp.target_enter_data map_entries(%m1 : memref<8xi32>)
  %m2 = omp.map.info var_ptr(%v : memref<8xi32>, i32) map_clauses(from) capture(ByRef) -> memref<8xi32> {name = "v"}
  omp.target_update map_entries(%m2 : memref<8xi32>)
  %m3 = omp.map.info var_ptr(%v : memref<8xi32>, i32) map_clauses(delete) capture(ByRef) -> memref<8xi32> {name = "v"}
  omp.target_exit_data map_entries(%m3 : memref<8xi32>)
  %m4 = omp.map.info var_ptr(%v : memref<8xi32>, i32) map_clauses(tofrom) capture(ByRef) -> memref<8xi32> {name = "v"}
  omp.target_data map_entries(%m4 : memref<8xi32>) {
    omp.terminator
  }
  return
}

// -----

// What cannot be mapped is an error at the map.
func.func @bad_memory_space(%m: memref<4xf32, 3>) {
  // expected-error @+1 {{cannot map 'memref<4xf32, 3>': memrefs in a memory space are not supported}}
  %mm = omp.map.info var_ptr(%m : memref<4xf32, 3>, f32) map_clauses(to) capture(ByRef) -> memref<4xf32, 3>
  omp.target map_entries(%mm -> %am : memref<4xf32, 3>) {
    omp.terminator
  }
  return
}
