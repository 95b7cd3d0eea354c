// A 2-D five-point stencil with collapse(2): SPMD with a collapsed loop nest.
#include <cstdio>
#define N 512
static double in[N][N], out[N][N];
int main() {
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) in[i][j] = i + j;
#pragma omp target teams distribute parallel for collapse(2) map(to : in) map(from : out)
  for (int i = 1; i < N - 1; ++i)
    for (int j = 1; j < N - 1; ++j)
      out[i][j] = 0.25 * (in[i - 1][j] + in[i + 1][j] + in[i][j - 1] + in[i][j + 1]);
  std::printf("%f\n", out[N / 2][N / 2]);
}
