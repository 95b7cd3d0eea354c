// A lambda used inside a target region is passed by value (firstprivate);
// its by-reference captures must point, in the lambda's device copy, to the
// device copies of what they capture, so the lambda reads and writes the
// mapped array the region sees. Checked on both runtimes.
// REQUIRES: our-libomptarget
// RUN: %clangxx -O2 -fopenmp -fopenmp-targets=%target-cpu %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=mandatory %ours-run %t | FileCheck %s
// RUN: env OMP_TARGET_OFFLOAD=mandatory %upstream-run %t | FileCheck %s
#include <cstdio>

int main() {
  int Data[10];
  for (int I = 0; I < 10; ++I)
    Data[I] = I;
  long Scale[4] = {0, 3, 0, 0};
  auto Update = [&Data, Scale](int I) {
    Data[I] = Data[I] * static_cast<int>(Scale[1]);
    return &Data[0];
  };
  int SameStorage = 0;
#pragma omp target map(tofrom : Data) map(from : SameStorage)
  {
    int *Seen = nullptr;
    for (int I = 0; I < 10; ++I)
      Seen = Update(I);
    // The lambda worked on the array this region maps.
    SameStorage = Seen == &Data[0];
    Data[9] += 1;
  }
  // CHECK: same storage 1, Data[2]=6 Data[9]=28
  std::printf("same storage %d, Data[2]=%d Data[9]=%d\n", SameStorage, Data[2],
              Data[9]);
  return 0;
}
