// A local of the generic-mode main thread whose address a parallel region
// uses: it must be globalized (the runtime's shared-memory stack or a heap
// allocation, unless link-time OpenMPOpt moves it to shared memory).
#include <cstdio>
static void add(int *p, int v) {
#pragma omp atomic
  *p += v;
}
int main() {
  int result[16] = {0};
#pragma omp target teams distribute map(tofrom : result)
  for (int t = 0; t < 16; ++t) {
    int local = t;
    int *where = &local;
#pragma omp parallel num_threads(32)
    add(where, 1);
    result[t] = local;
  }
  std::printf("%d\n", result[3]);
}
