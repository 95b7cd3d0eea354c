// Offload from C++ and from C in one program; prints what the device
// computed, which the test compares with the exact values.
#include <cstdio>
#include <omp.h>

extern "C" int scaleOnDevice(long *y, int n, long factor);

int main() {
  const int n = 10000;
  static long y[n];
  for (int i = 0; i < n; ++i)
    y[i] = i;
  int cxxOnDevice = 0;
  long sum = 0;
#pragma omp target teams distribute parallel for map(tofrom : y[0 : n])      \
    reduction(+ : sum)
  for (int i = 0; i < n; ++i) {
    y[i] += 1;
    sum += y[i];
  }
#pragma omp target map(from : cxxOnDevice)
  cxxOnDevice = !omp_is_initial_device();
  int cOnDevice = scaleOnDevice(y, n, 3);
  // sum = 1 + 2 + ... + n; y[i] = 3 * (i + 1).
  std::printf("devices=%d cxx_on_device=%d c_on_device=%d sum=%ld "
              "y[0]=%ld y[9999]=%ld\n",
              omp_get_num_devices(), cxxOnDevice, cOnDevice, sum, y[0],
              y[n - 1]);
  return sum == 50005000L && y[n - 1] == 30000 ? 0 : 1;
}
