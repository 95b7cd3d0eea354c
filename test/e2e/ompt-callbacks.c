// OMPT: a tool (Inputs/ompt-tool.c, found through OMP_TOOL_LIBRARIES and
// started by libomp) gets device_initialize, device_load, target_emi,
// target_data_op_emi and target_submit_emi for a data region with a kernel
// and an update, and enter/exit data around a nowait kernel; the identifiers
// the tool sets at each begin come back at the end and in the operations
// nested in the construct. A second run registers the non-EMI callbacks.
// The last runs give the same program and tool to Debian's runtime.
// REQUIRES: our-libomptarget
// RUN: %clang -shared -fPIC %S/Inputs/ompt-tool.c -o %t.tool.so
// RUN: %clang -fopenmp -fopenmp-targets=%target-cpu %S/Inputs/ompt-program.c -o %t
// RUN: env OMP_TARGET_OFFLOAD=mandatory OMP_TOOL_LIBRARIES=%t.tool.so %ours-run %t | FileCheck %s
// RUN: env OMP_TARGET_OFFLOAD=mandatory OMP_TOOL_LIBRARIES=%t.tool.so OMPT_TEST_NOEMI=1 %ours-run %t | FileCheck %s --check-prefix=NOEMI
// RUN: env OMP_TARGET_OFFLOAD=mandatory OMP_TOOL_LIBRARIES=%t.tool.so %upstream-run %t | FileCheck %s --check-prefix=UPSTREAM
// clang-format off

// The tool watches devices (device_initialize): all four CPU devices are
// initialized at start-up, as upstream does; only the one used loads the
// program's image, on first use.
// CHECK: tool: initialized
// CHECK-NEXT: device_initialize: dev 0 type=generic-64bit lookup=yes
// CHECK-NEXT: device_initialize: dev 1 type=generic-64bit lookup=yes
// CHECK-NEXT: device_initialize: dev 2 type=generic-64bit lookup=yes
// CHECK-NEXT: device_initialize: dev 3 type=generic-64bit lookup=yes
// CHECK-NEXT: main: start
// CHECK-NEXT: device_load: dev 0 bytes>0=1 host_addr=set

// target data map(tofrom: a): an allocation of a's 256 bytes, then the copy.
// CHECK-NEXT: target: enter_data begin dev 0 target_id=[[DATA:[0-9]+]] codeptr=set
// CHECK-NEXT: data_op: alloc begin src_dev 4 dest_dev 0 bytes=256 target_id=[[DATA]] op_id=[[OP:[0-9]+]] src=set dest=null
// CHECK-NEXT: data_op: alloc end src_dev 4 dest_dev 0 bytes=256 target_id=[[DATA]] op_id=[[OP]] src=set dest=set
// CHECK-NEXT: data_op: to_device begin src_dev 4 dest_dev 0 bytes=256 target_id=[[DATA]] op_id=[[OP:[0-9]+]] src=set dest=set
// CHECK-NEXT: data_op: to_device end src_dev 4 dest_dev 0 bytes=256 target_id=[[DATA]] op_id=[[OP]] src=set dest=set
// CHECK-NEXT: target: enter_data end dev 0 target_id=[[DATA]] codeptr=set

// The kernel: a is present, so no data operation; one submission.
// CHECK-NEXT: target: target begin dev 0 target_id=[[T:[0-9]+]] codeptr=set
// CHECK-NEXT: submit: begin target_id=[[T]] op_id=[[OP:[0-9]+]] teams=1
// CHECK-NEXT: submit: end target_id=[[T]] op_id=[[OP]] teams=1
// CHECK-NEXT: target: target end dev 0 target_id=[[T]] codeptr=set

// CHECK-NEXT: target: update begin dev 0 target_id=[[U:[0-9]+]] codeptr=set
// CHECK-NEXT: data_op: from_device begin src_dev 0 dest_dev 4 bytes=256 target_id=[[U]] op_id=[[OP:[0-9]+]] src=set dest=set
// CHECK-NEXT: data_op: from_device end src_dev 0 dest_dev 4 bytes=256 target_id=[[U]] op_id=[[OP]] src=set dest=set
// CHECK-NEXT: target: update end dev 0 target_id=[[U]] codeptr=set

// End of the data region: copy back, then free.
// CHECK-NEXT: target: exit_data begin dev 0 target_id=[[X:[0-9]+]] codeptr=set
// CHECK-NEXT: data_op: from_device begin src_dev 0 dest_dev 4 bytes=256 target_id=[[X]] op_id=[[OP:[0-9]+]] src=set dest=set
// CHECK-NEXT: data_op: from_device end src_dev 0 dest_dev 4 bytes=256 target_id=[[X]] op_id=[[OP]] src=set dest=set
// CHECK-NEXT: data_op: delete begin src_dev 0 dest_dev -1 bytes=0 target_id=[[X]] op_id=[[OP:[0-9]+]] src=set dest=null
// CHECK-NEXT: data_op: delete end src_dev 0 dest_dev -1 bytes=0 target_id=[[X]] op_id=[[OP]] src=set dest=null
// CHECK-NEXT: target: exit_data end dev 0 target_id=[[X]] codeptr=set

// CHECK-NEXT: target: enter_data begin dev 0 target_id=[[E:[0-9]+]] codeptr=set
// CHECK-NEXT: data_op: alloc begin src_dev 4 dest_dev 0 bytes=64 target_id=[[E]]
// CHECK-NEXT: data_op: alloc end src_dev 4 dest_dev 0 bytes=64 target_id=[[E]]
// CHECK-NEXT: data_op: to_device begin src_dev 4 dest_dev 0 bytes=64 target_id=[[E]]
// CHECK-NEXT: data_op: to_device end src_dev 4 dest_dev 0 bytes=64 target_id=[[E]]
// CHECK-NEXT: target: enter_data end dev 0 target_id=[[E]] codeptr=set

// target nowait: reported with OpenMP 5.1's ompt_target_nowait kind.
// CHECK-NEXT: target: target_nowait begin dev 0 target_id=[[N:[0-9]+]] codeptr=set
// CHECK-NEXT: submit: begin target_id=[[N]] op_id=[[OP:[0-9]+]] teams=1
// CHECK-NEXT: submit: end target_id=[[N]] op_id=[[OP]] teams=1
// CHECK-NEXT: target: target_nowait end dev 0 target_id=[[N]] codeptr=set

// CHECK-NEXT: target: exit_data begin dev 0 target_id=[[XB:[0-9]+]] codeptr=set
// CHECK-NEXT: data_op: from_device begin src_dev 0 dest_dev 4 bytes=64 target_id=[[XB]]
// CHECK-NEXT: data_op: from_device end src_dev 0 dest_dev 4 bytes=64 target_id=[[XB]]
// CHECK-NEXT: data_op: delete begin src_dev 0 dest_dev -1 bytes=0 target_id=[[XB]]
// CHECK-NEXT: data_op: delete end src_dev 0 dest_dev -1 bytes=0 target_id=[[XB]]
// CHECK-NEXT: target: exit_data end dev 0 target_id=[[XB]] codeptr=set
// CHECK-NEXT: result: a[63]=64 b[15]=30
// Devices are finalized before libomp finalizes the tool.
// CHECK-NEXT: device_finalize: dev 0
// CHECK-NEXT: device_finalize: dev 1
// CHECK-NEXT: device_finalize: dev 2
// CHECK-NEXT: device_finalize: dev 3
// CHECK-NEXT: tool: finalized

// The non-EMI callbacks carry the runtime's identifiers.
// NOEMI: tool: initialized
// NOEMI-NEXT: device_initialize: dev 0 type=generic-64bit lookup=yes
// NOEMI-NEXT: device_initialize: dev 1 type=generic-64bit lookup=yes
// NOEMI-NEXT: device_initialize: dev 2 type=generic-64bit lookup=yes
// NOEMI-NEXT: device_initialize: dev 3 type=generic-64bit lookup=yes
// NOEMI-NEXT: main: start
// NOEMI-NEXT: device_load: dev 0
// NOEMI-NEXT: target(noemi): enter_data begin dev 0 target_id=[[DATA:[0-9]+]]
// NOEMI-NEXT: data_op(noemi): alloc src_dev 4 dest_dev 0 bytes=256 target_id=[[DATA]]
// NOEMI-NEXT: data_op(noemi): to_device src_dev 4 dest_dev 0 bytes=256 target_id=[[DATA]]
// NOEMI-NEXT: target(noemi): enter_data end dev 0 target_id=[[DATA]]
// NOEMI-NEXT: target(noemi): target begin dev 0 target_id=[[T:[0-9]+]]
// NOEMI-NEXT: submit(noemi): target_id=[[T]]
// NOEMI-NEXT: target(noemi): target end dev 0 target_id=[[T]]
// NOEMI-NEXT: target(noemi): update begin dev 0 target_id=[[U:[0-9]+]]
// NOEMI-NEXT: data_op(noemi): from_device src_dev 0 dest_dev 4 bytes=256 target_id=[[U]]
// NOEMI-NEXT: target(noemi): update end dev 0 target_id=[[U]]
// NOEMI: target(noemi): target_nowait begin dev 0 target_id=[[N:[0-9]+]]
// NOEMI-NEXT: submit(noemi): target_id=[[N]]
// NOEMI-NEXT: target(noemi): target_nowait end dev 0 target_id=[[N]]
// NOEMI: result: a[63]=64 b[15]=30
// NOEMI-NEXT: device_finalize: dev 0
// NOEMI-NEXT: device_finalize: dev 1
// NOEMI-NEXT: device_finalize: dev 2
// NOEMI-NEXT: device_finalize: dev 3
// NOEMI-NEXT: tool: finalized

// Debian's runtime: the same events for the constructs, with these
// differences: a 48-byte copy outside any construct precedes the first
// one, and the nowait kernel is reported as `target`.
// UPSTREAM: tool: initialized
// UPSTREAM: device_initialize: dev 0 type=generic-64bit lookup=yes
// UPSTREAM: main: start
// UPSTREAM: device_load: dev 0 bytes>0=1 host_addr=set
// UPSTREAM: target: enter_data begin dev 0 target_id=[[DATA:[0-9]+]] codeptr=set
// UPSTREAM-NEXT: data_op: alloc begin src_dev 4 dest_dev 0 bytes=256 target_id=[[DATA]]
// UPSTREAM-NEXT: data_op: alloc end src_dev 4 dest_dev 0 bytes=256 target_id=[[DATA]]
// UPSTREAM-NEXT: data_op: to_device begin src_dev 4 dest_dev 0 bytes=256 target_id=[[DATA]]
// UPSTREAM-NEXT: data_op: to_device end src_dev 4 dest_dev 0 bytes=256 target_id=[[DATA]]
// UPSTREAM-NEXT: target: enter_data end dev 0 target_id=[[DATA]] codeptr=set
// UPSTREAM-NEXT: target: target begin dev 0 target_id=[[T:[0-9]+]] codeptr=set
// UPSTREAM-NEXT: submit: begin target_id=[[T]]
// UPSTREAM-NEXT: submit: end target_id=[[T]]
// UPSTREAM-NEXT: target: target end dev 0 target_id=[[T]] codeptr=set
// UPSTREAM-NEXT: target: update begin dev 0
// UPSTREAM-NEXT: data_op: from_device begin src_dev 0 dest_dev 4 bytes=256
// UPSTREAM-NEXT: data_op: from_device end src_dev 0 dest_dev 4 bytes=256
// UPSTREAM-NEXT: target: update end dev 0
// UPSTREAM: target: target begin dev 0 target_id=[[N:[0-9]+]] codeptr=set
// UPSTREAM-NEXT: submit: begin target_id=[[N]]
// UPSTREAM-NEXT: submit: end target_id=[[N]]
// UPSTREAM-NEXT: target: target end dev 0 target_id=[[N]] codeptr=set
// UPSTREAM: result: a[63]=64 b[15]=30
// UPSTREAM-NEXT: device_finalize: dev 0
// UPSTREAM: tool: finalized
