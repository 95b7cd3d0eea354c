// atomics: `omp atomic` update, capture, read and write on int, long long,
// float and double from many teams and threads at once, plus atomic min and
// max through `atomic compare` (OpenMP 5.1). Increments: 10^6 of them per
// type, with results exact in every type. Capture: for a fetch-and-add each
// captured old value must be unique (together they are exactly 0..N-1), for
// every type. Read and write on long long use values whose halves agree, so
// a torn 64-bit access shows. Bitwise update ops (|, &, ^) are checked
// too, since GPUs implement them with separate instructions.
#include "check.h"

#include <vector>

namespace {

constexpr int Increments = 1000000;

void updates() {
  int I = 0;
  long long L = 0;
  float F = 0;
  double D = 0;
  int Sub = Increments;
#pragma omp target teams distribute parallel for map(tofrom : I, L, F, D, Sub)
  for (int K = 0; K < Increments; ++K) {
#pragma omp atomic update
    I += 1;
#pragma omp atomic
    L += 3000000000LL; // Beyond 32 bits from the first increment.
#pragma omp atomic update
    F += 1.0f; // Exact up to 2^24 > 10^6.
#pragma omp atomic update
    D += 0.5;
#pragma omp atomic update
    Sub -= 1;
  }
  CHECK(I == Increments, "atomic int +=: %d, expected %d", I, Increments);
  CHECK(L == 3000000000LL * Increments, "atomic long long +=: %lld, "
        "expected %lld", L, 3000000000LL * Increments);
  CHECK(F == float(Increments), "atomic float +=: %.9g, expected %d", F,
        Increments);
  CHECK(D == 0.5 * Increments, "atomic double +=: %.17g, expected %g", D,
        0.5 * Increments);
  CHECK(Sub == 0, "atomic int -=: %d, expected 0", Sub);
}

void bitwise() {
  unsigned long long Or = 0, And = ~0ULL, Xor = 0;
  const int N = 64 * 1000 + 1;
#pragma omp target teams distribute parallel for map(tofrom : Or, And, Xor)
  for (int K = 0; K < N; ++K) {
    unsigned long long Bit = 1ULL << (K % 64);
#pragma omp atomic update
    Or |= Bit;
#pragma omp atomic update
    And &= ~Bit;
#pragma omp atomic update
    Xor ^= Bit;
  }
  // Every bit is set 1000 times, bit 0 once more.
  CHECK(Or == ~0ULL, "atomic |=: %#llx", Or);
  CHECK(And == 0, "atomic &=: %#llx", And);
  CHECK(Xor == 1, "atomic ^=: %#llx, expected 0x1", Xor);
}

// Fetch-and-add with capture: the old values are a permutation of 0..N-1.
template <typename T> void capture(const char *Type) {
  const int N = 1 << 20;
  std::vector<T> Old(N, T(-1));
  T *P = Old.data();
  T Counter = 0;
#pragma omp target teams distribute parallel for map(tofrom : Counter)      \
    map(from : P[0 : N])
  for (int K = 0; K < N; ++K) {
    T V;
#pragma omp atomic capture
    {
      V = Counter;
      Counter += T(1);
    }
    P[K] = V;
  }
  std::vector<char> Seen(N, 0);
  int Bad = 0, Dup = 0;
  for (int K = 0; K < N; ++K) {
    long long V = (long long)Old[K];
    if (T(V) != Old[K] || V < 0 || V >= N)
      ++Bad;
    else if (Seen[V]++)
      ++Dup;
  }
  CHECK(Counter == T(N), "atomic capture (%s): final %g, expected %d", Type,
        double(Counter), N);
  CHECK(Bad == 0 && Dup == 0, "atomic capture (%s): %d captured values out "
        "of range, %d duplicated", Type, Bad, Dup);

  // The other capture form: the new value.
  T Counter2 = 0, Last = 0;
#pragma omp target teams distribute parallel for                            \
    map(tofrom : Counter2, Last)
  for (int K = 0; K < N; ++K) {
    T V;
#pragma omp atomic capture
    V = Counter2 += T(1);
    if (V == T(N)) { // Exactly one iteration sees the final value.
#pragma omp atomic write
      Last = V;
    }
  }
  CHECK(Counter2 == T(N) && Last == T(N), "atomic capture `v = x += 1` (%s): "
        "final %g, highest captured %g, expected %d", Type, double(Counter2),
        double(Last), N);
}

// 64-bit atomic read and write: writers store values whose high and low
// halves are equal; readers running at the same time must never see two
// halves from different stores.
void readWrite() {
  const int N = 1 << 20;
  unsigned long long X = 0;
  int Torn = 0, Range = 0;
#pragma omp target teams distribute parallel for map(tofrom : X, Torn, Range)
  for (int K = 0; K < N; ++K) {
    if (K % 2) {
      unsigned long long V = (unsigned long long)(K + 1) * 0x100000001ULL;
#pragma omp atomic write
      X = V;
    } else {
      unsigned long long V;
#pragma omp atomic read
      V = X;
      if ((V >> 32) != (V & 0xffffffffULL)) {
#pragma omp atomic update
        Torn += 1;
      } else if ((V >> 32) > (unsigned long long)N) {
#pragma omp atomic update
        Range += 1;
      }
    }
  }
  CHECK(Torn == 0, "atomic read/write of long long: %d torn reads", Torn);
  CHECK(Range == 0, "atomic read of long long: %d values never written",
        Range);
  unsigned long long Hi = X >> 32;
  CHECK((Hi & 0xffffffffULL) == (X & 0xffffffffULL) && Hi % 2 == 0 && Hi >= 2 &&
            Hi <= (unsigned long long)N,
        "atomic write of long long: final value %#llx was never written", X);

  // Atomic read and write of double and float: the final value is one of
  // those written.
  double D = -1;
  float F = -1;
#pragma omp target teams distribute parallel for map(tofrom : D, F)
  for (int K = 0; K < N; ++K) {
#pragma omp atomic write
    D = K * 0.25;
#pragma omp atomic write
    F = float(K % 4096) * 0.5f;
  }
  CHECK(D >= 0 && D * 4 < N && D * 4 == double((long long)(D * 4)),
        "atomic write of double: final %.17g never written", D);
  CHECK(F >= 0 && F * 2 < 4096 && F * 2 == float(int(F * 2)),
        "atomic write of float: final %.9g never written", F);
}

// Atomic min and max with `atomic compare`: the extremes are planted at one
// index each among scrambled values.
template <typename T> void minMax(const char *Type) {
  const int N = Increments, Planted = N / 3 + 5;
  T Min = T(1e9), Max = T(-1e9);
#pragma omp target teams distribute parallel for map(tofrom : Min, Max)
  for (int K = 0; K < N; ++K) {
    T V = T(int((unsigned(K) * 2654435761u >> 8) % 100000u));
    T Lo = K == Planted ? T(-12) : V, Hi = K == Planted ? T(200012) : V;
#pragma omp atomic compare
    if (Lo < Min) {
      Min = Lo;
    }
#pragma omp atomic compare
    Max = Hi > Max ? Hi : Max;
  }
  CHECK(Min == T(-12), "atomic compare min (%s): %g, expected -12", Type,
        double(Min));
  CHECK(Max == T(200012), "atomic compare max (%s): %g, expected 200012",
        Type, double(Max));

  // Compare-and-swap: exactly one thread may replace the initial value.
  T Slot = T(-1);
  int Winners = 0;
#pragma omp target teams distribute parallel for map(tofrom : Slot, Winners)
  for (int K = 0; K < N; ++K) {
    T Old;
#pragma omp atomic compare capture
    {
      Old = Slot;
      if (Slot == T(-1)) {
        Slot = T(K);
      }
    }
    if (Old == T(-1)) {
#pragma omp atomic update
      Winners += 1;
    }
  }
  CHECK(Winners == 1 && Slot >= T(0) && Slot < T(N),
        "atomic compare capture (%s): %d threads won, slot %g", Type, Winners,
        double(Slot));
}

} // namespace

int main() {
  check::expectOffloaded();
  updates();
  bitwise();
  capture<int>("int");
  capture<long long>("long long");
  capture<float>("float");
  capture<double>("double");
  readWrite();
  minMax<int>("int");
  minMax<long long>("long long");
  minMax<float>("float");
  minMax<double>("double");
  return check::verdict();
}
