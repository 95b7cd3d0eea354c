// Atomic updates of a mapped histogram from every thread.
#include <cstdio>
int main() {
  const int n = 1 << 20;
  static int data[1 << 20];
  int hist[64] = {0};
  for (int i = 0; i < n; ++i) data[i] = (i * 2654435761u) >> 26;
#pragma omp target teams distribute parallel for map(to : data) map(tofrom : hist)
  for (int i = 0; i < n; ++i) {
#pragma omp atomic update
    hist[data[i] & 63]++;
  }
  std::printf("%d\n", hist[5]);
}
