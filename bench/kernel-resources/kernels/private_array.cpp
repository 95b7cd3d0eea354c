// A private array indexed by a run-time value: it lives in the stack
// (local/private memory), whatever the runtime costs.
#include <cstdio>
int main() {
  const int n = 1 << 16;
  static int out[1 << 16];
#pragma omp target teams distribute parallel for map(from : out)
  for (int i = 0; i < n; ++i) {
    int buf[32];
    for (int k = 0; k < 32; ++k) buf[k] = i * k;
    out[i] = buf[i % 32] + buf[(i * 7) % 32];
  }
  std::printf("%d\n", out[100]);
}
