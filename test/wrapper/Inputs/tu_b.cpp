// Kernel translation unit B: a reduction on the device.
long sumSquares(const int *Data, int N) {
  long Sum = 0;
#pragma omp target teams distribute parallel for reduction(+ : Sum)        \
    map(to : Data[0 : N])
  for (int I = 0; I < N; ++I)
    Sum += (long)Data[I] * Data[I];
  return Sum;
}
