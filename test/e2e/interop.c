// `#pragma omp interop` on the CPU device: init with depend waits for the
// preceding task, the object reports its device and, since the CPU device
// has no foreign runtime, "no value" for the foreign properties; the
// accessors check types; destroy sets the variable back to omp_interop_none.
// On the host (the initial device) there is no interop object.
// REQUIRES: our-libomptarget
// RUN: %clang -fopenmp -fopenmp-targets=%target-cpu %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=mandatory %ours-run %t | FileCheck %s
#include <omp.h>
#include <stdio.h>

int main(void) {
  int A[64];
  for (int I = 0; I < 64; ++I)
    A[I] = 0;
  int Dev = omp_get_num_devices() - 1;
  omp_interop_t Obj = omp_interop_none;

#pragma omp target map(tofrom : A) depend(out : A) nowait device(Dev)
  for (int I = 0; I < 64; ++I)
    A[I] += I;

  // The depend clause waits for the target task above.
#pragma omp interop init(targetsync : Obj) device(Dev) depend(inout : A)
  // CHECK: init: live=1 a63=63
  printf("init: live=%d a63=%d\n", Obj != omp_interop_none, A[63]);

  int Err = 99;
  // CHECK: device_num=3 err=0 name=device_num type=int
  printf("device_num=%d err=%d name=%s type=%s\n",
         (int)omp_get_interop_int(Obj, omp_ipr_device_num, &Err), Err,
         omp_get_interop_name(Obj, omp_ipr_device_num),
         omp_get_interop_type_desc(Obj, omp_ipr_device_num));
  const char *FrName = omp_get_interop_str(Obj, omp_ipr_fr_name, &Err);
  // CHECK: fr_name=(null) err=1 desc=the parameters are valid, but the property has no value on this device
  printf("fr_name=%s err=%d desc=%s\n", FrName ? FrName : "(null)", Err,
         omp_get_interop_rc_desc(Obj, (omp_interop_rc_t)Err));
  void *Sync = omp_get_interop_ptr(Obj, omp_ipr_targetsync, &Err);
  // CHECK: targetsync=null err=1
  printf("targetsync=%s err=%d\n", Sync ? "set" : "null", Err);
  // Wrong accessor: device_num is an int.
  omp_get_interop_ptr(Obj, omp_ipr_device_num, &Err);
  // CHECK: ptr-of-int err=-3
  printf("ptr-of-int err=%d\n", Err);
  // Out of range: no implementation-defined properties.
  omp_get_interop_int(Obj, (omp_interop_property_t)0, &Err);
  // CHECK: out-of-range err=-2 count=0
  printf("out-of-range err=%d count=%d\n", Err,
         omp_get_num_interop_properties(Obj));

#pragma omp interop use(Obj)
#pragma omp interop destroy(Obj) depend(out : A)
  // CHECK: destroyed: none=1
  printf("destroyed: none=%d\n", Obj == omp_interop_none);
  omp_get_interop_int(Obj, omp_ipr_device_num, &Err);
  // CHECK: after destroy err=-1
  printf("after destroy err=%d\n", Err);

  omp_interop_t HostObj = omp_interop_none;
  int Host = omp_get_initial_device();
#pragma omp interop init(target : HostObj) device(Host)
  // CHECK: host: none=1
  printf("host: none=%d\n", HostObj == omp_interop_none);
  return 0;
}
