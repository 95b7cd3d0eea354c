// Library translation unit of multi-tu.test.
int sumFromLibrary(int N) {
  int Sum = 0;
#pragma omp target map(tofrom : Sum)
  for (int I = 0; I < N; ++I)
    Sum += I;
  return Sum;
}
