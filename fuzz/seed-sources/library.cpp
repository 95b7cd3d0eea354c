// Seed source of the fuzz corpora (fuzz/clang-seeds.py): the library side of
// kernels.cpp, with a `declare target` function and a `link` global.
#pragma omp declare target
int fuzz_scale(int V) { return 2 * V; }
#pragma omp end declare target

int fuzz_linked[4];
#pragma omp declare target link(fuzz_linked)

extern "C" void fuzz_b(int *X, int N) {
#pragma omp target map(tofrom : X[0 : N])
  for (int I = 0; I < N; ++I)
    X[I] = fuzz_scale(X[I]);
}

extern "C" void fuzz_c() {}
