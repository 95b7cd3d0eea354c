// zaxpy: y = a*x + y in std::complex<double>, offloaded with `target teams
// distribute parallel for`. Complex multiplication on the device goes
// through the complex runtime helpers (__muldc3 and friends, which the
// device must provide), and std::complex<double> is a 16-byte type mapped by
// value and in arrays. The inputs are small multiples of 1/2, so every
// product and sum is exact and the host result can be compared with ==.
#include "check.h"

#include <complex>
#include <vector>

namespace {

using Complex = std::complex<double>;

Complex initX(int I) { return Complex(I % 13 - 6, (I % 5) * 0.5); }
Complex initY(int I) { return Complex(I % 7, -(I % 3)); }

} // namespace

int main() {
  check::expectOffloaded();

  const int N = 3000017; // Odd, so the last block is partial.
  const Complex A(2.0, -0.5);
  std::vector<Complex> X(N), Y(N);
  for (int I = 0; I < N; ++I) {
    X[I] = initX(I);
    Y[I] = initY(I);
  }
  Complex *PX = X.data(), *PY = Y.data();
#pragma omp target teams distribute parallel for map(to : PX[0 : N])         \
    map(tofrom : PY[0 : N]) firstprivate(A)
  for (int I = 0; I < N; ++I)
    PY[I] = A * PX[I] + PY[I];

  int Wrong = 0, First = -1;
  for (int I = 0; I < N; ++I)
    if (Y[I] != A * initX(I) + initY(I) && Wrong++ == 0)
      First = I;
  CHECK(Wrong == 0, "%d wrong elements, first y[%d] = (%g, %g), expected "
        "(%g, %g)", Wrong, First, First >= 0 ? Y[First].real() : 0.0,
        First >= 0 ? Y[First].imag() : 0.0,
        First >= 0 ? (A * initX(First) + initY(First)).real() : 0.0,
        First >= 0 ? (A * initX(First) + initY(First)).imag() : 0.0);

  // A complex scalar computed on the device and mapped back: a product and
  // a quotient (the division goes through __divdc3).
  Complex Prod, Quot;
#pragma omp target map(from : Prod, Quot) firstprivate(A)
  {
    Prod = A * Complex(1.5, 4.0);
    Quot = Complex(17.0, -6.0) / Complex(3.0, 4.0);
  }
  CHECK(Prod == Complex(5.0, 7.25), "device (2-0.5i)*(1.5+4i) = (%g, %g)",
        Prod.real(), Prod.imag());
  // (17 - 6i)/(3 + 4i) = (51 - 24 - 68i - 18i)/25 = (27 - 86i)/25.
  CHECK(std::abs(Quot - Complex(1.08, -3.44)) < 1e-14,
        "device (17-6i)/(3+4i) = (%.17g, %.17g)", Quot.real(), Quot.imag());
  return check::verdict();
}
