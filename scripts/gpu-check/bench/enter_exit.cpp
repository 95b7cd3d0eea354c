// `target enter data` then `target exit data` of 1,000 separate 4 KiB
// buffers: the mapping table's cost per entry plus one small copy each way.
#include "bench.h"

int main() {
  const int N = 1000, Elems = 4096 / sizeof(int);
  std::vector<std::vector<int>> Buffers(N, std::vector<int>(Elems));
  for (int B = 0; B < N; ++B)
    for (int I = 0; I < Elems; ++I)
      Buffers[B][I] = B + I;
  std::vector<double> Enter, Exit;
  for (int R = 0; R < (bench::small() ? 3 : 11); ++R) {
    double Start = omp_get_wtime();
    for (int B = 0; B < N; ++B) {
      int *P = Buffers[B].data();
#pragma omp target enter data map(to : P[0 : Elems])
    }
    double Mid = omp_get_wtime();
    for (int B = 0; B < N; ++B) {
      int *P = Buffers[B].data();
#pragma omp target exit data map(from : P[0 : Elems])
    }
    Exit.push_back(omp_get_wtime() - Mid);
    Enter.push_back(Mid - Start);
  }
  bench::expect(Buffers[N - 1][Elems - 1] == N - 1 + Elems - 1,
                "a buffer changed on its way through the device");
  bench::row("enter_data_1000x4KiB", bench::median(Enter) * 1e3, "ms");
  bench::row("exit_data_1000x4KiB", bench::median(Exit) * 1e3, "ms");
  return bench::finish();
}
