// The runtime installs one table per device holding the indirect functions
// of every loaded image, so a pointer to a function of the program works in
// a target region of a library and the other way round, and a library
// dlopen'ed after kernels have run extends the table of the images already
// loaded.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %clangxx -fopenmp -fopenmp-targets=%target-cpu -fPIC -shared %S/Inputs/indirect-lib.cpp -o %t.dir/libindirect.so
// RUN: %clangxx -fopenmp -fopenmp-targets=%target-cpu %s -L%t.dir -lindirect -Wl,-rpath,%t.dir -o %t
// RUN: %ours-run %t | FileCheck %s
// RUN: %upstream-run %t | FileCheck %s
// RUN: %clangxx -fopenmp -fopenmp-targets=%target-cpu -DLOAD_LATER %s -ldl -o %t.later
// RUN: %ours-run %t.later %t.dir/libindirect.so | FileCheck %s --check-prefix=LATER
// RUN: %upstream-run %t.later %t.dir/libindirect.so | FileCheck %s --check-prefix=LATER
// REQUIRES: our-libomptarget, our-linker-wrapper, our-cpu-device-runtime, indirect-plugin

#include <omp.h>
#include <stdio.h>
#ifdef LOAD_LATER
#include <dlfcn.h>
#endif

typedef int (*Op)(int);

#pragma omp declare target indirect
int mainSquare(int X) { return 1000 * omp_is_initial_device() + X * X; }
#pragma omp end declare target

static int applyHere(Op Fn, int X) {
  int R = 0;
#pragma omp target map(from : R)
  R = Fn(X);
  return R;
}

#ifndef LOAD_LATER
Op libPointer(int Which);
int libApply(Op Fn, int X);

int main() {
  // CHECK: program function in library region: 49
  printf("program function in library region: %d\n", libApply(mainSquare, 7));
  // CHECK: library function in program region: 15 -5
  printf("library function in program region: %d %d\n",
         applyHere(libPointer(0), 5), applyHere(libPointer(1), 5));
  return 0;
}
#else
int main(int Argc, char **Argv) {
  // LATER: before: 9
  printf("before: %d\n", applyHere(mainSquare, 3));
  void *Lib = dlopen(Argv[1], RTLD_NOW);
  if (!Lib) {
    printf("dlopen failed: %s\n", dlerror());
    return 1;
  }
  Op (*LibPointer)(int) = (Op(*)(int))dlsym(Lib, "_Z10libPointeri");
  int (*LibApply)(Op, int) = (int (*)(Op, int))dlsym(Lib, "_Z8libApplyPFiiEi");
  // LATER: after dlopen: 15 -5 49
  printf("after dlopen: %d %d %d\n", applyHere(LibPointer(0), 5),
         applyHere(LibPointer(1), 5), LibApply(mainSquare, 7));
  return 0;
}
#endif
