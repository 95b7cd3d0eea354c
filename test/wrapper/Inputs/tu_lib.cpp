// A static-library member with its own kernel and declare-target function.
#pragma omp declare target
static int triple(int X) { return 3 * X; }
#pragma omp end declare target

int libTripleMax(const int *Data, int N) {
  int Max = 0;
#pragma omp target teams distribute parallel for reduction(max                 \
                                                           : Max)              \
    map(to                                                                     \
        : Data [0:N])
  for (int I = 0; I < N; ++I)
    Max = triple(Data[I]) > Max ? triple(Data[I]) : Max;
  return Max;
}
