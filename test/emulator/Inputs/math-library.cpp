// The C library's math functions called in a target region, float and
// double, on a spread of arguments (and 0, infinity, NaN), against the
// host's libm. On sm_90 they are CUDA's libdevice (__nv_*), on gfx90a
// ROCm's ocml (__ocml_*), linked into the device code by clang and run by
// the GPU emulator: every instruction and intrinsic the libraries use has
// to be right for the results to be. A result may differ by the library's
// documented maximum error in ulps plus one (the host's own error); the
// exact functions (fmod, frexp, floor, ...) not at all.
//
// With -DTEST_ROUNDING (sm_90 only), also CUDA's directed-rounding
// intrinsics (__fadd_rz, __double2float_rd, ...) against the host's
// arithmetic under fesetround.
#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>

#define FUNCTIONS(X)                                                           \
  X(Sin, 3, 3, -10, 10, 1)                                                     \
  X(Cos, 3, 3, -10, 10, 1)                                                     \
  X(Tan, 3, 5, -1.5, 1.5, 1)                                                   \
  X(Asin, 3, 3, -1, 1, 0)                                                      \
  X(Acos, 3, 3, -1, 1, 0)                                                      \
  X(Atan, 3, 3, -50, 50, 0)                                                    \
  X(Atan2, 3, 4, -10, 10, 0)                                                   \
  X(Sinh, 3, 4, -20, 20, 0)                                                    \
  X(Cosh, 3, 3, -20, 20, 0)                                                    \
  X(Tanh, 3, 3, -10, 10, 0)                                                    \
  X(Asinh, 4, 4, -100, 100, 0)                                                 \
  X(Acosh, 4, 5, 1, 100, 0)                                                    \
  X(Atanh, 3, 4, -0.99, 0.99, 0)                                               \
  X(Exp, 2, 3, -30, 30, 0)                                                     \
  X(Exp2, 2, 3, -30, 30, 0)                                                    \
  X(Expm1, 2, 2, -5, 5, 0)                                                     \
  X(Log, 2, 2, 0.001, 1000, 0)                                                 \
  X(Log2, 2, 2, 0.001, 1000, 0)                                                \
  X(Log10, 2, 3, 0.001, 1000, 0)                                               \
  X(Log1p, 2, 2, -0.9, 100, 0)                                                 \
  X(Pow, 3, 5, 0.1, 10, 0)                                                     \
  X(Sqrt, 0, 1, 0, 1000, 0)                                                    \
  X(Cbrt, 2, 2, -1000, 1000, 0)                                                \
  X(Hypot, 3, 4, -1000, 1000, 0)                                               \
  X(Erf, 3, 3, -4, 4, 0)                                                       \
  X(Erfc, 6, 5, -2, 8, 0)                                                      \
  X(Lgamma, 5, 8, 2.5, 30, 0)                                                  \
  X(Tgamma, 11, 8, 0.1, 20, 0)                                                 \
  X(Fmod, 0, 0, -100, 100, 0)                                                  \
  X(Remainder, 0, 0, -100, 100, 0)                                             \
  X(Remquo, 0, 0, -100, 100, 0)                                                \
  X(Frexp, 0, 0, -1e6, 1e6, 0)                                                 \
  X(Ldexp, 0, 0, -10, 10, 0)                                                   \
  X(Scalbn, 0, 0, -10, 10, 0)                                                  \
  X(Modf, 0, 0, -100, 100, 0)                                                  \
  X(Ilogb, 0, 0, -1e6, 1e6, 0)                                                 \
  X(Logb, 0, 0, -1e6, 1e6, 0)                                                  \
  X(Floor, 0, 0, -10, 10, 0)                                                   \
  X(Ceil, 0, 0, -10, 10, 0)                                                    \
  X(Trunc, 0, 0, -10, 10, 0)                                                   \
  X(Round, 0, 0, -10, 10, 0)                                                   \
  X(Rint, 0, 0, -10, 10, 0)                                                    \
  X(Lround, 0, 0, -1000, 1000, 0)                                              \
  X(Fdim, 0, 0, -10, 10, 0)                                                    \
  X(Fmax, 0, 0, -10, 10, 0)                                                    \
  X(Fmin, 0, 0, -10, 10, 0)                                                    \
  X(Fma, 0, 0, -10, 10, 0)                                                     \
  X(Copysign, 0, 0, -10, 10, 0)                                                \
  X(Nextafter, 0, 0, -10, 10, 0)                                               \
  X(Fabs, 0, 0, -10, 10, 0)

enum Function {
#define ENUM(Name, UlpD, UlpF, Lo, Hi, Wide) Name,
  FUNCTIONS(ENUM)
#undef ENUM
      Count
};

struct Info {
  const char *Name;
  int UlpD, UlpF; // largest error allowed, double and float
  double Lo, Hi;  // the arguments' range
  bool Wide;      // also large arguments (trigonometric reduction)
};

static const Info Infos[] = {
#define INFO(Name, UlpD, UlpF, Lo, Hi, Wide) {#Name, UlpD, UlpF, Lo, Hi, Wide},
    FUNCTIONS(INFO)
#undef INFO
};

#pragma omp declare target
#ifdef __AMDGCN__
// Debian's ocml (ROCm 5.2) reads this configuration constant in its float
// functions (expf, logf, sqrtf, powf, fmod, ...), but clang-22 no longer
// links the oclc_daz_opt library that defines it, so without this
// definition those programs do not link for gfx90a at all. 0: subnormals
// are kept, as on gfx90a by default.
extern "C" __attribute__((weak)) const
    __attribute__((address_space(4))) unsigned char __oclc_daz_opt = 0;
#endif
// The same source compiled twice: for the device (libdevice, ocml) and
// for the host (libm), so both sides call the function the same way.
template <typename T> T evaluate(int F, T X, T Y) {
  int Exponent = 0, Quotient = 0;
  T Whole = 0;
  switch (F) {
  case Sin:
    return std::sin(X);
  case Cos:
    return std::cos(X);
  case Tan:
    return std::tan(X);
  case Asin:
    return std::asin(X);
  case Acos:
    return std::acos(X);
  case Atan:
    return std::atan(X);
  case Atan2:
    return std::atan2(X, Y);
  case Sinh:
    return std::sinh(X);
  case Cosh:
    return std::cosh(X);
  case Tanh:
    return std::tanh(X);
  case Asinh:
    return std::asinh(X);
  case Acosh:
    return std::acosh(X);
  case Atanh:
    return std::atanh(X);
  case Exp:
    return std::exp(X);
  case Exp2:
    return std::exp2(X);
  case Expm1:
    return std::expm1(X);
  case Log:
    return std::log(X);
  case Log2:
    return std::log2(X);
  case Log10:
    return std::log10(X);
  case Log1p:
    return std::log1p(X);
  case Pow:
    return std::pow(X, Y / 2);
  case Sqrt:
    return std::sqrt(X);
  case Cbrt:
    return std::cbrt(X);
  case Hypot:
    return std::hypot(X, Y);
  case Erf:
    return std::erf(X);
  case Erfc:
    return std::erfc(X);
  case Lgamma:
    return std::lgamma(X);
  case Tgamma:
    return std::tgamma(X);
  case Fmod:
    return std::fmod(X, Y / 10 + T(1.5));
  case Remainder:
    return std::remainder(X, Y / 10 + T(1.5));
  case Remquo: {
    T R = std::remquo(X, Y / 10 + T(1.5), &Quotient);
    return R + T(16 * (Quotient % 8));
  }
  case Frexp: {
    T M = std::frexp(X, &Exponent);
    return M + T(4 * Exponent);
  }
  case Ldexp:
    return std::ldexp(X, int(Y * 3));
  case Scalbn:
    return std::scalbn(X, int(Y * 3));
  case Modf: {
    T Fraction = std::modf(X, &Whole);
    return Fraction + 4 * Whole;
  }
  case Ilogb: // FP_ILOGB0 and FP_ILOGBNAN are the library's choice.
    return std::isfinite(X) && X != 0 ? T(std::ilogb(X)) : T(0);
  case Logb:
    return std::logb(X);
  case Floor:
    return std::floor(X);
  case Ceil:
    return std::ceil(X);
  case Trunc:
    return std::trunc(X);
  case Round:
    return std::round(X);
  case Rint:
    return std::rint(X);
  case Lround: // Unspecified for infinities and NaN.
    return std::isfinite(X) ? T(std::lround(X / 2)) : T(0);
  case Fdim:
    return std::fdim(X, Y);
  case Fmax:
    return std::fmax(X, Y);
  case Fmin:
    return std::fmin(X, Y);
  case Fma:
    return std::fma(X, Y, X / 3);
  case Copysign:
    return std::copysign(X, Y);
  case Nextafter:
    return std::nextafter(X, Y);
  case Fabs:
    return std::fabs(X);
  }
  return 0;
}
#pragma omp end declare target

constexpr int PerFunction = 40;
constexpr int Total = Count * PerFunction;

/// Distance in ulps; NaN matches NaN only, and +0 matches -0.
template <typename T> static uint64_t ulps(T A, T B) {
  if (std::isnan(A) || std::isnan(B))
    return std::isnan(A) && std::isnan(B) ? 0 : UINT64_MAX;
  if (A == B)
    return 0;
  auto Key = [](T V) -> __int128 {
    if (sizeof(T) == 8) {
      int64_t I;
      std::memcpy(&I, &V, 8);
      return I < 0 ? -(__int128)(I & INT64_MAX) : (__int128)I;
    }
    int32_t I;
    std::memcpy(&I, &V, 4);
    return I < 0 ? -(__int128)(I & INT32_MAX) : (__int128)I;
  };
  __int128 D = Key(A) - Key(B);
  return uint64_t(D < 0 ? -D : D);
}

/// Argument I of function F: the first 32 spread over its range, then a
/// few large ones or halfway cases where they matter, then 0, infinity and
/// NaN.
template <typename T> static void arguments(int F, int I, T &X, T &Y) {
  const Info &In = Infos[F];
  double Step = (In.Hi - In.Lo) / 31;
  double U = In.Lo + Step * (I % 32) + Step * 0.37;
  double V = In.Hi - Step * ((I * 7) % 32) - Step * 0.61;
  if (U > In.Hi)
    U = In.Hi;
  if (V < In.Lo)
    V = In.Lo;
  X = T(U);
  Y = T(V);
  static const double Large[] = {1e3, -3.7e5, 1e10, 123456789.0, 1e22};
  static const double LargeF[] = {1e3, -3.7e5, 1e10, 12345.6789, 1e30};
  // Halfway cases for the exact ones (the rounding functions).
  static const double Halfway[] = {0.5, 2.5, -2.5, -3.5, 4.5};
  if (I >= 32 && I < 37 && In.Wide)
    X = T(sizeof(T) == 8 ? Large[I - 32] : LargeF[I - 32]);
  if (I >= 32 && I < 37 && In.UlpD == 0)
    X = T(Halfway[I - 32]);
  if (I == 37)
    X = 0;
  if (I == 38)
    X = INFINITY;
  if (I == 39)
    X = NAN;
}

template <typename T> static int check(const char *Kind) {
  static T X[Total], Y[Total], Out[Total];
  for (int I = 0; I < Total; ++I)
    arguments(I / PerFunction, I % PerFunction, X[I], Y[I]);
#pragma omp target teams distribute parallel for map(to : X, Y) map(from : Out)
  for (int I = 0; I < Total; ++I)
    Out[I] = evaluate<T>(I / PerFunction, X[I], Y[I]);
  int Wrong = 0;
  for (int F = 0; F < Count; ++F) {
    uint64_t Worst = 0;
    int Allowed = sizeof(T) == 8 ? Infos[F].UlpD : Infos[F].UlpF;
    for (int I = F * PerFunction; I < (F + 1) * PerFunction; ++I) {
      T Expected = evaluate<T>(F, X[I], Y[I]);
      uint64_t D = ulps(Out[I], Expected);
      if (D > Worst)
        Worst = D;
      if (D > uint64_t(Allowed)) {
        ++Wrong;
        std::printf("%s %s(%a, %a): device %a, host %a (%llu ulps, %d "
                    "allowed)\n",
                    Kind, Infos[F].Name, double(X[I]), double(Y[I]),
                    double(Out[I]), double(Expected), (unsigned long long)D,
                    Allowed);
      }
    }
    std::printf("%s %s: worst %llu ulps\n", Kind, Infos[F].Name,
                (unsigned long long)Worst);
  }
  std::printf("%s: %d functions, %d wrong\n", Kind, int(Count), Wrong);
  return Wrong;
}

// The GPU libraries' functions beyond the C library's (CUDA's and HIP's
// math headers declare them for device code: sinpi, rsqrt, erfinv, ...),
// against the host's long double functions, or (the inverses) a long
// double Newton step from the device's answer. Bessel functions are also
// accepted within an absolute error, as the libraries document them near
// their zeros.
#define EXTRAS(X)                                                              \
  X(Sinpi, 3, 2, -4, 4)                                                        \
  X(Cospi, 3, 2, -4, 4)                                                        \
  X(Rsqrt, 2, 3, 0.01, 1000)                                                   \
  X(Rcbrt, 2, 2, 0.01, 1000)                                                   \
  X(Exp10, 2, 3, -30, 30)                                                      \
  X(Erfcx, 5, 5, -2, 20)                                                       \
  X(Normcdf, 6, 6, -8, 8)                                                      \
  X(Erfinv, 6, 4, -0.999, 0.999)                                               \
  X(Erfcinv, 7, 5, 0.001, 1.999)                                               \
  X(Normcdfinv, 9, 6, 0.001, 0.999)                                            \
  X(J0, 10, 10, 0.1, 7.5)                                                      \
  X(J1, 10, 10, 0.1, 7.5)                                                      \
  X(Y0, 10, 10, 0.1, 7.5)                                                      \
  X(Y1, 10, 10, 0.1, 7.5)

enum Extra {
#define ENUM(Name, UlpD, UlpF, Lo, Hi) Name,
  EXTRAS(ENUM)
#undef ENUM
      ExtraCount
};

static const Info ExtraInfos[] = {
#define INFO(Name, UlpD, UlpF, Lo, Hi) {#Name, UlpD, UlpF, Lo, Hi, false},
    EXTRAS(INFO)
#undef INFO
};

#pragma omp declare target
template <typename T> T extra(int F, T X) {
#if defined(__NVPTX__) || defined(__AMDGCN__)
  bool Float = sizeof(T) == 4;
  float Xf = float(X);
  switch (F) {
  case Sinpi:
    return Float ? T(sinpif(Xf)) : T(sinpi(double(X)));
  case Cospi:
    return Float ? T(cospif(Xf)) : T(cospi(double(X)));
  case Rsqrt:
    return Float ? T(rsqrtf(Xf)) : T(rsqrt(double(X)));
  case Rcbrt:
    return Float ? T(rcbrtf(Xf)) : T(rcbrt(double(X)));
  case Exp10:
    return Float ? T(exp10f(Xf)) : T(exp10(double(X)));
  case Erfcx:
    return Float ? T(erfcxf(Xf)) : T(erfcx(double(X)));
  case Normcdf:
    return Float ? T(normcdff(Xf)) : T(normcdf(double(X)));
  case Erfinv:
    return Float ? T(erfinvf(Xf)) : T(erfinv(double(X)));
  case Erfcinv:
    return Float ? T(erfcinvf(Xf)) : T(erfcinv(double(X)));
  case Normcdfinv:
    return Float ? T(normcdfinvf(Xf)) : T(normcdfinv(double(X)));
  case J0:
    return Float ? T(j0f(Xf)) : T(j0(double(X)));
  case J1:
    return Float ? T(j1f(Xf)) : T(j1(double(X)));
  case Y0:
    return Float ? T(y0f(Xf)) : T(y0(double(X)));
  case Y1:
    return Float ? T(y1f(Xf)) : T(y1(double(X)));
  }
#endif
  return X;
}
#pragma omp end declare target

/// The exact value of extra function F at X, in long double; \p Device is
/// the device's answer, where Newton's method refines an inverse from it.
static long double reference(int F, long double X, long double Device) {
  const long double Pi = 3.141592653589793238462643383279502884L;
  const long double TwoOverSqrtPi = 1.128379167095512573896158903121545172L;
  const long double Sqrt2 = 1.414213562373095048801688724209698079L;
  long double R = Device;
  switch (F) {
  case Sinpi:
    return sinl(Pi * X);
  case Cospi:
    return cosl(Pi * X);
  case Rsqrt:
    return 1 / sqrtl(X);
  case Rcbrt:
    return 1 / cbrtl(X);
  case Exp10:
    return exp10l(X);
  case Erfcx:
    return expl(X * X) * erfcl(X);
  case Normcdf:
    return erfcl(-X / Sqrt2) / 2;
  case Erfinv: // erf(R) = X
    for (int I = 0; I < 4; ++I)
      R -= (erfl(R) - X) / (TwoOverSqrtPi * expl(-R * R));
    return R;
  case Erfcinv: // erfc(R) = X
    for (int I = 0; I < 4; ++I)
      R += (erfcl(R) - X) / (TwoOverSqrtPi * expl(-R * R));
    return R;
  case Normcdfinv: // erfc(-R / sqrt 2) / 2 = X
    for (int I = 0; I < 4; ++I)
      R -= (erfcl(-R / Sqrt2) / 2 - X) / (expl(-R * R / 2) / sqrtl(2 * Pi));
    return R;
  case J0:
    return j0l(X);
  case J1:
    return j1l(X);
  case Y0:
    return y0l(X);
  case Y1:
    return y1l(X);
  }
  return 0;
}

template <typename T> static int checkExtras(const char *Kind) {
  constexpr int N = 32;
  static T X[ExtraCount * N], Out[ExtraCount * N];
  for (int I = 0; I < ExtraCount * N; ++I) {
    const Info &In = ExtraInfos[I / N];
    X[I] = T(In.Lo + (In.Hi - In.Lo) * ((I % N) + 0.37) / N);
  }
#pragma omp target teams distribute parallel for map(to : X) map(from : Out)
  for (int I = 0; I < ExtraCount * N; ++I)
    Out[I] = extra<T>(I / N, X[I]);
  int Wrong = 0;
  for (int F = 0; F < ExtraCount; ++F) {
    uint64_t Worst = 0;
    int Allowed = sizeof(T) == 8 ? ExtraInfos[F].UlpD : ExtraInfos[F].UlpF;
    bool Bessel = F >= J0;
    for (int I = F * N; I < (F + 1) * N; ++I) {
      long double Exact = reference(F, X[I], Out[I]);
      T Expected = T(Exact);
      uint64_t D = ulps(Out[I], Expected);
      long double Absolute = fabsl((long double)Out[I] - Exact);
      if (Bessel && Absolute < (sizeof(T) == 8 ? 1e-15L : 4e-7L))
        D = 0;
      if (D > Worst)
        Worst = D;
      if (D > uint64_t(Allowed)) {
        ++Wrong;
        std::printf("%s %s(%a): device %a, exact %a (%llu ulps, %d allowed)\n",
                    Kind, ExtraInfos[F].Name, double(X[I]), double(Out[I]),
                    double(Expected), (unsigned long long)D, Allowed);
      }
    }
    std::printf("%s %s: worst %llu ulps\n", Kind, ExtraInfos[F].Name,
                (unsigned long long)Worst);
  }
  std::printf("%s extras: %d functions, %d wrong\n", Kind, int(ExtraCount),
              Wrong);
  return Wrong;
}

#ifdef TEST_ROUNDING
enum RoundedKind {
  FAddRz,
  FAddRd,
  FAddRu,
  FSubRz,
  FMulRu,
  FDivRd,
  FSqrtRu,
  FRcpRz,
  FFmaRd,
  DAddRu,
  DSubRd,
  DMulRz,
  DDivRu,
  DSqrtRd,
  DFmaRz,
  DRcpRd,
  D2FRz,
  D2FRu,
  D2IRd,
  F2UIRu,
  F2LLRn,
  LL2FRd,
  ULL2DRu,
  I2FRz,
  RintF,
  RintD,
  SaturateF,
  RoundedCount
};

#pragma omp declare target
// Each operation of its prepared operands: exact floats for the float
// ones, integral values for the integer conversions, so that nothing but
// the operation itself depends on the rounding mode.
static double rounded(int K, double X, double Y) {
  float Xf = float(X), Yf = float(Y);
  long long L = (long long)X;
#ifdef __NVPTX__
  switch (K) {
  case FAddRz:
    return __fadd_rz(Xf, Yf);
  case FAddRd:
    return __fadd_rd(Xf, Yf);
  case FAddRu:
    return __fadd_ru(Xf, Yf);
  case FSubRz:
    return __fsub_rz(Xf, Yf);
  case FMulRu:
    return __fmul_ru(Xf, Yf);
  case FDivRd:
    return __fdiv_rd(Xf, Yf);
  case FSqrtRu:
    return __fsqrt_ru(Xf);
  case FRcpRz:
    return __frcp_rz(Yf);
  case FFmaRd:
    return __fmaf_rd(Xf, Yf, Xf);
  case DAddRu:
    return __dadd_ru(X, Y);
  case DSubRd:
    return __dsub_rd(X, Y);
  case DMulRz:
    return __dmul_rz(X, Y);
  case DDivRu:
    return __ddiv_ru(X, Y);
  case DSqrtRd:
    return __dsqrt_rd(X);
  case DFmaRz:
    return __fma_rz(X, Y, X);
  case DRcpRd:
    return __drcp_rd(Y);
  case D2FRz:
    return __double2float_rz(X);
  case D2FRu:
    return __double2float_ru(X);
  case D2IRd:
    return __double2int_rd(X);
  case F2UIRu:
    return __float2uint_ru(Xf);
  case F2LLRn:
    return double(__float2ll_rn(Xf));
  case LL2FRd:
    return __ll2float_rd(L);
  case ULL2DRu:
    return __ull2double_ru((unsigned long long)L * 977);
  case I2FRz:
    return __int2float_rz(int(L));
  // rint and nearbyint become llvm.rint in clang's own code; libdevice's
  // are the cvt.rni instruction (llvm.nvvm.round), halfway cases to even.
  case RintF:
    return __nv_rintf(Xf);
  case RintD:
    return __nv_rint(X);
  case SaturateF:
    return __saturatef(Xf);
  }
  return 0;
#else
  // The host's arithmetic under the rounding mode the caller set.
  volatile float A = Xf, B = Yf;
  volatile double C = X, D = Y;
  volatile long long V = L;
  switch (K) {
  case FAddRz:
  case FAddRd:
  case FAddRu:
    return A + B;
  case FSubRz:
    return A - B;
  case FMulRu:
    return A * B;
  case FDivRd:
    return A / B;
  case FSqrtRu:
    return std::sqrt(float(A));
  case FRcpRz:
    return 1.0f / B;
  case FFmaRd:
    return std::fma(float(A), float(B), float(A));
  case DAddRu:
    return C + D;
  case DSubRd:
    return C - D;
  case DMulRz:
    return C * D;
  case DDivRu:
    return C / D;
  case DSqrtRd:
    return std::sqrt(double(C));
  case DFmaRz:
    return std::fma(double(C), double(D), double(C));
  case DRcpRd:
    return 1.0 / D;
  case D2FRz:
  case D2FRu:
    return float(C);
  case D2IRd:
    return std::floor(double(C));
  case F2UIRu:
    return A < 0 ? 0 : std::ceil(float(A));
  case F2LLRn:
    return double(std::llrint(float(A)));
  case LL2FRd:
    return float(V);
  case ULL2DRu:
    return double((unsigned long long)V * 977);
  case I2FRz:
    return float(int(V));
  case RintF:
    return std::rint(float(A));
  case RintD:
    return std::rint(double(C));
  case SaturateF:
    return std::isnan(A) ? 0.0f : std::fmin(std::fmax(A, 0.0f), 1.0f);
  }
  return 0;
#endif
}
#pragma omp end declare target

/// Operands of operation K, computed to nearest.
static void prepare(int K, int J, double &X, double &Y) {
  X = (J % 2 ? -1 : 1) * (0.1 + J * 0.7311) / 3.0;
  Y = (J % 3 ? 1 : -1) * (1.3 + J * 0.1917) / 7.0;
  if (K == FSqrtRu || K == DSqrtRd)
    X = std::fabs(X);
  if (K < DAddRu || K == F2UIRu || K == F2LLRn) {
    X = float(K == F2UIRu ? X * 1e3 : K == F2LLRn ? X * 1e6 : X);
    Y = float(Y);
  }
  if (K == D2IRd)
    X *= 1e3;
  if (K == LL2FRd || K == ULL2DRu)
    X = std::floor(X * 1e15);
  if (K == I2FRz)
    X = std::floor(X * 1e8);
  if (K == RintF || K == RintD) // Every other one a halfway case.
    X = (J - 32) / 2.0 + (J % 4 == 1 ? 0.25 : 0);
  if (K == SaturateF)
    X = J == 0 ? NAN : (J - 32) / 16.0;
}

static int hostMode(int K) {
  switch (K) {
  case FAddRz:
  case FSubRz:
  case FRcpRz:
  case DMulRz:
  case DFmaRz:
  case D2FRz:
  case I2FRz:
    return FE_TOWARDZERO;
  case FAddRd:
  case FDivRd:
  case FFmaRd:
  case DSubRd:
  case DSqrtRd:
  case DRcpRd:
  case D2IRd:
  case LL2FRd:
    return FE_DOWNWARD;
  case F2LLRn:
  case RintF:
  case RintD:
  case SaturateF:
    return FE_TONEAREST;
  default:
    return FE_UPWARD;
  }
}

// libdevice's integer helpers, on PTX's prmt, mul.hi, sad and bfind.
enum IntegerKind {
  BytePerm,
  MulHi,
  UMulHi,
  Mul64Hi,
  UMul64Hi,
  Sad,
  USad,
  Ffs,
  IntegerCount
};

#pragma omp declare target
static unsigned long long integer(int K, unsigned long long A,
                                  unsigned long long B) {
  int Ai = int(A), Bi = int(B);
  unsigned Au = unsigned(A), Bu = unsigned(B);
#ifdef __NVPTX__
  switch (K) {
  case BytePerm:
    return unsigned(__byte_perm(Au, Bu, unsigned(A >> 32)));
  case MulHi:
    return unsigned(__mulhi(Ai, Bi));
  case UMulHi:
    return __umulhi(Au, Bu);
  case Mul64Hi:
    return (unsigned long long)__mul64hi((long long)A, (long long)B);
  case UMul64Hi:
    return __umul64hi(A, B);
  case Sad:
    return __sad(Ai, Bi, unsigned(B >> 40));
  case USad:
    return __usad(Au, Bu, unsigned(B >> 40));
  case Ffs:
    return unsigned(__ffs(Ai & int(B)));
  }
#else
  switch (K) {
  case BytePerm: { // Byte n of the result: byte (selector nibble n & 7) of {B,
                   // A}.
    unsigned long long Pool = Au | (unsigned long long)Bu << 32;
    unsigned Selector = unsigned(A >> 32), R = 0;
    for (int N = 0; N < 4; ++N)
      R |= unsigned((Pool >> (8 * ((Selector >> (4 * N)) & 7))) & 0xff)
           << (8 * N);
    return R;
  }
  case MulHi:
    return unsigned(int(((long long)Ai * Bi) >> 32));
  case UMulHi:
    return unsigned(((unsigned long long)Au * Bu) >> 32);
  case Mul64Hi:
    return (unsigned long long)(long long)(((__int128)(long long)A *
                                            (long long)B) >>
                                           64);
  case UMul64Hi:
    return (unsigned long long)(((unsigned __int128)A * B) >> 64);
  case Sad:
    return unsigned((Ai > Bi ? (long long)Ai - Bi : (long long)Bi - Ai) +
                    unsigned(B >> 40));
  case USad:
    return unsigned((Au > Bu ? Au - Bu : Bu - Au) + unsigned(B >> 40));
  case Ffs:
    return unsigned(__builtin_ffs(Ai & int(B)));
  }
#endif
  return 0;
}
#pragma omp end declare target

static int checkIntegers() {
  constexpr int N = 64;
  static unsigned long long A[IntegerCount * N], B[IntegerCount * N],
      Out[IntegerCount * N];
  unsigned long long Seed = 0x9e3779b97f4a7c15ull;
  for (int I = 0; I < IntegerCount * N; ++I) {
    Seed = Seed * 6364136223846793005ull + 1442695040888963407ull;
    A[I] = Seed;
    Seed = Seed * 6364136223846793005ull + 1442695040888963407ull;
    B[I] = Seed;
  }
#pragma omp target teams distribute parallel for map(to : A, B) map(from : Out)
  for (int I = 0; I < IntegerCount * N; ++I)
    Out[I] = integer(I / N, A[I], B[I]);
  int Wrong = 0;
  for (int I = 0; I < IntegerCount * N; ++I) {
    unsigned long long Expected = integer(I / N, A[I], B[I]);
    if (Out[I] != Expected) {
      ++Wrong;
      std::printf("integer %d (%#llx, %#llx): device %#llx, host %#llx\n",
                  I / N, A[I], B[I], Out[I], Expected);
    }
  }
  std::printf("integers: %d operations, %d wrong\n", int(IntegerCount), Wrong);
  return Wrong;
}

static int checkRounding() {
  constexpr int N = 64;
  static double X[RoundedCount * N], Y[RoundedCount * N], Out[RoundedCount * N];
  for (int I = 0; I < RoundedCount * N; ++I)
    prepare(I / N, I % N, X[I], Y[I]);
#pragma omp target teams distribute parallel for map(to : X, Y) map(from : Out)
  for (int I = 0; I < RoundedCount * N; ++I)
    Out[I] = rounded(I / N, X[I], Y[I]);
  int Wrong = 0;
  for (int I = 0; I < RoundedCount * N; ++I) {
    int K = I / N;
    std::fesetround(hostMode(K));
    double Expected = rounded(K, X[I], Y[I]);
    std::fesetround(FE_TONEAREST);
    if (!(Out[I] == Expected || (std::isnan(Out[I]) && std::isnan(Expected)))) {
      ++Wrong;
      std::printf("rounding %d (%a, %a): device %a, host %a\n", K, X[I], Y[I],
                  Out[I], Expected);
    }
  }
  std::printf("rounding: %d operations, %d wrong\n", int(RoundedCount), Wrong);
  return Wrong;
}
#endif

int main() {
  int Wrong = check<double>("double") + check<float>("float") +
              checkExtras<double>("double") + checkExtras<float>("float");
#ifdef TEST_ROUNDING
  Wrong += checkRounding() + checkIntegers();
#endif
  return Wrong != 0;
}
