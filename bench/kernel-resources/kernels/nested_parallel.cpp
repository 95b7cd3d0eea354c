// A parallel region inside a parallel region: the inner one is serialized
// by the device runtime, but its bookkeeping is in the kernel.
#include <cstdio>
#include <omp.h>
int main() {
  int levels[64] = {0};
#pragma omp target teams num_teams(1) map(tofrom : levels)
#pragma omp parallel num_threads(8)
  {
    int outer = omp_get_thread_num();
#pragma omp parallel num_threads(2)
    {
      if (omp_get_thread_num() == 0)
        levels[outer] = omp_get_level() * 10 + omp_get_active_level();
    }
  }
  std::printf("%d\n", levels[0]);
}
