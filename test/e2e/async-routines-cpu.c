// The omp_target_*_async routines on the CPU device, with the program the
// emulated GPU runs (emulator/async-routines.test): right data, and depend
// objects ordering them with nowait target regions both ways. The CPU
// device has no queues: a routine waits for its dependences and runs in the
// call (as before), so only the data and the order are checked here, with
// the program's kernels waiting for their flags a bounded number of polls
// (`bounded`: here no flag can be set while its kernel waits).
// REQUIRES: our-libomptarget
// RUN: %clang -fopenmp -fopenmp-targets=%target-cpu %S/../emulator/Inputs/async-routines.c -o %t
// RUN: env OMP_TARGET_OFFLOAD=mandatory %ours-run %t bounded 2>&1 | FileCheck %s --implicit-check-not='omptarget error'

// CHECK: data: 0 wrong
// CHECK: dependences: 0 wrong
