// The plugin in Debian's clang: device compilations get the lookup, the host
// compilation does not, at -O0 and -O2, for the CPU device and for NVPTX
// (the IR of the bitcode an NVPTX image is made from).
// RUN: clang++ -fopenmp -fopenmp-targets=%target-cpu -fpass-plugin=%indirect-plugin \
// RUN:   --offload-device-only -S -emit-llvm -O0 %s -o - \
// RUN:   -Rpass=offload-indirect-calls 2> %t.remarks | FileCheck %s --check-prefix=DEVICE
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: clang++ -fopenmp -fopenmp-targets=%target-cpu -fpass-plugin=%indirect-plugin \
// RUN:   --offload-device-only -S -emit-llvm -O2 %s -o - | FileCheck %s --check-prefix=DEVICE
// RUN: clang++ -fopenmp -fopenmp-targets=%target-cpu -fpass-plugin=%indirect-plugin \
// RUN:   --offload-host-only -S -emit-llvm -O2 %s -o - | FileCheck %s --check-prefix=HOST
// RUN: clang++ -fopenmp --offload-arch=sm_90 -nogpulib -fpass-plugin=%indirect-plugin \
// RUN:   --offload-device-only -S -emit-llvm -O2 %s -o - | FileCheck %s --check-prefixes=DEVICE,NVPTX
// REQUIRES: indirect-plugin

#pragma omp declare target indirect
int twice(int X) { return 2 * X; }
#pragma omp end declare target

int callThrough(int (*Fn)(int), int X) {
  int R = 0;
#pragma omp target map(from : R)
  // REMARK: clang-plugin.cpp:[[@LINE+1]]:{{[0-9]+}}: remark: indirect call routed through __llvm_omp_indirect_call_lookup
  R = Fn(X);
  return R;
}

// NVPTX: target triple = "nvptx64-nvidia-cuda"
// DEVICE: define {{.*}}@__omp_offloading_{{.*}}callThrough
// DEVICE: [[DEV:%[0-9a-z.]+]] = {{(tail )?}}call ptr @__llvm_omp_indirect_call_lookup(ptr
// DEVICE: {{call|invoke}} {{.*}}i32 [[DEV]](i32
// HOST-NOT: __llvm_omp_indirect_call_lookup
