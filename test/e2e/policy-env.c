// OMP_TARGET_OFFLOAD and OMP_DEFAULT_DEVICE keep their upstream meanings:
// disabled runs everything on the host, the default device selects where
// regions run, and a missing device is fatal under mandatory.
// REQUIRES: our-libomptarget
// RUN: %clang -g -fopenmp -fopenmp-targets=%target-cpu %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=mandatory %ours-run %t | FileCheck %s --check-prefix=DEVICE
// RUN: env OMP_TARGET_OFFLOAD=disabled %ours-run %t | FileCheck %s --check-prefix=DISABLED
// RUN: env OMP_TARGET_OFFLOAD=mandatory OMP_DEFAULT_DEVICE=2 %ours-run %t | FileCheck %s --check-prefix=DEFAULT2
// RUN: env OMP_TARGET_OFFLOAD=mandatory LIBOMPTARGET_HOST_NUM_DEVICES=0 not --crash %ours-run %t 2>&1 | FileCheck %s --check-prefix=NODEVICE
// RUN: env LIBOMPTARGET_HOST_NUM_DEVICES=0 %ours-run %t | FileCheck %s --check-prefix=FALLBACK
// clang-format off
// DEVICE: devices=4 on-host=0 x=11 present-in-region=1
// DISABLED: devices=0 on-host=1 x=11 present-in-region=1
// DEFAULT2: devices=4 on-host=0 x=11 present-in-region=1 on-device-2=1
// NODEVICE: omptarget error: target {{.*}}at {{.*}}policy-env.c:{{[0-9]+}}:{{[0-9]+}}: device 0 is not available (0 device(s))
// NODEVICE: omptarget fatal error 1: failure of target construct while offloading is mandatory
// FALLBACK: devices=0 on-host=1 x=11 present-in-region=1
// clang-format on
#include <omp.h>
#include <stdio.h>

int main(void) {
  int onHost = -1, x = 1, presentInRegion = 0;
  int dev = omp_get_default_device();
#pragma omp target data map(tofrom : x)
  {
    presentInRegion = omp_target_is_present(&x, dev) ||
                      dev == omp_get_initial_device();
#pragma omp target map(from : onHost) map(tofrom : x)
    {
      onHost = omp_is_initial_device();
      x += 10;
    }
  }
  printf("devices=%d on-host=%d x=%d present-in-region=%d", omp_get_num_devices(),
         onHost, x, presentInRegion);
  if (dev == 2)
    printf(" on-device-2=%d", omp_get_mapped_ptr(&x, 2) == NULL);
  printf("\n");
  return 0;
}
