// The ZAXPY example of the offloading design document: Y = D * X + Y on
// complex numbers, in a target region inside a target data region.
#include <complex>
#include <cstdio>

using complex = std::complex<double>;

void zaxpy(complex *X, complex *Y, complex D, std::size_t N) {
#pragma omp target teams distribute parallel for
  for (std::size_t i = 0; i < N; ++i)
    Y[i] = D * X[i] + Y[i];
}

int main() {
  const std::size_t N = 1024;
  static complex X[N], Y[N];
  complex D(2.0, 1.0);
  for (std::size_t i = 0; i < N; ++i) {
    X[i] = complex(double(i), 1.0);
    Y[i] = complex(1.0, double(i));
  }
#pragma omp target data map(to : X[0 : N]) map(tofrom : Y[0 : N])
  zaxpy(X, Y, D, N);
  // D * X[i] + Y[i] = (2i - 1 + 1) + (i + 2 + i)j: the sum over i of
  // real + imag parts is sum(4i + 2) = 2097152, and Y[10] = 20+22j.
  double Sum = 0;
  for (std::size_t i = 0; i < N; ++i)
    Sum += Y[i].real() + Y[i].imag();
  std::printf("zaxpy sum=%.1f y10=(%.1f,%.1f)\n", Sum, Y[10].real(),
              Y[10].imag());
  return Sum == 2097152.0 ? 0 : 1;
}
