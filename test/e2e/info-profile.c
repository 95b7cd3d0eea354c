// LIBOMPTARGET_INFO reports launches with their maps and mapping changes;
// LIBOMPTARGET_PROFILE writes a Chrome trace with registrations, transfers
// and kernels.
// REQUIRES: our-libomptarget
// RUN: %clang -g -fopenmp -fopenmp-targets=%target-cpu %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=mandatory LIBOMPTARGET_INFO=-1 %ours-run %t 2>&1 | FileCheck %s --check-prefix=INFO
// RUN: rm -f %t.json
// RUN: env OMP_TARGET_OFFLOAD=mandatory LIBOMPTARGET_PROFILE=%t.json %ours-run %t
// RUN: FileCheck %s --check-prefix=TRACE < %t.json
// RUN: python3 -c "import json,sys; e=json.load(open(sys.argv[1]))['traceEvents']; sys.exit(0 if len(e) >= 4 else 1)" %t.json
// clang-format off
#include <stdio.h>

int main(void) {
  int values[32];
  for (int i = 0; i < 32; ++i)
    values[i] = i;
  // INFO: omptarget device 0 info: Entering OpenMP kernel at {{.*}}info-profile.c:[[@LINE+4]]:{{[0-9]+}} with 1 arguments:
  // INFO: omptarget device 0 info: tofrom(values)[128]
  // INFO: Creating new map entry with HstPtrBase=0x{{.*}}, Size=128, DynRefCount=1, HoldRefCount=0, Name=values
  // INFO: Launching kernel __omp_offloading_{{.*}}main_l[[@LINE+1]]
#pragma omp target map(tofrom : values)
  for (int i = 0; i < 32; ++i)
    values[i] += 1;
  // INFO: Removing map entry with HstPtrBegin=0x{{.*}}, Size=128, Name=values
  printf("values[31]=%d\n", values[31]);
  return values[31] != 32;
}
// TRACE: "traceEvents"
// TRACE-DAG: "name":"register library"
// TRACE-DAG: "name":"load image"
// TRACE-DAG: "name":"data submit"
// TRACE-DAG: "name":"kernel"
// TRACE-DAG: "name":"data retrieve"
