// SPMD kernel, the simplest case: one combined construct, no runtime state.
#include <cstdio>
int main() {
  const int n = 1 << 20;
  static float x[1 << 20], y[1 << 20];
  for (int i = 0; i < n; ++i) { x[i] = i; y[i] = 1; }
  float a = 2.0f;
#pragma omp target teams distribute parallel for map(to : x) map(tofrom : y)
  for (int i = 0; i < n; ++i)
    y[i] = a * x[i] + y[i];
  std::printf("%f\n", y[n - 1]);
}
