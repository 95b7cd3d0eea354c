// expf, sqrtf and logf in a target region: ocml's float functions, which
// read __oclc_daz_opt (see amdgpu/ocml-float-math.test).
#include <cmath>
#include <cstdio>
int main() {
  float r[4];
#pragma omp target map(from: r)
  for (int i = 0; i < 4; ++i) r[i] = expf(float(i)) + sqrtf(float(i)) + logf(float(i + 1));
  printf("%.4f %.4f\n", r[1], r[3]);
}
