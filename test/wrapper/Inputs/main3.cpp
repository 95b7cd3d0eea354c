// Driver of the three-translation-unit program.
#include <cstdio>
int addBias(int *Data, int N);
long sumSquares(const int *Data, int N);
int libTripleMax(const int *Data, int N);

int main() {
  const int N = 1000;
  static int Data[N];
  for (int I = 0; I < N; ++I)
    Data[I] = I;
  int OnHost = addBias(Data, N); // Data[I] = I + 5
  long Sum = sumSquares(Data, N);
  int Max = libTripleMax(Data, N);
  std::printf("on_host=%d data[0]=%d data[999]=%d sum=%ld max=%d\n", OnHost,
              Data[0], Data[N - 1], Sum, Max);
  return 0;
}
