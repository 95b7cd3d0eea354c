// Parallel and teams reductions: on a GPU these use the warp-shuffle
// reduction entry points of the device runtime.
#include <cstdio>

int main() {
  const int N = 10000;
  static double A[N];
  for (int I = 0; I < N; ++I)
    A[I] = I;
  double Sum = 0;
  long Max = 0;
#pragma omp target teams distribute parallel for reduction(+ : Sum)            \
    reduction(max : Max) map(to : A)
  for (int I = 0; I < N; ++I) {
    Sum += A[I];
    Max = Max > I ? Max : I;
  }
  int InParallel = 0;
#pragma omp target parallel reduction(+ : InParallel)
  InParallel += 1;
  std::printf("sum=%.1f max=%ld threads>0=%d\n", Sum, Max, InParallel > 0);
  return Sum == 49995000.0 && Max == N - 1 ? 0 : 1;
}
