// A generic-mode kernel whose sequential part calls a declare-target
// function of another translation unit (link-time-spmd-base.cpp): clang
// cannot SPMD-ise it when it compiles this file, the link-time OpenMPOpt
// pass, which sees both, can.
#include <cstdio>

#pragma omp declare target
double base(int K);
#pragma omp end declare target

int main() {
  const int N = 1000;
  double A[N];
  for (int I = 0; I < N; ++I)
    A[I] = 0;
#pragma omp target teams num_teams(1) map(tofrom : A[0 : N])
  {
    double B = base(3);
#pragma omp parallel for
    for (int I = 0; I < N; ++I)
      A[I] += B + I;
  }
  double S = 0;
  for (int I = 0; I < N; ++I)
    S += A[I];
  std::printf("sum=%.1f\n", S);
  return S != 505500.0;
}
