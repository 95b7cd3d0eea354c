// OMPT device tracing: the tool (Inputs/ompt-tool.c with OMPT_TEST_TRACE=1)
// looks up the tracing entry points through the lookup function its
// device_initialize callback receives, enables the three record kinds of
// device 0 and starts tracing with buffers of 8 records. The records come
// back in order, in full buffers, after its ompt_flush_trace (called at the
// end of the `target update`) and at exit; their times are non-decreasing
// and ompt_translate_time agrees with the host's monotonic clock.
// REQUIRES: our-libomptarget
// RUN: %clang -shared -fPIC %S/Inputs/ompt-tool.c -o %t.tool.so
// RUN: %clang -fopenmp -fopenmp-targets=%target-cpu %S/Inputs/ompt-program.c -o %t
// RUN: env OMP_TARGET_OFFLOAD=mandatory OMP_TOOL_LIBRARIES=%t.tool.so OMPT_TEST_TRACE=1 %ours-run %t | FileCheck %s
// RUN: env OMP_TARGET_OFFLOAD=mandatory OMP_TOOL_LIBRARIES=%t.tool.so OMPT_TEST_TRACE=1 %ours-run %t | FileCheck %s --check-prefix=ORDER
// clang-format off

// CHECK: device_initialize: dev 0 type=generic-64bit lookup=yes
// CHECK-NEXT: trace: device time translates to the host clock: yes
// ompt_set_always (5) for the target records, ompt_set_never (1) otherwise.
// CHECK-NEXT: trace: set target 5 data_op 5 submit 5 other 1
// CHECK-NEXT: trace: start 1

// The first buffer fills up (8 records) during the update.
// CHECK: target: update begin dev 0
// CHECK: trace: dev 0 target enter_data begin target_id=[[DATA:[0-9]+]]
// CHECK-NEXT: trace: dev 0 data_op alloc bytes=256 target_id=[[DATA]]
// CHECK-NEXT: trace: dev 0 data_op to_device bytes=256 target_id=[[DATA]]
// CHECK-NEXT: trace: dev 0 target enter_data end target_id=[[DATA]]
// CHECK-NEXT: trace: dev 0 target target begin target_id=[[T:[0-9]+]]
// CHECK-NEXT: trace: dev 0 kernel teams=1 target_id=[[T]]
// CHECK-NEXT: trace: dev 0 target target end target_id=[[T]]
// CHECK-NEXT: trace: dev 0 target update begin target_id=[[U:[0-9]+]]
// CHECK-NEXT: trace: buffer 1 delivered (owned), 8 records so far, times non-decreasing
// The flush delivers the partly filled second buffer.
// CHECK: trace: dev 0 data_op from_device bytes=256 target_id=[[U]]
// CHECK-NEXT: trace: buffer 2 delivered (owned), 9 records so far, times non-decreasing
// CHECK-NEXT: trace: flush 1

// The rest comes at exit, before device_finalize.
// CHECK: result: a[63]=64 b[15]=30
// CHECK: trace: dev 0 target target_nowait begin target_id=[[N:[0-9]+]]
// CHECK-NEXT: trace: dev 0 kernel teams=1 target_id=[[N]]
// CHECK-NEXT: trace: dev 0 target target_nowait end target_id=[[N]]
// CHECK: trace: dev 0 target exit_data end
// CHECK-NEXT: trace: buffer 4 delivered (owned), 25 records so far, times non-decreasing
// CHECK-NEXT: device_finalize: dev 0
// The other CPU devices were initialized at start-up (the tool watches
// devices), untraced and unused.
// CHECK-NEXT: device_finalize: dev 1
// CHECK-NEXT: device_finalize: dev 2
// CHECK-NEXT: device_finalize: dev 3
// CHECK-NEXT: tool: finalized

// No record is lost or of another type, and times never go back.
// ORDER-NOT: DECREASE
// ORDER-NOT: BAD-END
// ORDER-NOT: unexpected type
// ORDER-NOT: missing entry points
// ORDER: tool: finalized
