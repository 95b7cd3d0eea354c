// Every thread of an SPMD kernel allocates, fills, checks and frees blocks
// of mixed sizes in a loop, keeping a few alive at once, so threads of the
// same wavefront and of different teams race on the same free lists. A
// block handed to two threads at once shows as a foreign pattern. The heap
// (LIBOMPTARGET_HEAP_SIZE) is set far smaller than the bytes allocated in
// total, so only reuse after free lets every allocation succeed.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

enum { Threads = 512, Rounds = 40, Kept = 4 };

int main(void) {
  static int Bad[Threads];
  static uint64_t Bytes[Threads];
#pragma omp target teams distribute parallel for num_teams(4) thread_limit(128) \
    map(from : Bad, Bytes)
  for (int T = 0; T < Threads; ++T) {
    uint64_t *Held[Kept] = {0};
    int Words[Kept] = {0};
    int Wrong = 0;
    uint64_t Total = 0;
    for (int R = 0; R < Rounds; ++R) {
      int Slot = R % Kept;
      if (Held[Slot]) {
        for (int I = 0; I < Words[Slot]; ++I)
          Wrong += Held[Slot][I] != (((uint64_t)T << 32) | (R - Kept));
        free(Held[Slot]);
      }
      int N = 1 + (T * 7 + R * 13) % 40;
      uint64_t *Block = (uint64_t *)malloc(N * sizeof(uint64_t));
      Held[Slot] = Block;
      Words[Slot] = Block ? N : 0;
      Wrong += !Block;
      for (int I = 0; I < Words[Slot]; ++I)
        Block[I] = ((uint64_t)T << 32) | R;
      Total += N * sizeof(uint64_t);
    }
    for (int K = 0; K < Kept; ++K)
      free(Held[K]);
    Bad[T] = Wrong;
    Bytes[T] = Total;
  }
  int Wrong = 0;
  uint64_t Total = 0;
  for (int T = 0; T < Threads; ++T) {
    Wrong += Bad[T];
    Total += Bytes[T];
  }
  printf("device-heap-threads: %d threads, %llu KiB allocated, %d wrong\n",
         Threads, (unsigned long long)(Total >> 10), Wrong);
  return Wrong != 0;
}
