// Naive matrix product, collapse(2) with an inner sequential loop.
#include <cstdio>
#define N 256
static float a[N][N], b[N][N], c[N][N];
int main() {
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) { a[i][j] = i - j; b[i][j] = i + j; }
#pragma omp target teams distribute parallel for collapse(2) map(to : a, b) map(from : c)
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      float s = 0;
      for (int k = 0; k < N; ++k) s += a[i][k] * b[k][j];
      c[i][j] = s;
    }
  std::printf("%f\n", c[7][9]);
}
