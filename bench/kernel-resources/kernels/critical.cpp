// A critical section inside a parallel region: the runtime's lock.
#include <cstdio>
int main() {
  double total = 0;
#pragma omp target teams num_teams(4) map(tofrom : total)
#pragma omp parallel
  {
#pragma omp critical
    total += 1.0;
  }
  std::printf("%f\n", total);
}
