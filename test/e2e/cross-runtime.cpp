// Binaries are interchangeable between Debian's toolchain and ours: a
// program linked by Debian's driver and wrapper runs on our runtime, and a
// program built with our shims runs on Debian's runtime.
// REQUIRES: our-libomptarget
// Under a sanitizer, Debian's clang-linker-wrapper passes the host link's
// sanitizer runtime on to the CPU device image's link, which cannot put it
// in a shared object (TPOFF32 relocations, .preinit_array): the program
// built by Debian's toolchain cannot be linked.
// UNSUPPORTED: sanitizer
// RUN: %upstream-clangxx -fopenmp -fopenmp-targets=%target-cpu %s -o %t.upstream
// RUN: env OMP_TARGET_OFFLOAD=mandatory %ours-run %t.upstream | FileCheck %s
// RUN: %clangxx -fopenmp -fopenmp-targets=%target-cpu %s -o %t.ours
// RUN: env OMP_TARGET_OFFLOAD=mandatory %upstream-run %t.ours | FileCheck %s
// RUN: env OMP_TARGET_OFFLOAD=mandatory %ours-run %t.ours | FileCheck %s
#include <cstdio>
#include <omp.h>

#pragma omp declare target
int scale = 3;
#pragma omp end declare target

int main() {
  const int n = 1000;
  int v[n];
  for (int i = 0; i < n; ++i)
    v[i] = i;
  int onHost = -1;
#pragma omp target teams distribute parallel for map(tofrom : v)
  for (int i = 0; i < n; ++i)
    v[i] *= scale;
#pragma omp target map(from : onHost)
  onHost = omp_is_initial_device();
  // CHECK: devices=4 on_host=0 v[1]=3 v[999]=2997
  std::printf("devices=%d on_host=%d v[1]=%d v[999]=%d\n",
              omp_get_num_devices(), onHost, v[1], v[n - 1]);
}
