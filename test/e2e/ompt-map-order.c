// OMPT: a construct with several map items reports, item by item, the
// allocation and then the transfer of each (alloc 1, copy 1, alloc 2, ...),
// as upstream's runtime orders them, although ours plans the whole list
// (allocating) under the mapping lock before copying; an item without a
// copy (map(alloc)) still gets its allocation at its place in the list.
// Every operation carries the construct's target_id and code pointer;
// outside a construct omp_target_* routines carry the caller's code pointer
// and target_id 0, and a copy between two devices is one transfer.
// REQUIRES: our-libomptarget
// RUN: %clang -shared -fPIC %S/Inputs/ompt-tool.c -o %t.tool.so
// RUN: %clang -fopenmp -fopenmp-targets=%target-cpu %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=mandatory OMP_TOOL_LIBRARIES=%t.tool.so %ours-run %t | FileCheck %s
// RUN: env OMP_TARGET_OFFLOAD=mandatory OMP_TOOL_LIBRARIES=%t.tool.so OMPT_TEST_NOEMI=1 %ours-run %t | FileCheck %s --check-prefix=NOEMI
// RUN: env OMP_TARGET_OFFLOAD=mandatory OMP_TOOL_LIBRARIES=%t.tool.so OMPT_TEST_TRACE=1 %ours-run %t | FileCheck %s --check-prefix=TRACE
// RUN: env OMP_TARGET_OFFLOAD=mandatory OMP_TOOL_LIBRARIES=%t.tool.so %upstream-run %t | FileCheck %s --check-prefix=ORDER
// clang-format off

// CHECK: target: target begin dev 0 target_id=[[T:[0-9]+]] codeptr=set
// Clang lists the items c, b, a (map(alloc: c) has no copy).
// CHECK-NEXT: data_op: alloc begin src_dev 4 dest_dev 0 bytes=48 target_id=[[T]] op_id=[[OP:[0-9]+]] src=set dest=null code=set
// CHECK-NEXT: data_op: alloc end src_dev 4 dest_dev 0 bytes=48 target_id=[[T]] op_id=[[OP]] src=set dest=set code=set
// CHECK-NEXT: data_op: alloc begin src_dev 4 dest_dev 0 bytes=64 target_id=[[T]] op_id=[[OP:[0-9]+]] src=set dest=null code=set
// CHECK-NEXT: data_op: alloc end src_dev 4 dest_dev 0 bytes=64 target_id=[[T]] op_id=[[OP]] src=set dest=set code=set
// CHECK-NEXT: data_op: to_device begin src_dev 4 dest_dev 0 bytes=64 target_id=[[T]] op_id=[[OP:[0-9]+]] src=set dest=set code=set
// CHECK-NEXT: data_op: to_device end src_dev 4 dest_dev 0 bytes=64 target_id=[[T]] op_id=[[OP]] src=set dest=set code=set
// CHECK-NEXT: data_op: alloc begin src_dev 4 dest_dev 0 bytes=32 target_id=[[T]] op_id=[[OP:[0-9]+]] src=set dest=null code=set
// CHECK-NEXT: data_op: alloc end src_dev 4 dest_dev 0 bytes=32 target_id=[[T]] op_id=[[OP]] src=set dest=set code=set
// CHECK-NEXT: data_op: to_device begin src_dev 4 dest_dev 0 bytes=32 target_id=[[T]] op_id=[[OP:[0-9]+]] src=set dest=set code=set
// CHECK-NEXT: data_op: to_device end src_dev 4 dest_dev 0 bytes=32 target_id=[[T]] op_id=[[OP]] src=set dest=set code=set
// CHECK-NEXT: submit: begin target_id=[[T]]
// CHECK-NEXT: submit: end target_id=[[T]]
// CHECK-NEXT: data_op: from_device begin src_dev 0 dest_dev 4 bytes=64 target_id=[[T]]
// CHECK-NEXT: data_op: from_device end src_dev 0 dest_dev 4 bytes=64 target_id=[[T]]
// CHECK-NEXT: data_op: delete begin src_dev 0 dest_dev -1 bytes=0 target_id=[[T]]
// CHECK-NEXT: data_op: delete end src_dev 0 dest_dev -1 bytes=0 target_id=[[T]]
// CHECK-NEXT: data_op: delete begin
// CHECK-NEXT: data_op: delete end
// CHECK-NEXT: data_op: delete begin
// CHECK-NEXT: data_op: delete end
// CHECK-NEXT: target: target end dev 0 target_id=[[T]] codeptr=set

// enter data with two items: alloc, copy, alloc, copy.
// CHECK-NEXT: target: enter_data begin dev 0 target_id=[[E:[0-9]+]] codeptr=set
// CHECK-NEXT: data_op: alloc begin src_dev 4 dest_dev 0 bytes=16 target_id=[[E]]
// CHECK-NEXT: data_op: alloc end src_dev 4 dest_dev 0 bytes=16 target_id=[[E]]
// CHECK-NEXT: data_op: to_device begin src_dev 4 dest_dev 0 bytes=16 target_id=[[E]]
// CHECK-NEXT: data_op: to_device end src_dev 4 dest_dev 0 bytes=16 target_id=[[E]]
// CHECK-NEXT: data_op: alloc begin src_dev 4 dest_dev 0 bytes=24 target_id=[[E]]
// CHECK-NEXT: data_op: alloc end src_dev 4 dest_dev 0 bytes=24 target_id=[[E]]
// CHECK-NEXT: data_op: to_device begin src_dev 4 dest_dev 0 bytes=24 target_id=[[E]]
// CHECK-NEXT: data_op: to_device end src_dev 4 dest_dev 0 bytes=24 target_id=[[E]]
// CHECK-NEXT: target: enter_data end dev 0 target_id=[[E]] codeptr=set

// The routines, outside any construct: the copy between the two mapped
// buffers (device 0 to device 0) is one transfer.
// CHECK: data_op: from_device begin src_dev 0 dest_dev 0 bytes=16 target_id=0 op_id=[[OP:[0-9]+]] src=set dest=set code=set
// CHECK-NEXT: data_op: from_device end src_dev 0 dest_dev 0 bytes=16 target_id=0 op_id=[[OP]] src=set dest=set code=set
// CHECK: result: 15 50 7

// The non-EMI callback: one call per operation, same order and fields.
// NOEMI: target(noemi): target begin dev 0 target_id=[[T:[0-9]+]]
// NOEMI-NEXT: data_op(noemi): alloc src_dev 4 dest_dev 0 bytes=48 target_id=[[T]] op_id={{[0-9]+}} code=set
// NOEMI-NEXT: data_op(noemi): alloc src_dev 4 dest_dev 0 bytes=64 target_id=[[T]]
// NOEMI-NEXT: data_op(noemi): to_device src_dev 4 dest_dev 0 bytes=64 target_id=[[T]] op_id={{[0-9]+}} code=set
// NOEMI-NEXT: data_op(noemi): alloc src_dev 4 dest_dev 0 bytes=32 target_id=[[T]]
// NOEMI-NEXT: data_op(noemi): to_device src_dev 4 dest_dev 0 bytes=32 target_id=[[T]]
// NOEMI: data_op(noemi): from_device src_dev 0 dest_dev 0 bytes=16 target_id=0 op_id={{[0-9]+}} code=set

// The trace keeps the order the operations happened in (the allocations
// are made while the list is planned, before any copy), so a thread's
// record times never go back.
// TRACE: trace: dev 0 target target begin target_id=[[T:[0-9]+]]
// TRACE-NEXT: trace: dev 0 data_op alloc bytes=48 target_id=[[T]]
// TRACE-NEXT: trace: dev 0 data_op alloc bytes=64 target_id=[[T]]
// TRACE-NEXT: trace: dev 0 data_op alloc bytes=32 target_id=[[T]]
// TRACE-NEXT: trace: dev 0 data_op to_device bytes=64 target_id=[[T]]
// TRACE-NEXT: trace: dev 0 data_op to_device bytes=32 target_id=[[T]]
// TRACE-NOT: DECREASE
// TRACE: trace: buffer 3 delivered (owned), 24 records so far, times non-decreasing

// Upstream's runtime gives the same order.
// ORDER: target: target begin
// ORDER-NEXT: data_op: alloc begin src_dev 4 dest_dev 0 bytes=48
// ORDER-NEXT: data_op: alloc end src_dev 4 dest_dev 0 bytes=48
// ORDER-NEXT: data_op: alloc begin src_dev 4 dest_dev 0 bytes=64
// ORDER-NEXT: data_op: alloc end src_dev 4 dest_dev 0 bytes=64
// ORDER-NEXT: data_op: to_device begin src_dev 4 dest_dev 0 bytes=64
// ORDER-NEXT: data_op: to_device end src_dev 4 dest_dev 0 bytes=64
// ORDER-NEXT: data_op: alloc begin src_dev 4 dest_dev 0 bytes=32
// ORDER: result: 15 50 7
// clang-format on
#include <omp.h>
#include <stdio.h>

int main(void) {
  int a[8], c[12], b[16];
  int x[4] = {1, 2, 3, 4}, y[6] = {0};
  for (int i = 0; i < 8; ++i)
    a[i] = i;
  for (int i = 0; i < 16; ++i)
    b[i] = 1;
#pragma omp target map(to : a) map(alloc : c) map(tofrom : b)
  {
    for (int i = 0; i < 12; ++i)
      c[i] = i;
    for (int i = 0; i < 8; ++i)
      b[i] += a[i] + c[i];
  }
#pragma omp target enter data map(to : x) map(to : y)
  int *dx = omp_get_mapped_ptr(x, 0), *dy = omp_get_mapped_ptr(y, 0);
  omp_target_memcpy(dy, dx, sizeof x, 0, 0, 0, 0);
#pragma omp target exit data map(from : y) map(delete : x)
  printf("result: %d %d %d\n", b[7], y[0] + y[1] + y[2] + y[3] + 40,
         b[0] + 6);
  fflush(stdout);
  return 0;
}
