// A C++ program offloaded to the CPU device through the C++ shim runs its
// target regions on the device, not on the host fallback.
// RUN: %clangxx -fopenmp -fopenmp-targets=%target-cpu %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=mandatory %run %t | FileCheck %s
#include <cstdio>
#include <omp.h>

int main() {
  const int n = 1 << 12;
  static double x[n], y[n];
  for (int i = 0; i < n; ++i) {
    x[i] = i;
    y[i] = 1;
  }
  int onHost = -1;
#pragma omp target teams distribute parallel for map(to : x[0 : n])          \
    map(tofrom : y[0 : n])
  for (int i = 0; i < n; ++i)
    y[i] += 2.0 * x[i];
#pragma omp target map(from : onHost)
  onHost = omp_is_initial_device();
  // CHECK: devices>0=1 on_host=0 y[0]=1 y[100]=201 y[4095]=8191
  std::printf("devices>0=%d on_host=%d y[0]=%g y[100]=%g y[4095]=%g\n",
              omp_get_num_devices() > 0, onHost, y[0], y[100], y[n - 1]);
}
