// declare_target, the static library: a device function called only from
// main.cpp's kernel (so the linker wrapper has to take this archive member
// for its device code), a global array updated on the device, and a `link`
// array.
#include "dt.h"

int LibTable[TableSize];
int LibLinked[LinkSize];

#pragma omp begin declare target
int libMix(int X, int Y) { return X * 7 + Y + LibTable[X % TableSize]; }
#pragma omp end declare target

int libHostSum() {
  int S = 0;
  for (int I = 0; I < TableSize; ++I)
    S += LibTable[I];
  return S;
}
