// A generic-mode kernel whose parallel region has a reduction: link-time
// OpenMPOpt writes its own state machine into it (remark OMP131).
#include <cstdio>

int main() {
  long long Sum = 0;
#pragma omp target teams distribute reduction(+ : Sum) map(tofrom : Sum)
  for (int B = 0; B < 8; ++B) {
#pragma omp parallel for reduction(+ : Sum)
    for (int J = 0; J < 100; ++J)
      Sum += J + B;
  }
  std::printf("sum=%lld\n", Sum);
  return Sum == 42400 ? 0 : 1;
}
