// nowait_depend: asynchronous target tasks ordered only by their `depend`
// clauses. Checks a chain of kernels (`target nowait depend(inout)`) each
// doing y = 2y + k, which gives a different answer in any other order; a
// detour through the host in the middle of the chain (`target update from
// nowait`, a host task, `target update to nowait`); a fan-out of kernels
// reading the chain's result (`depend(in)`) into separate arrays and a
// fan-in kernel that waits for all of them; `target enter data nowait
// depend`; and `taskwait`. Run once inside a parallel region (tasks may run
// on other threads) and once from the initial thread alone.
#include "check.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace {

constexpr int N = 1 << 16;
constexpr int Steps = 20;
constexpr int Fan = 4;
// After this step of the chain, the host adds 1 to every element.
constexpr int HostStep = 10;

using U = std::uint64_t;

// What element I of Y holds at the end of the chain.
U expectedY(int I) {
  U Y = U(I);
  for (int K = 1; K <= Steps; ++K) {
    Y = 2 * Y + U(K);
    if (K == HostStep)
      Y += 1;
  }
  return Y;
}

// Runs the task graph; Y, Z (Fan * N) and T (N) are host arrays whose
// results the caller checks.
void runGraph(U *Y, U *Z, U *T) {
  for (int I = 0; I < N; ++I)
    Y[I] = U(I);
  // Depend on the first element of each array: an address names the array.
#pragma omp target enter data nowait map(to : Y[0 : N]) depend(out : Y[0])
#pragma omp target enter data nowait map(alloc : Z[0 : Fan * N],            \
                                             T[0 : N]) depend(out : Z[0], T[0])

  for (int K = 1; K <= Steps; ++K) {
#pragma omp target teams distribute parallel for nowait depend(inout : Y[0]) \
    map(present, alloc : Y[0 : N]) firstprivate(K)
    for (int I = 0; I < N; ++I)
      Y[I] = 2 * Y[I] + U(K);

    if (K == HostStep) {
      // Through the host and back, still in the chain's order.
#pragma omp target update nowait from(Y[0 : N]) depend(inout : Y[0])
#pragma omp task depend(inout : Y[0]) firstprivate(Y)
      for (int I = 0; I < N; ++I)
        Y[I] += 1;
#pragma omp target update nowait to(Y[0 : N]) depend(inout : Y[0])
    }
  }

  // Fan-out: every kernel reads the finished chain, writes its own slice.
  for (int F = 0; F < Fan; ++F) {
    U *Slice = Z + F * N;
#pragma omp target teams distribute parallel for nowait depend(in : Y[0])  \
    depend(out : Slice[0]) map(present, alloc : Y[0 : N], Slice[0 : N])     \
    firstprivate(F)
    for (int I = 0; I < N; ++I)
      Slice[I] = Y[I] * U(F + 1);
  }
  // Fan-in: waits for all the slices.
#pragma omp target teams distribute parallel for nowait                       \
    depend(in : Z[0], Z[N], Z[2 * N], Z[3 * N]) depend(out : T[0])             \
    map(present, alloc : Z[0 : Fan * N], T[0 : N])
  for (int I = 0; I < N; ++I) {
    U S = 0;
    for (int F = 0; F < Fan; ++F)
      S += Z[F * N + I];
    T[I] = S;
  }
#pragma omp target update nowait from(Y[0 : N], T[0 : N])                    \
    depend(in : Y[0], T[0])
#pragma omp taskwait
#pragma omp target exit data map(release : Y[0 : N], Z[0 : Fan * N], T[0 : N])
}

void checkResults(const char *How, const U *Y, const U *T) {
  int WrongY = 0, WrongT = 0, FirstY = -1, FirstT = -1;
  for (int I = 0; I < N; ++I) {
    const U E = expectedY(I);
    if (Y[I] != E && WrongY++ == 0)
      FirstY = I;
    // 1 + 2 + ... + Fan times Y.
    if (T[I] != E * U(Fan * (Fan + 1) / 2) && WrongT++ == 0)
      FirstT = I;
  }
  CHECK(WrongY == 0, "%s: chain result wrong in %d elements, Y[%d] = %llu, "
        "expected %llu", How, WrongY, FirstY,
        FirstY >= 0 ? (unsigned long long)Y[FirstY] : 0ULL,
        FirstY >= 0 ? (unsigned long long)expectedY(FirstY) : 0ULL);
  CHECK(WrongT == 0, "%s: fan-in result wrong in %d elements, first at %d",
        How, WrongT, FirstT);
}

} // namespace

int main() {
  check::expectOffloaded();
  std::vector<U> Y(N), Z(Fan * N), T(N);

  // From inside a parallel region: the tasks may run on either thread.
#pragma omp parallel num_threads(2)
#pragma omp single
  runGraph(Y.data(), Z.data(), T.data());
  checkResults("in parallel", Y.data(), T.data());

  std::fill(Y.begin(), Y.end(), 0);
  std::fill(T.begin(), T.end(), 0);
  runGraph(Y.data(), Z.data(), T.data());
  checkResults("initial thread", Y.data(), T.data());

  // Independent nowait kernels on separate arrays all finish by taskwait,
  // and a host task waits for its in-dependence on a nowait kernel.
  constexpr int Many = 8;
  std::vector<int> Out(Many * 1024, 0);
  int *O = Out.data();
  for (int J = 0; J < Many; ++J) {
    int *Part = O + J * 1024;
#pragma omp target teams distribute parallel for nowait map(from : Part[0 : 1024]) \
    depend(out : Part[0]) firstprivate(J)
    for (int I = 0; I < 1024; ++I)
      Part[I] = J * 1024 + I;
  }
  int Last = -1;
  int *LastPart = O + (Many - 1) * 1024;
  // Ordered after the last writer: sees its slice once that kernel has
  // copied it back.
#pragma omp task depend(in : LastPart[0]) shared(Last) firstprivate(LastPart)
  Last = LastPart[1023];
#pragma omp taskwait
  int Wrong = 0;
  for (int I = 0; I < Many * 1024; ++I)
    if (O[I] != I)
      ++Wrong;
  CHECK(Wrong == 0, "independent nowait kernels: %d wrong elements", Wrong);
  CHECK(Last == Many * 1024 - 1, "task after a nowait kernel read %d, not %d",
        Last, Many * 1024 - 1);
  return check::verdict();
}
