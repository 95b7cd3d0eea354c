// host_eval values reach the kernel as by-copy maps in host and device
// modules alike; the device module reads them in the region and drops
// host_eval, constants are rebuilt in the region.
// RUN: %mlir-offload-opt --omp-offload-filter-functions --split-input-file %s | FileCheck %s

// CHECK-LABEL: module attributes {omp.is_target_device = true}
// CHECK: llvm.func @f(%[[N:.*]]: !llvm.ptr)
// CHECK-NEXT: %[[ONE:.*]] = llvm.mlir.constant(1 : i64)
// CHECK-NEXT: %[[SLOT:.*]] = llvm.alloca %[[ONE]] x i32
// CHECK: %[[UB:.*]] = llvm.load %[[N]]
// CHECK: llvm.store %[[UB]], %[[SLOT]]
// CHECK-NEXT: %[[MAP:.*]] = omp.map.info var_ptr(%[[SLOT]] : !llvm.ptr, i32) map_clauses(implicit) capture(ByCopy) -> !llvm.ptr {name = ""}
// CHECK-NEXT: omp.target map_entries(%{{.*}} -> %{{.*}}, %[[MAP]] -> %[[ARG:.*]] : !llvm.ptr, !llvm.ptr) {
// CHECK-NEXT: %[[C1:.*]] = llvm.mlir.constant(1 : i32)
// CHECK-NEXT: %[[LOADED:.*]] = llvm.load %[[ARG]] : !llvm.ptr -> i32
// CHECK-NEXT: %[[C1B:.*]] = llvm.mlir.constant(1 : i32)
// CHECK-NOT: host_eval
// CHECK: omp.loop_nest (%{{.*}}) : i32 = (%[[C1]]) to (%[[LOADED]]) inclusive step (%[[C1B]])
module attributes {omp.is_target_device = true} {
  llvm.func @f(%n: !llvm.ptr) attributes {omp.declare_target = #omp.declaretarget<device_type = (host), capture_clause = (to)>} {
    %c1 = llvm.mlir.constant(1 : i32) : i32
    %ub = llvm.load %n : !llvm.ptr -> i32
    %m = omp.map.info var_ptr(%n : !llvm.ptr, i32) map_clauses(implicit) capture(ByCopy) -> !llvm.ptr {name = "n"}
    omp.target host_eval(%c1 -> %lb, %ub -> %hi, %c1 -> %st : i32, i32, i32) map_entries(%m -> %an : !llvm.ptr) {
      omp.teams {
        omp.parallel {
          omp.distribute {
            omp.wsloop {
              omp.loop_nest (%i) : i32 = (%lb) to (%hi) inclusive step (%st) {
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

// -----

// The host module keeps host_eval (the launch needs it) and gets the same
// kernel argument.
// CHECK-LABEL: module attributes {omp.is_target_device = false}
// CHECK: %[[MAP:.*]] = omp.map.info var_ptr(%{{.*}} : !llvm.ptr, i32) map_clauses(implicit) capture(ByCopy) -> !llvm.ptr {name = ""}
// CHECK-NEXT: omp.target host_eval(%{{.*}} -> %[[LB:.*]], %{{.*}} -> %[[HI:.*]], %{{.*}} -> %{{.*}} : i32, i32, i32) map_entries(%{{.*}} -> %{{.*}}, %[[MAP]] -> %{{.*}} : !llvm.ptr, !llvm.ptr)
// CHECK: omp.loop_nest (%{{.*}}) : i32 = (%[[LB]]) to (%[[HI]])
module attributes {omp.is_target_device = false} {
  llvm.func @f(%n: !llvm.ptr) {
    %c1 = llvm.mlir.constant(1 : i32) : i32
    %ub = llvm.load %n : !llvm.ptr -> i32
    %m = omp.map.info var_ptr(%n : !llvm.ptr, i32) map_clauses(implicit) capture(ByCopy) -> !llvm.ptr {name = "n"}
    omp.target host_eval(%c1 -> %lb, %ub -> %hi, %c1 -> %st : i32, i32, i32) map_entries(%m -> %an : !llvm.ptr) {
      omp.teams {
        omp.parallel {
          omp.distribute {
            omp.wsloop {
              omp.loop_nest (%i) : i32 = (%lb) to (%hi) inclusive step (%st) {
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
