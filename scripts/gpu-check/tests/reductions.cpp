// reductions: `target teams distribute parallel for reduction(op : var)` for
// +, *, min and max over int, float and double, and + and * over
// std::complex<double> (through `declare reduction`, since OpenMP has no
// built-in complex reductions in C++). Each runs over trip counts 1, 3, 1023,
// 10^8 and 100000007 (about a second in all on the CPU device; the large
// counts can be given as arguments), so the combination across threads,
// warps, teams and a partial last block is all exercised. The values come
// from the index, so no arrays are needed, and they are chosen so that the
// exact result is known analytically and every partial result is exact in
// its type, whatever order the device combines them in: the checks compare
// with ==. Finally, one reduction across `target teams distribute` with a
// nested `parallel for` reduction.
#include "check.h"

#include <cinttypes>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdlib>
#include <vector>

using Complex = std::complex<double>;

#pragma omp declare reduction(+ : Complex : omp_out += omp_in)               \
    initializer(omp_priv = Complex(0, 0))
#pragma omp declare reduction(* : Complex : omp_out *= omp_in)               \
    initializer(omp_priv = Complex(1, 0))

namespace {

// How many I in [0, N) have I % M == R.
int64_t countResidue(int64_t N, int64_t M, int64_t R) {
  return N > R ? (N - R - 1) / M + 1 : 0;
}

// Sum of I % 7 for I in [0, N).
int64_t sumMod7(int64_t N) {
  int64_t S = N / 7 * 21;
  for (int64_t R = 0; R < N % 7; ++R)
    S += R;
  return S;
}

// A scrambled value in [0, 1000000); the extremes are planted separately.
#pragma omp declare target
inline int scrambled(int I) {
  return int((uint32_t(I) * 2654435761u >> 8) % 1000000u);
}
#pragma omp end declare target

// Sums: int and double add I % 7 (exact: at most 7 * 10^8 < 2^31 and
// < 2^53). Float adds +1/-1 alternately (partial sums stay tiny) plus, every
// 65536th index, a larger multiple of 1/2; all partial sums are small
// multiples of 1/2, exact in float.
void sums(int N) {
  int SI = 0;
  double SD = 0;
  float SF = 0;
#pragma omp target teams distribute parallel for reduction(+ : SI, SD, SF)   \
    map(tofrom : SI, SD, SF)
  for (int I = 0; I < N; ++I) {
    SI += I % 7;
    SD += double(I % 7);
    SF += ((I & 1) ? -1.0f : 1.0f) +
          ((I & 0xffff) == 0 ? float((I >> 16) % 7) + 0.5f : 0.0f);
  }
  float ExpectF = (N & 1) ? 1.0f : 0.0f;
  for (int64_t K = 0; K * 65536 < N; ++K)
    ExpectF += float(K % 7) + 0.5f;
  CHECK(SI == sumMod7(N), "int + over %d: %d, expected %" PRId64, N, SI,
        sumMod7(N));
  CHECK(SD == double(sumMod7(N)), "double + over %d: %.17g, expected %" PRId64,
        N, SD, sumMod7(N));
  CHECK(SF == ExpectF, "float + over %d: %.9g, expected %.9g", N, SF,
        ExpectF);
}

// Products: mostly 1, with a factor at I % 10^6 == 17 and another at
// I % (3 * 10^6) == 500017 (never the same index). Int: -1 and 3 would
// overflow, so int uses -1 and 1 only, plus a single 6 at the last index.
// Float and double use 2 and -1/2, so the product is +-2^k, exact.
void products(int N) {
  int PI = 1;
  float PF = 1;
  double PD = 1;
#pragma omp target teams distribute parallel for reduction(* : PI, PF, PD)   \
    map(tofrom : PI, PF, PD)
  for (int I = 0; I < N; ++I) {
    bool Up = I % 1000000 == 17, Down = I % 3000000 == 500017;
    PI *= I == N - 1 ? 6 : (Up || Down ? -1 : 1);
    PF *= Up ? 2.0f : (Down ? -0.5f : 1.0f);
    PD *= Up ? 2.0 : (Down ? -0.5 : 1.0);
  }
  // The last index never has Up or Down for the sizes used here (checked).
  int64_t Ups = countResidue(N, 1000000, 17);
  int64_t Downs = countResidue(N, 3000000, 500017);
  bool LastPlain = (N - 1) % 1000000 != 17 && (N - 1) % 3000000 != 500017;
  CHECK(LastPlain, "test bug: size %d puts a factor on the last index", N);
  int ExpectI = ((Ups + Downs) % 2 ? -6 : 6);
  double ExpectD = ((Downs % 2) ? -1.0 : 1.0) *
                   std::ldexp(1.0, int(Ups - Downs));
  CHECK(PI == ExpectI, "int * over %d: %d, expected %d", N, PI, ExpectI);
  CHECK(PF == float(ExpectD), "float * over %d: %.9g, expected %.9g", N, PF,
        ExpectD);
  CHECK(PD == ExpectD, "double * over %d: %.17g, expected %.17g", N, PD,
        ExpectD);
}

// Min and max: scrambled values in [0, 10^6) with one planted extreme near
// two thirds of the range, so it lands in some middle team and thread.
void minMax(int N) {
  const int Planted = int(int64_t(N) * 2 / 3);
  int MinI = 1 << 30, MaxI = -(1 << 30);
  float MinF = 1e30f, MaxF = -1e30f;
  double MinD = 1e300, MaxD = -1e300;
#pragma omp target teams distribute parallel for                            \
    reduction(min : MinI, MinF, MinD) reduction(max : MaxI, MaxF, MaxD)      \
    map(tofrom : MinI, MaxI, MinF, MaxF, MinD, MaxD)
  for (int I = 0; I < N; ++I) {
    int V = scrambled(I);
    int Lo = I == Planted ? -77 : V, Hi = I == Planted ? 1000077 : V;
    MinI = Lo < MinI ? Lo : MinI;
    MaxI = Hi > MaxI ? Hi : MaxI;
    MinF = float(Lo) - 0.5f < MinF ? float(Lo) - 0.5f : MinF;
    MaxF = float(Hi) + 0.5f > MaxF ? float(Hi) + 0.5f : MaxF;
    MinD = double(Lo) * 0.25 < MinD ? double(Lo) * 0.25 : MinD;
    MaxD = double(Hi) * 0.25 > MaxD ? double(Hi) * 0.25 : MaxD;
  }
  CHECK(MinI == -77, "int min over %d: %d, expected -77", N, MinI);
  CHECK(MaxI == 1000077, "int max over %d: %d, expected 1000077", N, MaxI);
  CHECK(MinF == -77.5f, "float min over %d: %.9g, expected -77.5", N, MinF);
  CHECK(MaxF == 1000077.5f, "float max over %d: %.9g, expected 1000077.5", N,
        MaxF);
  CHECK(MinD == -19.25, "double min over %d: %.17g, expected -19.25", N, MinD);
  CHECK(MaxD == 250019.25, "double max over %d: %.17g, expected 250019.25", N,
        MaxD);
}

// Complex: the sum adds (I % 7, -(I % 5)), exact in double. The product
// multiplies i (the imaginary unit) at I % 10^6 == 17 and (1 + i) at
// I % (3 * 10^6) == 500017: Gaussian integers of modest size, all exact.
void complexOps(int N) {
  Complex Sum(0, 0), Prod(1, 0);
#pragma omp target teams distribute parallel for reduction(+ : Sum)         \
    reduction(* : Prod) map(tofrom : Sum, Prod)
  for (int I = 0; I < N; ++I) {
    Sum += Complex(I % 7, -(I % 5));
    if (I % 1000000 == 17)
      Prod *= Complex(0, 1);
    else if (I % 3000000 == 500017)
      Prod *= Complex(1, 1);
  }
  int64_t SumMod5 = N / 5 * 10;
  for (int64_t R = 0; R < N % 5; ++R)
    SumMod5 += R;
  Complex ExpectSum(double(sumMod7(N)), -double(SumMod5));
  Complex ExpectProd(1, 0);
  for (int64_t K = countResidue(N, 1000000, 17); K > 0; --K)
    ExpectProd *= Complex(0, 1);
  for (int64_t K = countResidue(N, 3000000, 500017); K > 0; --K)
    ExpectProd *= Complex(1, 1);
  CHECK(Sum == ExpectSum, "complex + over %d: (%.17g, %.17g), expected "
        "(%.17g, %.17g)", N, Sum.real(), Sum.imag(), ExpectSum.real(),
        ExpectSum.imag());
  CHECK(Prod == ExpectProd, "complex * over %d: (%.17g, %.17g), expected "
        "(%.17g, %.17g)", N, Prod.real(), Prod.imag(), ExpectProd.real(),
        ExpectProd.imag());
}

// A reduction over `target teams distribute` whose body is a `parallel for`
// with its own reduction into the same variable: the team's partial result
// comes from a nested (generic-mode) parallel region.
void nested(int Blocks, int BlockSize) {
  long long Sum = 0;
  double DSum = 0;
#pragma omp target teams distribute reduction(+ : Sum, DSum)                \
    map(tofrom : Sum, DSum)
  for (int B = 0; B < Blocks; ++B) {
#pragma omp parallel for reduction(+ : Sum, DSum)
    for (int J = 0; J < BlockSize; ++J) {
      long long I = (long long)B * BlockSize + J;
      Sum += I % 7 + B;
      DSum += double(I % 7);
    }
  }
  int64_t N = int64_t(Blocks) * BlockSize;
  long long Expect =
      sumMod7(N) + (long long)BlockSize * Blocks * (Blocks - 1) / 2;
  CHECK(Sum == Expect, "teams distribute + parallel for, %d x %d: %lld, "
        "expected %lld", Blocks, BlockSize, Sum, Expect);
  CHECK(DSum == double(sumMod7(N)), "teams distribute + parallel for "
        "(double), %d x %d: %.17g, expected %" PRId64, Blocks, BlockSize, DSum,
        sumMod7(N));
}

} // namespace

// `reductions [N...]`: the large trip counts are the arguments, 10^8 and
// 100000007 without any. On the GPU emulator the kit runs 1000003
// (KIT-EMULATE-ARGS below): the plugin launches one 128-thread block per
// 128 iterations, and the 780,000 blocks of each 10^8 reduction take the
// emulator minutes, while 1000003 still has both product factors (sizes
// above 500017) and a partial last block. A size whose last index carries
// a factor is refused by the test's own check.
// KIT-EMULATE-ARGS: 1000003
int main(int Argc, char **Argv) {
  check::expectOffloaded();
  std::vector<int> Sizes = {1, 3, 1023};
  for (int I = 1; I < Argc; ++I)
    Sizes.push_back(std::atoi(Argv[I]));
  if (Argc == 1)
    Sizes.insert(Sizes.end(), {100000000, 100000007});
  for (int N : Sizes) {
    sums(N);
    products(N);
    minMax(N);
    complexOps(N);
  }
  nested(1, 1);
  nested(37, 1023);
  nested(10007, 10001);
  return check::verdict();
}
