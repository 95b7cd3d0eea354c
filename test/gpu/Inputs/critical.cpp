// Critical sections in target regions: the unnamed one and a named one.
// Each lock is a global the compiler creates in the device code
// (_gomp_critical_user_<name>$var), with default visibility.
#include <cstdio>

int main() {
  const int N = 1000;
  long Sum = 0, Count = 0;
#pragma omp target teams distribute parallel for map(tofrom : Sum, Count)
  for (int I = 0; I < N; ++I) {
#pragma omp critical
    Sum += I;
#pragma omp critical(counter)
    ++Count;
  }
  std::printf("sum=%ld count=%ld\n", Sum, Count);
  return Sum != 499500 || Count != N;
}
