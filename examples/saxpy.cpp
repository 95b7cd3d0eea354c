// SAXPY offloaded to the default device: y = a * x + y.
//
//   <prefix>/bin/clang++ -fopenmp -fopenmp-targets=x86_64-pc-linux-gnu \
//       saxpy.cpp -o saxpy && ./saxpy
#include <cmath>
#include <cstdio>
#include <omp.h>
#include <vector>

int main() {
  const int n = 1000000;
  const float a = 2.0f;
  std::vector<float> xs(n), ys(n);
  for (int i = 0; i < n; ++i) {
    xs[i] = float(i);
    ys[i] = 1.0f;
  }
  float *x = xs.data(), *y = ys.data();

  int onHost = 1;
#pragma omp target teams distribute parallel for map(to : x[0 : n])          \
    map(tofrom : y[0 : n])
  for (int i = 0; i < n; ++i)
    y[i] = a * x[i] + y[i];
#pragma omp target map(from : onHost)
  onHost = omp_is_initial_device();

  int wrong = 0;
  for (int i = 0; i < n; ++i)
    wrong += std::fabs(y[i] - (a * float(i) + 1.0f)) > 1e-3f * y[i];
  std::printf("ran on: %s (device %d of %d)\n",
              onHost ? "the host" : "the offload device",
              omp_get_default_device(), omp_get_num_devices());
  std::printf("saxpy: n=%d a=%g y[0]=%.0f y[%d]=%.0f %s\n", n, a, y[0], n - 1,
              y[n - 1], wrong ? "WRONG" : "ok");
  return wrong != 0;
}
