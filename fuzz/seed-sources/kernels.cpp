// Seed source of the fuzz corpora (fuzz/clang-seeds.py): a kernel, a
// `declare target` global and a call into library.cpp, so that the object
// clang-22 makes of it has both an entry table and a device image, and an
// archive of both objects pulls library.o by symbol.
int fuzz_global = 1;
#pragma omp declare target to(fuzz_global)

extern "C" void fuzz_b(int *X, int N);

extern "C" void fuzz_a(int *X, int N) {
#pragma omp target teams distribute parallel for map(tofrom : X[0 : N])
  for (int I = 0; I < N; ++I)
    X[I] += fuzz_global;
  fuzz_b(X, N);
}
