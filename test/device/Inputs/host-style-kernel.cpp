// A C++ target region: clang compiles it for the CPU device in host style,
// so its parallel region and omp_get_num_threads belong to libomp.
#include <omp.h>

void hostStyle(int &Threads, int &Level) {
#pragma omp target map(tofrom : Threads, Level)
  {
#pragma omp parallel
    {
      if (omp_get_thread_num() == 0) {
        Threads = omp_get_num_threads();
        Level = omp_get_level();
      }
    }
  }
}
