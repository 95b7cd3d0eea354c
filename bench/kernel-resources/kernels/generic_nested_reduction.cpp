// Generic-mode teams loop (code between the two constructs keeps the kernel
// generic: the main thread runs it, workers wait in the state machine) with
// a nested parallel for reduction.
#include <cstdio>
#define ROWS 256
#define COLS 1024
static double m[ROWS][COLS], rowsum[ROWS];
int main() {
  for (int i = 0; i < ROWS; ++i)
    for (int j = 0; j < COLS; ++j) m[i][j] = (i * j) % 7;
#pragma omp target teams distribute map(to : m) map(from : rowsum)
  for (int i = 0; i < ROWS; ++i) {
    double s = 0;
    double scale = 1.0 / (i + 1);
#pragma omp parallel for reduction(+ : s)
    for (int j = 0; j < COLS; ++j)
      s += m[i][j] * scale;
    rowsum[i] = s;
  }
  std::printf("%f\n", rowsum[3]);
}
