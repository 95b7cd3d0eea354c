// A C translation unit with its own target region, so the C flags of the
// project reach the device link as well.
#include <omp.h>

// Multiplies y[0..n) by factor on the default device; returns 1 when the
// region ran on the device, 0 when it ran on the host.
int scaleOnDevice(long *y, int n, long factor) {
  int onDevice = 0;
#pragma omp target teams distribute parallel for map(tofrom : y[0 : n])
  for (int i = 0; i < n; ++i)
    y[i] *= factor;
#pragma omp target map(from : onDevice)
  onDevice = !omp_is_initial_device();
  return onDevice;
}
