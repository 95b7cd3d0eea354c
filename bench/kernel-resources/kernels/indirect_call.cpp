// declare target indirect: the device calls host function pointers through
// the runtime's lookup table.
#include <cstdio>
#pragma omp begin declare target indirect
int twice(int x) { return 2 * x; }
int square(int x) { return x * x; }
#pragma omp end declare target
int main() {
  int (*fns[2])(int) = {twice, square};
  int out[64];
#pragma omp target teams distribute parallel for map(from : out) map(to : fns)
  for (int i = 0; i < 64; ++i)
    out[i] = fns[i % 2](i);
  std::printf("%d\n", out[5]);
}
