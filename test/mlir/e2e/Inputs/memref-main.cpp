// Host program for memref-maps.mlir. Each memref argument of an MLIR
// function is passed as the fields of its lowered descriptor: allocated
// pointer, aligned pointer, offset, sizes, strides.
#include <cstdint>
#include <cstdio>
#include <omp.h>
#include <vector>

extern "C" {
void update_static(float *, float *, int64_t, int64_t, int64_t, int64_t,
                   int64_t);
void axpy(double, double *, double *, int64_t, int64_t, int64_t, double *,
          double *, int64_t, int64_t, int64_t);
void fill_window(int32_t *, int32_t *, int64_t, int64_t, int64_t);
void twice_in_data_region(int32_t *, int32_t *, int64_t, int64_t, int64_t);
void enter(int32_t *, int32_t *, int64_t, int64_t, int64_t);
void add_ten(int32_t *, int32_t *, int64_t, int64_t, int64_t);
void update_from(int32_t *, int32_t *, int64_t, int64_t, int64_t);
void leave(int32_t *, int32_t *, int64_t, int64_t, int64_t);
}

int main() {
  std::printf("devices=%d\n", omp_get_num_devices());

  float m[4][8];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 8; ++j)
      m[i][j] = i * 8 + j;
  update_static(&m[0][0], &m[0][0], 0, 4, 8, 8, 1);
  int bad = 0;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 8; ++j)
      bad += m[i][j] != 2.0f * (i * 8 + j) + 1.0f;
  std::printf("static: bad=%d m[3][7]=%g\n", bad, m[3][7]);

  const int64_t n = 1000;
  std::vector<double> x(n), y(n);
  for (int64_t i = 0; i < n; ++i) {
    x[i] = i;
    y[i] = 1.0;
  }
  axpy(4.0, x.data(), x.data(), 0, n, 1, y.data(), y.data(), 0, n, 1);
  bad = 0;
  for (int64_t i = 0; i < n; ++i)
    bad += y[i] != 4.0 * i + 1.0;
  std::printf("dynamic: bad=%d y[999]=%g\n", bad, y[999]);

  // An empty memref maps no data; the kernel sees length 0.
  axpy(1.0, x.data(), x.data(), 0, 0, 1, y.data(), y.data(), 0, 0, 1);
  std::printf("empty: %s\n", y[0] == 1.0 ? "ok" : "changed");

  std::vector<int32_t> w(16, -1);
  fill_window(w.data(), w.data(), 0, 16, 1);
  std::printf("window:");
  for (int32_t e : w)
    std::printf(" %d", e);
  std::printf("\n");

  std::vector<int32_t> d(10);
  for (int i = 0; i < 10; ++i)
    d[i] = i;
  twice_in_data_region(d.data(), d.data(), 0, 10, 1);
  bad = 0;
  for (int i = 0; i < 10; ++i)
    bad += d[i] != 2 * i;
  std::printf("data region: bad=%d d[9]=%d\n", bad, d[9]);

  std::vector<int32_t> v(64);
  for (int i = 0; i < 64; ++i)
    v[i] = i;
  int32_t *p = v.data();
  enter(p, p, 0, 64, 1);
  add_ten(p, p, 0, 64, 1);
  std::printf("persistent: before update v[5]=%d\n", v[5]);
  update_from(p, p, 0, 64, 1);
  bad = 0;
  for (int i = 0; i < 64; ++i)
    bad += v[i] != i + 10;
  std::printf("persistent: after update v[5]=%d bad=%d\n", v[5], bad);
  v[5] = 15;
  leave(p, p, 0, 64, 1);
  std::printf("persistent: after exit v[5]=%d\n", v[5]);
  return 0;
}
