// A dlopen'ed library registers its own images with the runtime and
// unregisters them at dlclose; opening it again works.
// REQUIRES: our-libomptarget
// RUN: %clang -fopenmp -fopenmp-targets=%target-cpu -fPIC -shared %S/Inputs/offload-lib.c -o %t.so
// RUN: %clang -fopenmp -fopenmp-targets=%target-cpu %s -o %t -ldl
// RUN: env OMP_TARGET_OFFLOAD=mandatory %ours-run %t %t.so | FileCheck %s
#include <dlfcn.h>
#include <omp.h>
#include <stdio.h>

int main(int argc, char **argv) {
  int x = 0;
#pragma omp target map(tofrom : x)
  x = 1;
  for (int round = 0; round < 2; ++round) {
    void *lib = dlopen(argv[1], RTLD_NOW);
    if (!lib) {
      printf("dlopen failed: %s\n", dlerror());
      return 1;
    }
    int (*scale)(int *, int) = (int (*)(int *, int))dlsym(lib, "scaleOnDevice");
    int v[4] = {1, 2, 3, 4};
    int last = scale(v, 4);
    // CHECK: round 0: last=12 v[0]=3
    // CHECK: round 1: last=12 v[0]=3
    printf("round %d: last=%d v[0]=%d\n", round, last, v[0]);
    dlclose(lib);
  }
#pragma omp target map(tofrom : x)
  x += 1;
  // CHECK: main x=2
  printf("main x=%d\n", x);
  return 0;
}
