// A shared library with its own device image: its target region calls
// pointers to its own indirect functions, taken on the host by the program.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %clangxx -fopenmp -fopenmp-targets=%target-cpu -fPIC -shared %S/Inputs/indirect-lib.cpp -o %t.dir/libindirect.so
// RUN: %clangxx -fopenmp -fopenmp-targets=%target-cpu %s -L%t.dir -lindirect -Wl,-rpath,%t.dir -o %t
// RUN: %ours-run %t | FileCheck %s
// Images linked by our wrapper also run on Debian's runtime, which builds
// the same table.
// RUN: %upstream-run %t | FileCheck %s
// REQUIRES: our-libomptarget, our-linker-wrapper, our-cpu-device-runtime, indirect-plugin

#include <omp.h>
#include <stdio.h>

int (*libPointer(int Which))(int);
int libApply(int (*Fn)(int), int X);

int main() {
  // CHECK: library function in library region: 15
  printf("library function in library region: %d\n",
         libApply(libPointer(0), 5));
  // CHECK: library function in library region: -5
  printf("library function in library region: %d\n",
         libApply(libPointer(1), 5));
  return 0;
}
