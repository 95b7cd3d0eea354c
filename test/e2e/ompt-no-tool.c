// OMPT without a tool changes nothing: without a tool library, or with
// OMP_TOOL=disabled, the program runs as before, with no OMPT output. A
// tool needs no device_initialize callback to get the target callbacks
// (LLVM 22's libomp connects the target runtime whenever a tool is active).
// REQUIRES: our-libomptarget
// RUN: %clang -shared -fPIC %S/Inputs/ompt-tool.c -o %t.tool.so
// RUN: %clang -fopenmp -fopenmp-targets=%target-cpu %S/Inputs/ompt-program.c -o %t
// RUN: env OMP_TARGET_OFFLOAD=mandatory %ours-run %t | FileCheck %s --implicit-check-not=target: --implicit-check-not=data_op --implicit-check-not=device_
// RUN: env OMP_TARGET_OFFLOAD=mandatory OMP_TOOL=disabled OMP_TOOL_LIBRARIES=%t.tool.so %ours-run %t | FileCheck %s --implicit-check-not=target: --implicit-check-not=data_op --implicit-check-not=device_
// RUN: env OMP_TARGET_OFFLOAD=mandatory LIBOMPTARGET_INFO=0 %ours-run %t | FileCheck %s
// RUN: env OMP_TARGET_OFFLOAD=mandatory OMP_TOOL_LIBRARIES=%t.tool.so OMPT_TEST_NO_DEVICE_INITIALIZE=1 %ours-run %t | FileCheck %s --check-prefix=NOINIT --implicit-check-not=device_initialize
// NOINIT: tool: initialized
// NOINIT: target: enter_data begin dev 0
// NOINIT: result: a[63]=64 b[15]=30
// NOINIT: tool: finalized
// CHECK: result: a[63]=64 b[15]=30
