// Every way user code allocates in a target region: C's malloc, calloc,
// realloc, aligned_alloc and free, and C++'s new and delete in their plain,
// array, sized, aligned and nothrow forms. Each team checks its own memory;
// the program prints how many teams saw their data intact (on a GPU and
// the host fallback).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <new>

struct alignas(64) Wide {
  double Values[8];
};

int main() {
  constexpr int Teams = 64;
  int Good[Teams] = {};
#pragma omp target teams distribute map(from : Good[0 : Teams])
  for (int T = 0; T < Teams; ++T) {
    int Ok = 1;
    int *Ints = static_cast<int *>(malloc(100 * sizeof(int)));
    int *Zeroes = static_cast<int *>(calloc(10, sizeof(int)));
    char *Bytes = static_cast<char *>(aligned_alloc(256, 512));
    Ok &= Ints && Zeroes && Bytes && (uintptr_t(Bytes) % 256 == 0);
    if (Ok) {
      for (int I = 0; I < 100; ++I)
        Ints[I] = T + I;
      for (int I = 0; I < 10; ++I)
        Ok &= Zeroes[I] == 0;
      Ints = static_cast<int *>(realloc(Ints, 1000 * sizeof(int)));
      Ok &= Ints && Ints[99] == T + 99;
    }
    free(Ints);
    free(Zeroes);
    free(Bytes);
    long *One = new long(T);
    double *Many = new double[32];
    Wide *Aligned = new Wide;
    Wide *AlignedMany = new Wide[4];
    // A local tag: std::nothrow itself is a host global in read-only memory
    // that the region would map back.
    std::nothrow_t NoThrow;
    int *Maybe = new (NoThrow) int[16];
    Ok &= *One == T && (uintptr_t(Aligned) % 64 == 0) &&
          (uintptr_t(AlignedMany) % 64 == 0) && Maybe;
    delete One;
    delete[] Many;
    delete Aligned;
    delete[] AlignedMany;
    delete[] Maybe;
    Good[T] = Ok;
  }
  int Count = 0;
  for (int T = 0; T < Teams; ++T)
    Count += Good[T];
  printf("device-heap good teams: %d of %d\n", Count, Teams);
  return Count == Teams ? 0 : 1;
}
