// Two reduction variables in one SPMD kernel: the runtime's cross-team
// reduction (scratch buffers, team counters) is the cost measured.
#include <cstdio>
int main() {
  const int n = 1 << 20;
  static double x[1 << 20], y[1 << 20];
  for (int i = 0; i < n; ++i) { x[i] = i * 0.5; y[i] = 1.0 / (i + 1); }
  double dot = 0, norm = 0;
#pragma omp target teams distribute parallel for map(to : x, y) reduction(+ : dot, norm)
  for (int i = 0; i < n; ++i) {
    dot += x[i] * y[i];
    norm += x[i] * x[i];
  }
  std::printf("%f %f\n", dot, norm);
}
