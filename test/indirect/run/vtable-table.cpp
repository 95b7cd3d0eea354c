// The runtime pairs every slot of a registered host vtable with the same
// slot of the device copy (OMP_DECLARE_TARGET_INDIRECT_VTABLE entries, which
// clang emits for the classes of objects a target region maps): the vtable
// pointer of an object mapped from the host translates to the vtable
// pointer of an object of the same class built on the device.
// RUN: %clangxx -fopenmp -fopenmp-targets=%target-cpu -Wno-openmp-mapping %s -o %t
// RUN: %ours-run %t | FileCheck %s
// RUN: %upstream-run %t | FileCheck %s
// REQUIRES: our-libomptarget, our-linker-wrapper, our-cpu-device-runtime, indirect-plugin

#include <stdio.h>
#include <string.h>

#pragma omp begin declare variant match(device = {kind(nohost)})
extern "C" void *__llvm_omp_indirect_call_lookup(void *);
#pragma omp end declare variant
#pragma omp begin declare variant match(device = {kind(host)})
extern "C" void *__llvm_omp_indirect_call_lookup(void *P) { return P; }
#pragma omp end declare variant

#pragma omp declare target indirect
struct Animal {
  virtual int legs() { return 0; }
  virtual ~Animal() {}
};
struct Dog : Animal {
  int legs() override { return 4; }
};
#pragma omp end declare target

static void *vtablePointer(const void *Object) {
  void *Vptr;
  memcpy(&Vptr, Object, sizeof(Vptr));
  return Vptr;
}

int main() {
  Dog HostDog;
  void *HostVptr = vtablePointer(&HostDog);
  int Translated = 0, Differs = 0;
#pragma omp target map(to : HostDog) map(from : Translated, Differs)
  {
    Dog DeviceDog;
    void *DeviceVptr = vtablePointer(&DeviceDog);
    Differs = DeviceVptr != HostVptr;
    Translated = __llvm_omp_indirect_call_lookup(HostVptr) == DeviceVptr;
  }
  // CHECK: device vtable differs: 1, host vtable translates to it: 1
  printf("device vtable differs: %d, host vtable translates to it: %d\n",
         Differs, Translated);
  return 0;
}
