// fmodf, powf, tgammaf and erff in a target region: ocml's float functions,
// which read __oclc_daz_opt (see amdgpu/ocml-float-math.test).
#include <cmath>
#include <cstdio>
int main() {
  float r[4];
  float y = 1.7f;
#pragma omp target map(from: r) firstprivate(y)
  for (int i = 0; i < 4; ++i) r[i] = fmodf(float(i) + 0.5f, y) + powf(y, float(i)) + tgammaf(y + i) + erff(y * i);
  printf("%.4f %.4f\n", r[1], r[3]);
}
