// OMPT: the data operations of the omp_target_* routines (alloc, memcpy,
// associate, disassociate, free) reach the tool's target_data_op_emi
// callback outside any target construct, exactly as with Debian's runtime.
// REQUIRES: our-libomptarget
// RUN: %clang -shared -fPIC %S/Inputs/ompt-tool.c -o %t.tool.so
// RUN: %clang -fopenmp -fopenmp-targets=%target-cpu %s -o %t
// RUN: env OMP_TOOL_LIBRARIES=%t.tool.so %ours-run %t | FileCheck %s
// RUN: env OMP_TOOL_LIBRARIES=%t.tool.so %upstream-run %t | FileCheck %s
// clang-format off
// CHECK: tool: initialized
// CHECK: data_op: alloc begin src_dev 4 dest_dev 0 bytes=32 target_id=0 op_id=[[OP:[0-9]+]] src=null dest=null
// CHECK-NEXT: data_op: alloc end src_dev 4 dest_dev 0 bytes=32 target_id=0 op_id=[[OP]] src=null dest=set
// CHECK-NEXT: data_op: to_device begin src_dev 4 dest_dev 0 bytes=32 target_id=0 op_id=[[OP:[0-9]+]] src=set dest=set
// CHECK-NEXT: data_op: to_device end src_dev 4 dest_dev 0 bytes=32 target_id=0 op_id=[[OP]] src=set dest=set
// CHECK-NEXT: data_op: associate begin src_dev 4 dest_dev 0 bytes=32 target_id=0
// CHECK-NEXT: data_op: associate end src_dev 4 dest_dev 0 bytes=32 target_id=0
// CHECK-NEXT: data_op: disassociate begin src_dev 4 dest_dev 0 bytes=0 target_id=0
// CHECK-NEXT: data_op: disassociate end src_dev 4 dest_dev 0 bytes=0 target_id=0
// CHECK-NEXT: data_op: delete begin src_dev 0 dest_dev -1 bytes=0 target_id=0 op_id=[[OP:[0-9]+]] src=set dest=null
// CHECK-NEXT: data_op: delete end src_dev 0 dest_dev -1 bytes=0 target_id=0 op_id=[[OP]] src=set dest=null
// CHECK-NEXT: done
// CHECK: device_finalize: dev 0
// CHECK: tool: finalized
// clang-format on
#include <omp.h>
#include <stdio.h>

int main(void) {
  int a[8] = {0};
  int dev = 0;
  void *p = omp_target_alloc(sizeof a, dev);
  omp_target_memcpy(p, a, sizeof a, 0, 0, dev, omp_get_initial_device());
  omp_target_associate_ptr(a, p, sizeof a, 0, dev);
  omp_target_disassociate_ptr(a, dev);
  omp_target_free(p, dev);
  printf("done\n");
  fflush(stdout);
  return 0;
}
